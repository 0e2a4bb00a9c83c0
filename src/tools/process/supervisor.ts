// The supervisor of the shell tools' processes: it starts each in its own process group and knows every live tree, so the host can stop them all.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { ToolContext } from '../../executor';
import { forgetOnExit, killOnExit } from './exitKill';
import { killMarked, killTree, startedNothing, type KillReport, type ShellChild } from './kill';
import { FifoPool, fifoReader, openFifoWriter, runHereQuietly, unlinkFifo, type OutputFifo } from './outputPipe';
import { recentPidAllocation, type PidAllocation } from './pidWindow';
import { outputPipes, TREE_MARKER_VARIABLE } from './procfs';
import { recentRss, SpawnHelper, SpawnHelperLostError, spawnHelperWanted, type SpawnHelperMode } from './spawnHelper';

export type { KillReport, ShellChild } from './kill';

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
    forgetOnExit(this.live);
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
