// Child processes of the shell tools: started in their own process group, and killed as a whole tree
// (TERM, then KILL) so that no process is left behind. A supervisor knows every live tree, so the host
// can stop them all on dispose and tests can wait for the last kill to finish.
//
// A process can leave both the tree and the group (`setsid`, a double fork): on Linux each tree's
// processes also carry a marker in their environment, which children inherit, so what a tree started
// is found through `/proc/<pid>/environ` wherever it went; one that also dropped its environment
// (`env -i`) but still holds the tree's output pipe is found through `/proc/<pid>/fd`. A kill reports what survived it; nothing
// claims a kill that did not happen.
//
// A process in the middle of an exec has no environment to read (the kernel lays the new program's out
// only after switching its memory), and a `setsid` daemon exec'ing its program has left the group and
// lost its parent too: such a process is read again until its exec is done (`EXEC_SETTLE_MAX_MS`), or a
// kill right after the shell's exit missed it about once in 300 commands and left it running.
//
// Those /proc scans read every process on the machine; they run only over what can be the tree's. Every
// process of a tree was started after its root, so (in the root's pid namespace, until pid numbers wrap)
// its pid lies between the root's and the last pid given out: `/proc/loadavg` names that last pid, and the
// forks counted since the start in `/proc/stat` bound whether numbers could have wrapped (with pid_max,
// when pids are too low for the last one alone to rule a wrap out). A command that
// started nothing (`echo hi`) leaves an empty window and no scan at all.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { ToolContext } from '../../executor';
import { FifoPool, fifoReader, openFifoWriter, runHereQuietly, unlinkFifo, type OutputFifo } from './outputPipe';
import { recentRss, SpawnHelper, SpawnHelperLostError, spawnHelperWanted, type SpawnHelperMode } from './spawnHelper';

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
/**
 * How long a process of the tree's pid window that is in the middle of an exec (its environment not yet
 * readable) is read again before it is taken as not the tree's. An exec takes well under a millisecond
 * here (`setsid sleep`: two of them); 100 ms covers one that waits on the disk for its program.
 */
export const EXEC_SETTLE_MAX_MS = 100;
/** Scans of /proc for a tree known only by its marker, each SIGKILLing what it found (`killMarked`). */
export const KILL_MARKED_PASSES = 5;
/** The environment variable that marks every process of one tree (inherited by children, kept by `setsid`). */
export const TREE_MARKER_VARIABLE = 'AGENT_TOOL_EXECUTOR_TREE';

const isWindows = process.platform === 'win32';

/** One started process tree. `exited` settles when the root process exits. */
export interface ProcessTree {
  readonly child: ShellChild;
  readonly pid: number;
  /** Settles with the root's exit code and signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * Kills the root, its process group and every descendant; resolves when they are gone. After the root
   * exited, this kills what it left running in its group (background jobs of a command).
   */
  kill(): Promise<KillReport>;
  /**
   * True when the root was reaped and no pid was given out after it: it started nothing, so `kill()`
   * would find nothing to stop (answered without a promise: a Bash call asks it after every exit).
   */
  startedNothing(): boolean;
}

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

export interface ProcessSupervisorOptions {
  /** Whether shells are forked by the spawn helper (src/tools/process/spawnHelper.ts). @default 'auto': when the host is large */
  readonly spawnHelper?: SpawnHelperMode;
  /** This process's RSS in bytes, for `'auto'` (tests). @default a reading at most `RSS_READING_REUSE_MS` old */
  readonly rssBytes?: () => number;
}

/** Tracks live trees: dispose kills them all; `idle()` waits for pending kills. */
export class ProcessSupervisor {
  private readonly live = new Set<ProcessTree>();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly helperMode: SpawnHelperMode;
  private readonly rssBytes: () => number;
  private helper: SpawnHelper | undefined;
  /** The FIFOs shells write their output to (src/tools/process/outputPipe.ts), made on first use. */
  private fifos: FifoPool | undefined;

  constructor(options: ProcessSupervisorOptions = {}) {
    this.helperMode = options.spawnHelper ?? 'auto';
    this.rssBytes = options.rssBytes ?? (() => recentRss());
  }

  /** The spawn helper's pid while it runs (tests). */
  get spawnHelperPid(): number | undefined {
    return this.helper?.pid;
  }

  /** Whether the spawn helper runs and has said so (tests). */
  get spawnHelperReady(): boolean {
    return this.helper?.ready === true;
  }

  /**
   * Prepares what the first shell would otherwise wait for: the spawn helper, if this process is already
   * large enough for its shells to go through it (an extension host always is), and the first output FIFOs.
   * A host calls this as it starts its tools. Both fork this process, as any spawn does.
   */
  warmUp(): void {
    if (spawnHelperWanted(this.helperMode, this.rssBytes)) (this.helper ??= new SpawnHelper()).start();
    this.fifoPool().warmUp();
  }

  /** Spawns `command` with `args` in a new process group (a new session on POSIX), in this process. */
  start(command: string, args: readonly string[], options: SpawnOptions): ProcessTree {
    const { marker, env, since } = treeStart(options.env);
    const child = spawn(command, args, { ...options, env, detached: !isWindows, windowsHide: true });
    return this.adopt(child, marker, since);
  }

  /** Why shells get Node's socket pairs rather than a pipe, once that is known (tests, diagnostics). */
  get outputPipeUnavailable(): string | undefined {
    return this.fifos?.unavailableReason;
  }

  /**
   * `start`, with stdout and stderr in one pipe (src/tools/process/outputPipe.ts; Node's socket pairs where there
   * is none), forked by the spawn helper when this process is large enough for its own fork to cost more
   * (`helperNow`). `onAbort` (`ToolContext.onAbort`, or `onSignalAbort`): a spawn still under way
   * when it fires rejects with its reason, and the shell is killed as soon as it runs.
   */
  async startShell(command: string, args: readonly string[], options: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv }, onAbort?: OnAbort): Promise<ProcessTree> {
    const taken = this.fifoPool().take();
    const fifo = taken instanceof Promise ? await taken : taken;
    const helper = this.helperNow();
    if (!helper) return fifo ? this.startWithFifo(command, args, options, fifo) : this.start(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const { marker, env, since } = treeStart(options.env);
    // The helper opens a write end of its own.
    if (fifo?.writeFd !== undefined) fs.closeSync(fifo.writeFd);
    const forked = helper.spawn(command, args, { ...(options.cwd === undefined ? {} : { cwd: options.cwd }), env, ...(fifo ? { fifo: fifo.path } : {}) });
    // The read end stays open until the helper answered (its open of the write end waits for a reader).
    const spawning = fifo ? forked.then((child) => withFifoOutput(child, fifo)) : forked.then((child) => ({ child, output: undefined }));
    if (!onAbort) {
      const { child, output } = await spawning;
      return this.adopt(child, marker, since, output);
    }
    let stopListening = () => {};
    const aborted = new Promise<never>((_, reject) => {
      stopListening = onAbort(reject);
    });
    aborted.catch(() => {});
    try {
      const { child, output } = await Promise.race([spawning, aborted]);
      return this.adopt(child, marker, since, output);
    } catch (error) {
      // Given up while the helper forked it: the whole tree is stopped once it is known (`idle()` waits for
      // that), and its output, which no one reads, is let go.
      void this.track(
        spawning.then(({ child, output }) => {
          const tree = this.adopt(child, marker, since, output);
          child.stdout?.destroy();
          child.stderr?.destroy();
          return tree.kill();
        }),
      );
      throw error;
    } finally {
      stopListening();
    }
  }

  private fifoPool(): FifoPool {
    return (this.fifos ??= new FifoPool((file, fileArgs) => this.runQuietly(file, fileArgs)));
  }

  /** `start` with the shell's stdout and stderr the write end of `fifo`, read from its read end. */
  private startWithFifo(command: string, args: readonly string[], options: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv }, fifo: OutputFifo): ProcessTree {
    let writeFd: number;
    try {
      writeFd = openFifoWriter(fifo);
    } catch {
      fs.closeSync(fifo.readFd);
      unlinkFifo(fifo);
      return this.start(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    }
    const { marker, env, since } = treeStart(options.env);
    let child: ChildProcess;
    try {
      child = spawn(command, args, { ...options, env, detached: !isWindows, windowsHide: true, stdio: ['ignore', writeFd, writeFd] });
    } catch (error) {
      fs.closeSync(fifo.readFd);
      throw error;
    } finally {
      // The shell has its own copy: ours would keep the pipe open after everything the command started ended.
      fs.closeSync(writeFd);
      unlinkFifo(fifo);
    }
    const { output } = withFifoOutput(child, fifo);
    return this.adopt(child, marker, since, output);
  }

  /**
   * The spawn helper a process is to be forked by now, or undefined: here. In `'auto'`, only a helper that
   * already runs: one still starting is not waited for (starting a Node process costs a first call more than
   * forking its shell here; docs/MEASUREMENTS.md, "Spawn helper"), so the
   * shells of a host that has just grown past `SPAWN_HELPER_MIN_RSS_BYTES` are forked here until it runs.
   */
  private helperNow(): SpawnHelper | undefined {
    if (!spawnHelperWanted(this.helperMode, this.rssBytes)) return undefined;
    const helper = (this.helper ??= new SpawnHelper());
    if (this.helperMode === 'always' || helper.ready) return helper;
    helper.start();
    return undefined;
  }

  /** Runs `file` quietly, forked as a shell would be (`helperNow`): `RunQuietly`. */
  private runQuietly(file: string, args: readonly string[]): Promise<boolean | undefined> {
    const helper = this.helperNow();
    if (!helper) return runHereQuietly(file, args);
    return helper.spawn(file, args, { env: process.env }).then(
      (child) =>
        new Promise<boolean | undefined>((resolve) => {
          child.stdout?.resume();
          child.stderr?.resume();
          child.once('error', (error: Error) => resolve(error instanceof SpawnHelperLostError ? undefined : false));
          child.once('exit', (code: number | null) => resolve(code === 0));
        }),
    );
  }

  /** The tree of a just-started `child`, tracked until it is gone; `output`: the FIFO its stdout and stderr are, if they are one. */
  private adopt(child: ShellChild, marker: string, since: PidAllocation | undefined, output?: OutputFifo): ProcessTree {
    if (child.pid === undefined) {
      // spawn reports ENOENT and kin asynchronously; surface it through `exited`. A spawn helper that ended
      // before it named the shell may have started it: whatever carries the marker is killed.
      let killing: Promise<KillReport> | undefined;
      const exited = new Promise<never>((_, reject) =>
        child.once('error', (error) => {
          if (error instanceof SpawnHelperLostError) killing = this.track(killMarked(marker));
          reject(error);
        }),
      );
      exited.catch(() => {});
      const none: KillReport = { signalled: 0, forced: 0, survivors: [] };
      const kill = async () => {
        await exited.catch(() => undefined);
        return killing ?? none;
      };
      return { child, pid: -1, exited, kill, startedNothing: () => killing === undefined };
    }
    const pid = child.pid;
    let killing: Promise<KillReport> | undefined;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      // A helper's child can have exited before it is adopted: the spawn helper's answer and the exit of
      // a short command (`true`) may come in one read of its channel, both handled before the spawn's
      // promise lets this run.
      if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
      else child.once('exit', (code, signal) => resolve({ code, signal }));
      child.once('error', (error) => {
        // The spawn helper ended under a running command: nothing will report its exit, so it is stopped.
        if (error instanceof SpawnHelperLostError) void tree.kill();
        reject(error);
      });
    });
    exited.catch(() => {});
    // The output pipes, as the kernel names them: a process holding one was started by this tree, even
    // after it left the tree, the group and its environment (`env -i setsid ...`).
    const pipes = outputPipes(pid, output);
    const tree: ProcessTree & { marker: string } = {
      child,
      pid,
      marker,
      exited,
      kill: () => (killing ??= this.track(killTree(child, marker, pipes, since))),
      startedNothing: () => startedNothing(child, since),
    };
    this.live.add(tree);
    killOnExit(this.live);
    const forget = () => {
      void (killing ?? Promise.resolve()).then(() => this.live.delete(tree));
    };
    child.once('close', forget);
    exited.then(forget, forget);
    return tree;
  }

  /** Resolves when no kill and no held work (a running Bash call) is in progress. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** The live trees' root pids. */
  get livePids(): number[] {
    return [...this.live].map((tree) => tree.pid);
  }

  /** Kills every live tree. */
  async dispose(): Promise<void> {
    await Promise.allSettled([...this.live].map((tree) => tree.kill()));
    await this.idle();
    this.helper?.dispose();
    this.helper = undefined;
    this.fifos?.dispose();
    this.fifos = undefined;
    liveSets.delete(this.live);
  }

  /** Holds `work` (a running call) so `idle()` waits for it; returns it unchanged. */
  hold<T>(work: Promise<T>): Promise<T> {
    return this.track(work);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work)).catch(() => {});
    return work;
  }
}

/** Listens for an abort, as `ToolContext.onAbort` does: the listener gets the reason; the result stops listening. */
export type OnAbort = ToolContext['onAbort'];

/** `OnAbort` for an `AbortSignal`: told at once if it is aborted already. */
export function onSignalAbort(signal: AbortSignal): OnAbort {
  return (listener) => {
    const tell = () => listener(signal.reason);
    if (signal.aborted) {
      tell();
      return () => {};
    }
    signal.addEventListener('abort', tell, { once: true });
    return () => signal.removeEventListener('abort', tell);
  };
}

/** A new tree's marker, its environment with the marker, and the pid allocation read before its fork. */
function treeStart(base: NodeJS.ProcessEnv | undefined): { marker: string; env: NodeJS.ProcessEnv; since: PidAllocation | undefined } {
  const marker = randomUUID();
  // Read before the fork (or a moment before): every fork after it, the tree's included, is counted from here.
  return { marker, env: { ...(base ?? process.env), [TREE_MARKER_VARIABLE]: marker }, since: recentPidAllocation() };
}

/** Live trees of every supervisor, killed if the host process exits while they run. */
const liveSets = new Set<ReadonlySet<ProcessTree & { marker?: string }>>();
let exitHookInstalled = false;

/**
 * Trees live in their own process groups, so they would outlive the host: on `exit` (the only moment left,
 * synchronous) each group gets SIGKILL. A host killed by a signal it does not handle cannot do this.
 */
function killOnExit(live: ReadonlySet<ProcessTree>): void {
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

/** The process-wide supervisor the built-in tools use unless given another. */
export const defaultProcessSupervisor = new ProcessSupervisor();

async function killTree(child: ShellChild, marker: string, pipes: ReadonlySet<string>, since: PidAllocation | undefined): Promise<KillReport> {
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
async function killMarked(marker: string): Promise<KillReport> {
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
function startedNothing(child: ShellChild, since: PidAllocation | undefined): boolean {
  const reaped = child.exitCode !== null || child.signalCode !== null;
  return !isWindows && reaped && pidWindowEnd(child.pid!, since) === child.pid;
}

/**
 * A child whose output went to `fifo`'s write end gets its read end as stdout, and `output` is the FIFO; one
 * that came with streams of its own (the spawn helper could not open the FIFO) or none (it failed to start)
 * lets the read end go.
 */
function withFifoOutput<Child extends ShellChild & { stdout: Readable | null }>(child: Child, fifo: OutputFifo): { child: Child; output: OutputFifo | undefined } {
  if (child.pid === undefined || child.stdout) {
    fs.closeSync(fifo.readFd);
    return { child, output: undefined };
  }
  child.stdout = fifoReader(fifo);
  return { child, output: fifo };
}

/**
 * The pipes of a just-started process's stdout and stderr, as /proc names them (Linux; empty elsewhere).
 * The tree's own FIFO (`output`) is named by its path, or once removed (just after the spawn) `<path>
 * (deleted)`, which nothing outside the tree can hold (its folder is this process's, 0700): both are known
 * without reading /proc (readlinks right after the spawn are slow while the new process finishes its exec;
 * docs/MEASUREMENTS.md, "Process tree").
 * Node's socket pairs are named `socket:[inode]`, read from the child's fds. This process, which holds the
 * read end, is never looked for; of Node's socket pairs, the child's end is held only by what it started.
 */
function outputPipes(pid: number, output: OutputFifo | undefined): Set<string> {
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
function recentPidAllocation(): PidAllocation | undefined {
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
function pidWindowEnd(root: number, since: PidAllocation | undefined): number | undefined {
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

/** The /proc entries in the tree's pid window (see `pidWindowEnd`), or undefined: all of /proc. */
function treeScope(root: number, since: PidAllocation | undefined): string[] | undefined {
  const last = pidWindowEnd(root, since);
  if (last === undefined) return undefined;
  // Nothing given out since the root: the root alone (the listing is read only for a wider window).
  if (last === root) return [String(root)];
  return otherProcesses().filter((entry) => Number(entry) >= root && Number(entry) <= last);
}

/** The process ids in /proc (Linux) other than this process's own, as /proc names them. */
function otherProcesses(): string[] {
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
 * `markedProcesses` that reads each process caught in the middle of an exec again, every millisecond,
 * until its exec is done or `EXEC_SETTLE_MAX_MS` passed.
 */
async function markedSettled(markers: ReadonlySet<string>, scope: readonly string[] | undefined): Promise<number[]> {
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

interface ProcStat {
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

function descendantsOf(root: number, listed: readonly ProcStat[]): number[] {
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

function groupMembers(pgid: number, listed: readonly ProcStat[]): number[] {
  return listed
    .filter((proc) => proc.pgid === pgid && proc.state !== 'Z')
    .map((proc) => proc.pid);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
