// Trees live in their own process groups and would outlive the host: its exit kills what is still running.
import { markedProcesses } from './procfs';

const isWindows = process.platform === 'win32';

/** What the exit hook needs of a live tree: its root (its group's id) and its marker. */
interface ExitKillable {
  readonly pid: number;
  readonly marker?: string;
}

/** Live trees of every supervisor, killed if the host process exits while they run. */
const liveSets = new Set<ReadonlySet<ExitKillable>>();
let exitHookInstalled = false;

/**
 * Trees live in their own process groups, so they would outlive the host: on `exit` (the only moment left,
 * synchronous) each group gets SIGKILL. A host killed by a signal it does not handle cannot do this.
 */
export function killOnExit(live: ReadonlySet<ExitKillable>): void {
  liveSets.add(live);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    const markers = new Set<string>();
    for (const set of liveSets) {
      for (const tree of set) {
        if (tree.marker) markers.add(tree.marker);
        try {
          process.kill(isWindows ? tree.pid : -tree.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
    // What left the group (setsid) is found by its marker.
    for (const pid of markedProcesses(markers)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  });
}

/** The exit hook no longer kills `live`'s trees (their supervisor was disposed). */
export function forgetOnExit(live: ReadonlySet<ExitKillable>): void {
  liveSets.delete(live);
}
