// Reads /proc (Linux) for the kill: which processes can be a tree's, what they hold, and what they carry in their environment.
import * as fs from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { OutputFifo } from './outputPipe';

/**
 * How long a process of the tree's pid window that is in the middle of an exec (its environment not yet
 * readable) is read again before it is taken as not the tree's. An exec takes well under a millisecond
 * here (`setsid sleep`: two of them); 100 ms covers one that waits on the disk for its program.
 */
export const EXEC_SETTLE_MAX_MS = 100;
/** The environment variable that marks every process of one tree (inherited by children, kept by `setsid`). */
export const TREE_MARKER_VARIABLE = 'AGENT_TOOL_EXECUTOR_TREE';

/**
 * The pipes of a just-started process's stdout and stderr, as /proc names them (Linux; empty elsewhere).
 * The tree's own FIFO (`output`) is named by its path, or once removed (just after the spawn) `<path>
 * (deleted)`, which nothing outside the tree can hold (its folder is this process's, 0700): both are known
 * without reading /proc (readlinks right after the spawn are slow while the new process finishes its exec;
 * docs/MEASUREMENTS.md, "Process tree").
 * Node's socket pairs are named `socket:[inode]`, read from the child's fds. This process, which holds the
 * read end, is never looked for; of Node's socket pairs, the child's end is held only by what it started.
 */
export function outputPipes(pid: number, output: OutputFifo | undefined): Set<string> {
  const pipes = new Set<string>();
  if (process.platform !== 'linux') return pipes;
  if (output) return pipes.add(output.path).add(`${output.path} (deleted)`);
  for (const fd of [1, 2]) {
    try {
      const link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (link.startsWith('pipe:') || link.startsWith('socket:')) pipes.add(link);
    } catch {
      // Already gone, or not ours to read.
    }
  }
  return pipes;
}

/** The process ids in /proc (Linux) other than this process's own, as /proc names them. */
export function otherProcesses(): string[] {
  try {
    return fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid);
  } catch {
    return [];
  }
}

/** Live processes (other than this one) with one of `pipes` open: whoever still holds a tree's output. */
export function pipeHolders(pipes: ReadonlySet<string>, scope?: readonly string[]): number[] {
  if (process.platform !== 'linux' || pipes.size === 0) return [];
  const found: number[] = [];
  for (const entry of scope ?? otherProcesses()) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    const holds = fds.some((fd) => {
      try {
        return pipes.has(fs.readlinkSync(`/proc/${entry}/fd/${fd}`));
      } catch {
        return false;
      }
    });
    if (holds && isAlive(Number(entry))) found.push(Number(entry));
  }
  return found;
}

/**
 * Live processes (Linux) whose environment carries one of `markers`: what a tree started, even after it
 * left the tree. Only the user's own processes can be read, which are the only ones it could start.
 */
export function markedProcesses(markers: ReadonlySet<string>, scope?: readonly string[]): number[] {
  return scanMarked(markers, scope).marked;
}

/**
 * `markedProcesses`, and the processes whose environment could not be read because they are in the
 * middle of an exec (`execing`): one of those may be the tree's, so it has to be read again.
 */
function scanMarked(markers: ReadonlySet<string>, scope?: readonly string[]): { marked: number[]; execing: number[] } {
  const marked: number[] = [];
  const execing: number[] = [];
  if (process.platform !== 'linux' || markers.size === 0) return { marked, execing };
  const needles = [...markers].map((marker) => Buffer.from(`${TREE_MARKER_VARIABLE}=${marker}\0`));
  for (const entry of scope ?? otherProcesses()) {
    const pid = Number(entry);
    const found = environMarked(pid, needles);
    if (found === 'execing') execing.push(pid);
    else if (found && isAlive(pid)) marked.push(pid);
  }
  return { marked, execing };
}

/**
 * A process in the middle of an exec has no environment to read (the kernel lays the new program's out
 * only after switching its memory), and a `setsid` daemon exec'ing its program has left the group and
 * lost its parent too: such a process is read again until its exec is done, or a kill right after the
 * shell's exit missed it about once in 300 commands and left it running.
 *
 * `markedProcesses` that reads each process caught in the middle of an exec again, every millisecond,
 * until its exec is done or `EXEC_SETTLE_MAX_MS` passed.
 */
export async function markedSettled(markers: ReadonlySet<string>, scope: readonly string[] | undefined): Promise<number[]> {
  const { marked, execing } = scanMarked(markers, scope);
  const deadline = performance.now() + EXEC_SETTLE_MAX_MS;
  for (let waiting = execing; waiting.length > 0 && performance.now() < deadline; ) {
    await delay(1);
    const again = scanMarked(markers, waiting.map(String));
    marked.push(...again.marked);
    waiting = again.execing;
  }
  return marked;
}

/**
 * Whether the process's environment holds one of `needles`; 'execing' when it is empty only because the
 * process is in the middle of an exec. The kernel reads the environment from the memory the process had
 * when the file was opened, and shows none until the new program's is laid out, nor once the old memory
 * is released; /proc/<pid>/stat tells those (`execUnderWay`) from an environment that is really empty
 * (`env -i`) and from a kernel thread, which has none.
 */
export function environMarked(pid: number, needles: readonly Buffer[]): boolean | 'execing' {
  let environ: Buffer;
  try {
    environ = fs.readFileSync(`/proc/${pid}/environ`);
  } catch {
    return false;
  }
  if (environ.length > 0) return needles.some((needle) => environ.includes(needle));
  const memory = readMemoryLayout(pid);
  return memory && execUnderWay(memory) ? 'execing' : false;
}

/** A kernel thread (`PF_KTHREAD` in /proc/<pid>/stat's flags): it has no memory and no environment of its own. */
const PF_KTHREAD = 0x00200000;

/** The fields of /proc/<pid>/stat that tell an exec under way. */
export interface MemoryLayout {
  readonly state: string;
  readonly flags: number;
  readonly startCode: number;
  readonly envStart: number;
  readonly envEnd: number;
}

/**
 * Whether a process whose environment read as empty is in the middle of an exec. The kernel lays out the
 * new program's memory in steps (`create_elf_tables`, then `load_elf_binary`): no `env_end` at first; then
 * `env_start` = `env_end` while the environment is counted, which is how an empty one reads for good; and
 * `start_code` only after that, so a process with a real empty environment has one and a process caught
 * counting has none (under load, a `setsid` daemon caught there was otherwise taken for `env -i`, missed
 * and left running).
 */
export function execUnderWay(memory: MemoryLayout): boolean {
  if (memory.state === 'Z' || memory.state === 'X' || (memory.flags & PF_KTHREAD) !== 0) return false;
  return memory.envEnd === 0 || memory.startCode === 0 || memory.envStart !== memory.envEnd;
}

export function readMemoryLayout(pid: number): MemoryLayout | undefined {
  const fields = statFields(pid);
  // Field 3 (state) is at 0, 9 (flags) at 6, 26 (start_code) at 23, 50 and 51 (env_start, env_end) at 47 and 48.
  if (!fields || fields.length < 49) return undefined;
  return { state: fields[0]!, flags: Number(fields[6]), startCode: Number(fields[23]), envStart: Number(fields[47]), envEnd: Number(fields[48]) };
}

/** Alive and not a zombie (a zombie is dead; only its parent's wait is missing). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const stat = readStat(pid);
  return stat === undefined ? process.platform !== 'linux' : stat.state !== 'Z' && stat.state !== 'X';
}

export interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly state: string;
}

/** Every process as /proc lists it, or those of `scope` (Linux); empty elsewhere, where the process group kill has to do. */
export function listProcesses(scope?: readonly string[]): ProcStat[] {
  if (process.platform !== 'linux') return [];
  let entries: readonly string[];
  try {
    entries = scope ?? fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcStat[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat) out.push(stat);
  }
  return out;
}

function readStat(pid: number): ProcStat | undefined {
  const fields = statFields(pid);
  return fields && { pid, state: fields[0]!, ppid: Number(fields[1]), pgid: Number(fields[2]) };
}

/** The fields of /proc/<pid>/stat after the command name, from field 3 (state) on; undefined when it is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name is in parentheses and may itself hold spaces or parentheses.
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

export function descendantsOf(root: number, listed: readonly ProcStat[]): number[] {
  const children = new Map<number, number[]>();
  for (const proc of listed) {
    const list = children.get(proc.ppid) ?? [];
    list.push(proc.pid);
    children.set(proc.ppid, list);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

export function groupMembers(pgid: number, listed: readonly ProcStat[]): number[] {
  return listed
    .filter((proc) => proc.pgid === pgid && proc.state !== 'Z')
    .map((proc) => proc.pid);
}
