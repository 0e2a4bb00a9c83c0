// Child processes of the VS Code suites: each server or browser runs in its own process
// group, is tagged through its environment, and is killed as a group, so nothing outlives a run.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import * as fs from 'node:fs';

/** Every process the suites start carries this variable; its value names the run. */
export const RUN_TAG_VARIABLE = 'AGENT_TOOL_EXECUTOR_TEST_RUN';

/** How long a group gets to exit after SIGTERM before it is sent SIGKILL. */
const TERM_GRACE_MS = 3000;

/** Groups and run tags this process started and has not stopped yet, for the signal handler. */
const liveGroups = new Set<number>();
const liveTags = new Set<string>();
let signalHandlerInstalled = false;

/**
 * Makes sure a SIGINT or SIGTERM (a developer's Ctrl+C, a backstop timeout) kills everything this
 * process started, even mid-start: the servers and browsers run in their own process groups, so
 * the signal never reaches them.
 */
export function trackTag(runTag: string): () => void {
  installSignalHandler();
  liveTags.add(runTag);
  return () => liveTags.delete(runTag);
}

function installSignalHandler(): void {
  if (signalHandlerInstalled) return;
  signalHandlerInstalled = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const pid of liveGroups) signalGroup(pid, 'SIGKILL');
      void Promise.all([...liveTags].map((tag) => killTagged(tag))).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
}

export interface GroupProcess {
  readonly child: ChildProcess;
  readonly name: string;
  /** Resolves with the exit code (or signal name) once the group leader exits. */
  readonly exited: Promise<number | string>;
  /** Forgets the group for the signal handler (after it was killed). */
  readonly untrack: () => void;
}

/** Starts `command` as the leader of a new process group (`detached`), tagged with `runTag`. */
export function spawnGroup(
  name: string,
  command: string,
  args: readonly string[],
  runTag: string,
  options: SpawnOptions = {},
): GroupProcess {
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
    detached: true,
    env: { ...(options.env ?? process.env), [RUN_TAG_VARIABLE]: runTag },
  });
  const untrack = trackTag(runTag);
  if (child.pid !== undefined) liveGroups.add(child.pid);
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    child.once('error', (error) => resolve(error.message));
  });
  return { child, name, exited, untrack };
}

/** SIGTERM to the whole group, then SIGKILL to whatever of it is left after the grace period. */
export async function killGroup(group: GroupProcess, runTag: string): Promise<void> {
  const pid = group.child.pid;
  if (pid === undefined) {
    return;
  }
  signalGroup(pid, 'SIGTERM');
  const timer = new Promise<'timeout'>((resolve) => setTimeout(resolve, TERM_GRACE_MS, 'timeout').unref());
  await Promise.race([group.exited, timer]);
  // Members may outlive the leader (VS Code's file watcher does), so always sweep the group.
  signalGroup(pid, 'SIGKILL');
  await killTagged(runTag);
  liveGroups.delete(pid);
  group.untrack();
}

/** Processes, other than this one, whose run tag starts with `runTag` (any tagged process when it is empty). */
export function findTagged(runTag = ''): { pid: number; command: string }[] {
  const needle = `${RUN_TAG_VARIABLE}=${runTag}`;
  const found: { pid: number; command: string }[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) {
      continue;
    }
    try {
      const environ = fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
      if (!environ.some((line) => line.startsWith(needle))) {
        continue;
      }
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
      // A zombie waits only for its parent to reap it; it holds nothing.
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) {
        continue;
      }
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim();
      found.push({ pid, command });
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** SIGKILLs every process left with the run tag, then waits until they are gone. */
export async function killTagged(runTag: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const left = findTagged(runTag);
    if (left.length === 0) {
      return;
    }
    for (const { pid } of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}
