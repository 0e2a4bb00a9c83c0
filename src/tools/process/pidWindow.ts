// The window of pids a tree's processes can have, from the kernel's pid allocation, so a kill scans only those of /proc.
import * as fs from 'node:fs';
import { otherProcesses } from './procfs';

/** Where pid allocation stood: the pid namespace's last pid, the machine's forks and tasks so far. */
export interface PidAllocation {
  readonly lastPid: number;
  readonly forks: number;
  readonly tasks: number;
}

/**
 * A reading of the pid allocation this recent stands in for a new one as the start of a tree's window,
 * saving two /proc reads before a spawn in a run of commands. Any reading taken before the
 * fork bounds the window soundly: an older one counts more forks since, which only makes the wrap check
 * more cautious. 100 ms: a machine forking 1,000 processes a second adds 100 forks to the ~8,000 the
 * check allows with the smallest default pid_max (32768).
 */
export const PID_READING_REUSE_MS = 100;

/** The last reading and when it was taken (`performance.now()`). */
let lastReading: { readonly allocation: PidAllocation; readonly at: number } | undefined;

/** The last reading of the pid allocation if it is recent enough (`PID_READING_REUSE_MS`), else a new one. */
export function recentPidAllocation(): PidAllocation | undefined {
  if (lastReading && performance.now() - lastReading.at < PID_READING_REUSE_MS) return lastReading.allocation;
  return pidAllocation();
}

/** Pids below this are never given out again after a wrap (the kernel's RESERVED_PIDS). */
const RESERVED_PIDS = 300;

/** Linux only; undefined where /proc does not tell (then every scan reads all of /proc). */
export function pidAllocation(): PidAllocation | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    // `0.00 0.01 0.05 1/123 45678`: the running/total tasks (machine-wide) and the last pid (this namespace).
    const load = /(\d+)\/(\d+) (\d+)\s*$/.exec(readProcFile('/proc/loadavg', PROC_LINE_READ_BYTES));
    // `processes N`: forks since boot, machine-wide.
    const forks = /^processes (\d+)$/m.exec(readProcFile('/proc/stat'));
    if (!load || !forks) return undefined;
    const allocation = { lastPid: Number(load[3]), tasks: Number(load[2]), forks: Number(forks[1]) };
    lastReading = { allocation, at: performance.now() };
    return allocation;
  } catch {
    return undefined;
  }
}

/** Open /proc files read again and again (each read regenerates them): a pread costs a fraction of an open. */
const procFiles = new Map<string, number>();
/** Room for /proc/stat, whose text grows with the CPUs and interrupts (about 1.2 KB on 2 cores). */
const PROC_READ_BYTES = 64 * 1024;
const procBuffer = Buffer.allocUnsafe(PROC_READ_BYTES);
/**
 * What a read of a one-line file (/proc/loadavg, a sysctl such as pid_max) asks for: five numbers fit
 * in 128 bytes. A sysctl read allocates and zeroes a kernel buffer as large as the read asks for
 * (`proc_sys_call_handler`), and the zeroing also evicts what the executor had in the CPU's caches
 * (docs/MEASUREMENTS.md, "Process tree").
 */
const PROC_LINE_READ_BYTES = 128;

/**
 * A /proc file's current text, read through a descriptor kept open (reopened once if it fails), with
 * one read of at most `readBytes`; a text that fills them is read again whole.
 */
function readProcFile(file: string, readBytes = PROC_READ_BYTES): string {
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd = procFiles.get(file);
    try {
      if (fd === undefined) procFiles.set(file, (fd = fs.openSync(file, 'r')));
      const length = fs.readSync(fd, procBuffer, 0, readBytes, 0);
      // Larger than the read (/proc/stat of a machine with very many CPUs or interrupts): read it whole.
      return length < readBytes ? procBuffer.toString('latin1', 0, length) : fs.readFileSync(file, 'latin1');
    } catch (error) {
      procFiles.delete(file);
      if (fd !== undefined) {
        try {
          fs.closeSync(fd);
        } catch {
          // Closed already.
        }
      }
      if (attempt === 1) throw error;
    }
  }
  return '';
}

/** Where pids wrap (a sysctl: read each time). 0 when unknown. */
function pidMax(): number {
  try {
    return Number(readProcFile('/proc/sys/kernel/pid_max', PROC_LINE_READ_BYTES));
  } catch {
    return 0;
  }
}

/**
 * The last pid given out, when every process of the tree rooted at `root` has a pid from the root's to
 * it; undefined when that cannot be known. Pids are handed out in rising
 * order and wrap at pid_max back to 300; to wrap and climb back past the root, allocation has to pass
 * over nearly every pid number, each either given out in between (at most the forks counted) or in use
 * (a task's own pid, or the group or session one names: at most three per task, tasks alive at the
 * start or forked since). Fewer than that: no wrap, and nothing of the tree lies outside the window.
 */
export function pidWindowEnd(root: number, since: PidAllocation | undefined): number | undefined {
  if (!since) return undefined;
  const now = pidAllocation();
  return now ? windowEnd(root, since, now, pidMax) : undefined;
}

/**
 * `pidWindowEnd` over two readings. After a wrap, allocation climbs again from 300, skipping the pid
 * numbers in use, so the last pid is at most 300 + those numbers + the pids given out since: a last pid
 * above that proves there was no wrap without asking pid_max (one /proc read fewer after a command,
 * wherever pids have grown past a few hundred). Below it, pid_max decides as above.
 */
export function windowEnd(root: number, since: PidAllocation, now: PidAllocation, readPidMax: () => number): number | undefined {
  const forks = now.forks - since.forks;
  if (now.lastPid < root || forks < 0) return undefined;
  const inUse = 3 * (since.tasks + forks);
  if (now.lastPid > RESERVED_PIDS + inUse + forks) return now.lastPid;
  const max = readPidMax();
  if (!(max > RESERVED_PIDS) || forks + inUse >= max - RESERVED_PIDS) return undefined;
  return now.lastPid;
}

/**
 * The /proc entries in the tree's pid window (see `pidWindowEnd`), or undefined: all of /proc. The scans
 * read every process on the machine, so they run only over what can be the tree's: every process of a tree
 * was started after its root, so (in the root's pid namespace, until pid numbers wrap) its pid lies between
 * the root's and the last pid given out. A command that started nothing (`echo hi`) leaves an empty window
 * and no scan at all.
 */
export function treeScope(root: number, since: PidAllocation | undefined): string[] | undefined {
  const last = pidWindowEnd(root, since);
  if (last === undefined) return undefined;
  // Nothing given out since the root: the root alone (the listing is read only for a wider window).
  if (last === root) return [String(root)];
  return otherProcesses().filter((entry) => Number(entry) >= root && Number(entry) <= last);
}
