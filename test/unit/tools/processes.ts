// Counting real processes for the tree-kill tests: by a marker in their command line, through /proc.
import * as fs from 'node:fs';

/** A `sleep` argument unique to one test run, so only our own processes are counted. */
export function uniqueSleep(): string {
  return `1000.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}

/** Whether a process with this pid is there (signal 0 probes without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Live (non-zombie) processes whose command line (arguments joined by spaces) and parent pid `match`. */
export function livingProcesses(match: (cmdline: string, parent: number) => boolean): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      if (state !== 'Z' && match(cmdline, Number(parent))) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** Live (non-zombie) `sleep MARKER` processes (shells whose command line merely mentions it are not counted). */
export function countProcesses(marker: string): number {
  return livingProcesses((cmdline) => cmdline.trim() === `sleep ${marker}`).length;
}

/** Waits (without a time limit of its own: the test runner's timeout bounds it) until `check` holds. */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Test hygiene: SIGKILLs any `sleep MARKER` still alive (used only when an assertion already failed). */
export function killMarked(marker: string): void {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim() === `sleep ${marker}`) process.kill(Number(entry), 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}
