// The shells of a large host are forked by a small helper process (Linux). libuv forks on Linux (a clone
// without CLONE_VM in the libuv of Node 20.20.2 and 24.22.3), and a fork copies the page tables of all the
// memory the forking process touched, inside the synchronous `spawn()` call, on the event loop's thread,
// so every Bash call of an extension host of a few hundred MiB stalled the host for milliseconds before
// its shell started (docs/MEASUREMENTS.md, "Spawn helper"). The helper is a plain Node process of ~40 MiB: it forks the shell, stops
// reading its output pipes at once (what the shell writes waits in the kernel) and hands both sockets to
// the host over the IPC channel, so the host reads the shell's own pipes and nothing is copied on the way;
// then it reports the exit. Given a FIFO whose read end the host holds (src/tools/process/outputPipe.ts), it opens
// the write end as the shell's stdout and stderr instead, and only the pid is sent back. From a small host a
// direct spawn is the faster (`SPAWN_HELPER_MIN_RSS_BYTES`).
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { PassThrough, type Readable } from 'node:stream';

/**
 * A host smaller than this spawns directly: below it, the fork costs less than the helper's IPC round
 * trips (a request, two handles each acknowledged, the exit; docs/MEASUREMENTS.md, "Spawn helper").
 */
export const SPAWN_HELPER_MIN_RSS_BYTES = 128 * 2 ** 20;

/** When the shells go through the helper: by the host's size, always (tests) or never. */
export type SpawnHelperMode = 'auto' | 'always' | 'never';

/**
 * A reading of the host's RSS this recent decides the next shell too, so not every Bash call pays for a
 * read of `/proc/self/stat`. A host
 * crossing `SPAWN_HELPER_MIN_RSS_BYTES` has its shells forked the other way for at most this long:
 * either way is correct, only slower for a moment.
 */
export const RSS_READING_REUSE_MS = 1000;

let lastRss: { readonly bytes: number; readonly at: number } | undefined;

/** The host's RSS, read again when the last reading is older than `RSS_READING_REUSE_MS`. */
export function recentRss(now = performance.now(), read: () => number = process.memoryUsage.rss): number {
  if (!lastRss || now - lastRss.at >= RSS_READING_REUSE_MS || now < lastRss.at) lastRss = { bytes: read(), at: now };
  return lastRss.bytes;
}

/** Whether a shell is to be forked by the helper, for a host of `rssBytes` (Linux only). */
export function spawnHelperWanted(mode: SpawnHelperMode, rssBytes: () => number, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux' || mode === 'never') return false;
  return mode === 'always' || rssBytes() >= SPAWN_HELPER_MIN_RSS_BYTES;
}

/**
 * The helper, run with `node -e`: no file to ship or find. It forks what it is asked to (each in its own
 * session), never reads the pipes, and on losing the host kills the process groups it started that have
 * not exited (the host's own exit hook knows only the ones it heard of).
 */
const HELPER_SOURCE = `
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const running = new Map();
const send = (message, handle) => { try { process.send(message, handle, () => {}); } catch {} };
process.on('message', (request) => {
  let child;
  let output;
  if (request.fifo !== undefined) {
    // The host holds the read end until this answers, so the open does not wait; on failure, sockets.
    try {
      output = fs.openSync(request.fifo, fs.constants.O_WRONLY);
      fs.unlinkSync(request.fifo);
    } catch {}
  }
  try {
    child = spawn(request.file, request.args, { cwd: request.cwd, env: request.env, stdio: ['ignore', output ?? 'pipe', output ?? 'pipe'], detached: true });
  } catch (error) {
    send({ id: request.id, error: { code: error.code, message: error.message } });
    return;
  } finally {
    if (output !== undefined) fs.closeSync(output);
  }
  if (child.pid === undefined) {
    child.once('error', (error) => send({ id: request.id, error: { code: error.code, message: error.message } }));
    return;
  }
  running.set(child.pid, child);
  if (output !== undefined) {
    send({ id: request.id, pid: child.pid, stream: 'fifo' });
  } else {
    child.stdout._handle.readStop();
    child.stderr._handle.readStop();
    send({ id: request.id, pid: child.pid, stream: 'stdout' }, child.stdout);
    send({ id: request.id, stream: 'stderr' }, child.stderr);
  }
  child.once('exit', (code, signal) => {
    running.delete(child.pid);
    send({ id: request.id, exit: { code, signal } });
  });
});
process.on('disconnect', () => {
  for (const pid of running.keys()) { try { process.kill(-pid, 'SIGKILL'); } catch {} }
  process.exit(0);
});
send({ ready: true });
`;

/**
 * The environment of a Node child of the host (the spawn helper, the sandbox runtime's process): not the
 * host's NODE_OPTIONS (a debugger, a preload), so a bare Node, and in Electron Node itself. The rest of the
 * host's environment stays, so what looks for the host's descendants by it finds the child too.
 */
export function bareNodeEnvironment(): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _options, ...env } = process.env;
  return { ...env, ELECTRON_RUN_AS_NODE: '1' };
}

/** A Node child with an IPC channel keeps its host alive only while `busy` (a request of the host's is under way). */
export function keepHostAliveWhile(child: ChildProcess, busy: boolean): void {
  const channel = child.channel as { ref(): void; unref(): void } | null | undefined;
  if (busy) {
    child.ref();
    channel?.ref();
  } else {
    child.unref();
    channel?.unref();
  }
}

/** The helper stopped while one of its commands ran: the command's exit can no longer be known. */
export class SpawnHelperLostError extends Error {
  constructor(helperPid: number | undefined, code: number | null, signal: NodeJS.Signals | null) {
    super(`the process that started the command (the spawn helper${helperPid === undefined ? '' : `, pid ${helperPid}`}) ended (${signal ?? `exit code ${code}`}) before the command did, so its exit status is unknown`);
    this.name = 'SpawnHelperLostError';
  }
}

/** What the shell tools read of a child process, for one the helper started. */
export class HelperChild extends EventEmitter {
  stdout: Readable | null = null;
  stderr: Readable | null = null;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;

  constructor(readonly pid: number | undefined) {
    super();
  }
}

interface Request {
  readonly id: number;
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env: NodeJS.ProcessEnv;
  /** A FIFO for the shell's stdout and stderr (its read end held by the host). */
  readonly fifo?: string;
}

interface Pending {
  /** The helper asked: when it ends, only its own spawns are lost. */
  readonly helper: ChildProcess;
  child?: HelperChild;
  /** The child was handed over (its pipes are here, or its output goes to the host's FIFO). */
  handedOver?: boolean;
  resolve(child: HelperChild): void;
}

/** One helper process, started on first use and again after it ended; its spawns, by request id. */
export class SpawnHelper {
  private helper: ChildProcess | undefined;
  /** The helper that said it runs (its first message). */
  private answering: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  /** The helper's pid while it runs. */
  get pid(): number | undefined {
    return this.helper?.pid;
  }

  /**
   * Forks `file` with `args` in its own session, stdout and stderr piped. Resolves once the shell runs
   * and both pipes are here; a spawn that failed resolves with a child without a pid that emits the
   * error, as `child_process.spawn` reports it. With `fifo` (a FIFO whose read end the caller keeps open
   * until this settles) the shell writes both to it, and the child comes without streams, unless the
   * helper could not open it: then with its socket pairs, as without.
   */
  spawn(file: string, args: readonly string[], options: { readonly cwd?: string; readonly env: NodeJS.ProcessEnv; readonly fifo?: string }): Promise<HelperChild> {
    const helper = this.running();
    const id = this.nextId++;
    return new Promise<HelperChild>((resolve) => {
      this.pending.set(id, { helper, resolve });
      this.refIfBusy();
      const request: Request = { id, file, args, ...(options.cwd === undefined ? {} : { cwd: options.cwd }), env: options.env, ...(options.fifo === undefined ? {} : { fifo: options.fifo }) };
      helper.send(request, (error) => {
        if (error) this.settle(id, { error: { code: (error as NodeJS.ErrnoException).code, message: error.message } });
      });
    });
  }

  /** The helper runs and has said so: a spawn now waits for no start. */
  get ready(): boolean {
    return this.helper !== undefined && this.answering === this.helper;
  }

  /** Starts the helper unless it runs; it keeps nothing alive until asked for a spawn. */
  start(): void {
    this.running();
  }

  /** Stops the helper; commands it started keep running (their trees are killed by their supervisor). */
  dispose(): void {
    const helper = this.helper;
    this.helper = undefined;
    helper?.kill('SIGKILL');
  }

  private running(): ChildProcess {
    if (this.helper) return this.helper;
    // The shells get the environment each request names.
    const helper = spawn(process.execPath, ['-e', HELPER_SOURCE], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      env: bareNodeEnvironment(),
      serialization: 'json',
    });
    this.helper = helper;
    helper.on('message', (message: HelperMessage | { readonly ready: true }, handle?: Socket) => {
      if ('ready' in message) this.answering = helper;
      else this.onMessage(message, handle);
    });
    // Its commands are given up only once it exited and its channel is closed: what it sent before it
    // died (a shell's pid and pipes) is still read from the channel after the exit is seen.
    let exit: { readonly code: number | null; readonly signal: NodeJS.Signals | null } | undefined;
    let disconnected = false;
    const ended = () => {
      if (this.helper === helper) this.helper = undefined;
      if (exit && disconnected) this.onExit(helper, exit.code, exit.signal);
    };
    helper.once('exit', (code, signal) => {
      exit = { code, signal };
      ended();
    });
    helper.once('disconnect', () => {
      disconnected = true;
      ended();
    });
    // Node itself could not be started: no exit and no channel to wait for.
    helper.once('error', () => {
      exit ??= { code: null, signal: null };
      disconnected = true;
      ended();
    });
    this.refIfBusy();
    return helper;
  }

  private onMessage(message: HelperMessage, handle: Socket | undefined): void {
    const entry = this.pending.get(message.id);
    if (!entry) {
      handle?.destroy();
      return;
    }
    if ('error' in message) {
      this.settle(message.id, message);
      return;
    }
    if ('exit' in message) {
      const child = entry.child;
      this.pending.delete(message.id);
      this.refIfBusy();
      if (!child) return;
      child.exitCode = message.exit.code;
      child.signalCode = message.exit.signal;
      child.emit('exit', message.exit.code, message.exit.signal);
      child.emit('close', message.exit.code, message.exit.signal);
      return;
    }
    if (message.stream === 'fifo') {
      entry.child = new HelperChild(message.pid);
      entry.handedOver = true;
      entry.resolve(entry.child);
      return;
    }
    if (message.stream === 'stdout') entry.child = new HelperChild(message.pid);
    const child = entry.child;
    if (!child || !handle) return;
    child[message.stream] = held(handle);
    if (child.stdout && child.stderr) {
      entry.handedOver = true;
      entry.resolve(child);
    }
  }

  /** A spawn that failed before it ran. */
  private settle(id: number, message: { readonly error: { readonly code?: string; readonly message: string } }): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    this.refIfBusy();
    failed(entry, Object.assign(new Error(message.error.message), { code: message.error.code }));
  }

  private onExit(helper: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    const lost = [...this.pending].filter(([, entry]) => entry.helper === helper);
    for (const [id] of lost) this.pending.delete(id);
    this.refIfBusy();
    for (const [, entry] of lost) {
      const error = new SpawnHelperLostError(helper.pid, code, signal);
      const child = entry.child;
      if (child && entry.handedOver) {
        child.emit('error', error);
        continue;
      }
      // Started but not handed over: its supervisor finds it by its marker.
      child?.stdout?.destroy();
      failed(entry, error);
    }
  }

  /** The IPC channel keeps the host alive only while a spawn or a command of the helper's is under way. */
  private refIfBusy(): void {
    if (this.helper) keepHostAliveWhile(this.helper, this.pending.size > 0);
  }
}

type HelperMessage =
  | { readonly id: number; readonly error: { readonly code?: string; readonly message: string } }
  | { readonly id: number; readonly pid: number; readonly stream: 'stdout' | 'fifo' }
  | { readonly id: number; readonly stream: 'stderr' }
  | { readonly id: number; readonly exit: { readonly code: number | null; readonly signal: NodeJS.Signals | null } };

/**
 * The socket read into a stream that keeps what arrives, its end too, until it is read. Node reads a
 * socket it receives at once, and one whose shell is already done ends (end, then close) right away,
 * before the other pipe arrives and anyone listens: what read it then would wait for an end long gone.
 * The pipe between them passes the reader's backpressure on to the socket; closing the stream closes it.
 */
function held(socket: Socket): Readable {
  const out = new PassThrough();
  socket.once('error', (error) => out.destroy(error));
  out.once('close', () => socket.destroy());
  socket.pipe(out);
  return out;
}

/** Resolves a spawn with a child that emits `error` on a later turn, as `child_process.spawn` reports a failed spawn. */
function failed(entry: Pending, error: Error): void {
  const child = new HelperChild(undefined);
  entry.resolve(child);
  setImmediate(() => child.emit('error', error));
}
