// The kill algorithm: TERM, then KILL, to every process a tree started, wherever it went, and a report of what survived.
import { spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import { pidWindowEnd, treeScope, type PidAllocation } from './pidWindow';
import { descendantsOf, groupMembers, isAlive, listProcesses, markedSettled, pipeHolders } from './procfs';

/** Time between TERM and KILL; well inside Bash's 6 s cleanup grace (spec §3.7). */
export const KILL_GRACE_MS = 2000;
/** How often a dying tree is checked between TERM and KILL, at most: the checks start sooner and back off to it. */
export const KILL_CHECK_INTERVAL_MS = 50;
/**
 * The first check of a dying tree after a signal: most processes are gone within a millisecond of TERM,
 * and a call that waited 50 ms for each kill paid that after every command that left a process running.
 */
export const KILL_FIRST_CHECK_MS = 1;
/** After SIGKILL, how long to wait for the processes to be gone before reporting them as survivors. */
export const KILL_CONFIRM_MS = 2000;
/** Scans of /proc for a tree known only by its marker, each SIGKILLing what it found (`killMarked`). */
export const KILL_MARKED_PASSES = 5;

const isWindows = process.platform === 'win32';

export interface KillReport {
  /** Processes that were signalled. */
  readonly signalled: number;
  /** Processes that needed SIGKILL after the grace. */
  readonly forced: number;
  /** Processes still alive after SIGKILL (another user's, or stuck in the kernel): not killed. */
  readonly survivors: readonly number[];
}

/** What the shell tools read of a started process: a `ChildProcess`, or one the spawn helper started. */
export interface ShellChild {
  readonly pid?: number | undefined;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  once(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'close', listener: (...args: unknown[]) => void): unknown;
}

/**
 * Kills the tree rooted at `child`. A process can leave both the tree and the group (`setsid`, a double
 * fork): on Linux each tree's processes also carry `marker` in their environment, which children inherit,
 * so what a tree started is found through `/proc/<pid>/environ` wherever it went; one that also dropped its
 * environment (`env -i`) but still holds the tree's output pipe (`pipes`) is found through `/proc/<pid>/fd`.
 * The report says what survived; nothing claims a kill that did not happen.
 */
export async function killTree(child: ShellChild, marker: string, pipes: ReadonlySet<string>, since: PidAllocation | undefined): Promise<KillReport> {
  const pid = child.pid!;
  if (isWindows) {
    await new Promise<void>((resolve) => {
      const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' });
      killer.once('exit', () => resolve());
      killer.once('error', () => resolve());
    });
    return { signalled: 1, forced: 1, survivors: [] };
  }
  if (startedNothing(child, since)) return { signalled: 0, forced: 0, survivors: [] };
  // Descendants are listed before any signal: a child that left the group (setsid) is still found
  // through its parent while the parent lives, and through its marker after.
  const markers = new Set([marker]);
  const members = async () => {
    const scope = treeScope(pid, since);
    const listed = listProcesses(scope);
    return [...descendantsOf(pid, listed), ...groupMembers(pid, listed), ...(await markedSettled(markers, scope)), ...pipeHolders(pipes, scope)];
  };
  const targets = new Set([pid, ...(await members())].filter(isAlive));
  if (targets.size === 0) return { signalled: 0, forced: 0, survivors: [] };
  signalAll(pid, targets, 'SIGTERM');
  const deadline = Date.now() + KILL_GRACE_MS;
  for (let wait = KILL_FIRST_CHECK_MS; Date.now() < deadline && [...targets].some(isAlive); wait = nextCheck(wait)) {
    await delay(wait);
    for (const extra of await members()) if (isAlive(extra)) targets.add(extra);
  }
  const stubborn = [...new Set([...targets, ...(await members())])].filter(isAlive);
  for (const extra of stubborn) targets.add(extra);
  if (stubborn.length > 0) signalAll(pid, new Set(stubborn), 'SIGKILL');
  const confirmBy = Date.now() + KILL_CONFIRM_MS;
  for (let wait = KILL_FIRST_CHECK_MS; Date.now() < confirmBy && stubborn.some(isAlive); wait = nextCheck(wait)) await delay(wait);
  return { signalled: targets.size, forced: stubborn.length, survivors: stubborn.filter(isAlive) };
}

/**
 * SIGKILLs every process that carries `marker`, until none is found (a forking one may start more while
 * it is looked for): a tree whose root pid was never known, so only its marker leads to it.
 */
export async function killMarked(marker: string): Promise<KillReport> {
  const markers = new Set([marker]);
  const signalled = new Set<number>();
  for (let pass = 0; pass < KILL_MARKED_PASSES; pass++) {
    const found = (await markedSettled(markers, undefined)).filter(isAlive);
    if (found.length === 0) break;
    for (const pid of found) {
      signalled.add(pid);
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    await delay(KILL_FIRST_CHECK_MS);
  }
  const confirmBy = Date.now() + KILL_CONFIRM_MS;
  for (let wait = KILL_FIRST_CHECK_MS; Date.now() < confirmBy && [...signalled].some(isAlive); wait = nextCheck(wait)) await delay(wait);
  return { signalled: signalled.size, forced: signalled.size, survivors: [...signalled].filter(isAlive) };
}

/** The wait before the next check of a dying tree: twice the last, up to `KILL_CHECK_INTERVAL_MS`. */
function nextCheck(wait: number): number {
  return Math.min(2 * wait, KILL_CHECK_INTERVAL_MS);
}

/** The root was reaped and no pid was given out after it: it started nothing, so nothing is left (POSIX). */
export function startedNothing(child: ShellChild, since: PidAllocation | undefined): boolean {
  const reaped = child.exitCode !== null || child.signalCode !== null;
  return !isWindows && reaped && pidWindowEnd(child.pid!, since) === child.pid;
}

function signalAll(pgid: number, pids: ReadonlySet<number>, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group may be empty already.
  }
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}
