// A shell's output goes through a real pipe (Linux), one for its stdout and stderr together, as a terminal
// shows them. Node's `stdio: 'pipe'` gives a child a socket pair, and a socket is not a pipe: `echo x >
// /dev/stderr`, `tee /dev/stdout` and every program told to write to /dev/stdout fail with ENXIO, since
// /proc/self/fd/1 of a socket cannot be opened; and the kernel moves data through a socket more slowly
// (docs/MEASUREMENTS.md, "Output pipe").
//
// Node makes no pipe of its own, so each is a FIFO: `mkfifo` makes a batch of them in a private folder
// (0700), and each command takes one: its read end is opened first (non-blocking, so the open waits for
// no writer), then its write end (a reader is there, so that open returns at once); the command gets the
// write end as fd 1 and fd 2, and the name is removed once it has it. Where no FIFO can
// be had (not Linux, no `mkfifo`, a folder that is gone), the command gets Node's socket pair.
// The folder goes with the pool, or at the process's exit; one left by a process that was killed is
// removed by the next process that makes a pool.
//
// The folder is made on a file system in memory where there is one (the temp folder if it is one, else
// `$XDG_RUNTIME_DIR`, else /dev/shm; the temp folder otherwise): a FIFO holds no data, but on a disk each
// one is an inode the file system journals as it is made and removed, and a process's first command waits
// for the batch.
//
// Where the pool's folder is on a local disk or in memory (the mount table, src/node/runtime/localMounts.ts),
// a command's FIFO is opened when the command takes it, synchronously (its read end non-blocking, then its
// write end, which a reader is there for: neither open waits), and its name is removed the same way right
// after the spawn, while the shell starts. Elsewhere (a TMPDIR on NFS or FUSE, where a call can wait on a
// server) the next command's FIFO is opened ahead through the thread pool, both ends, and its name removed
// that way: each thread-pool call wakes a pool thread, which on a 2-core machine competes with the shell
// being forked, so the synchronous opens are used wherever they cannot wait.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { Socket } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { processMountTable, type MountTable } from '../../node/runtime/localMounts';

/**
 * FIFOs one `mkfifo` makes: its fork and exec are shared by this many commands; each waiting FIFO is one
 * empty inode in the folder.
 */
export const FIFO_BATCH = 256;
/** When fewer are left, the next batch is made while commands go on taking the rest: none waits for it. */
export const FIFO_LOW_WATER = 64;

/** A FIFO whose read end is open: the command's writer opens `path` (and removes it). */
export interface OutputFifo {
  readonly path: string;
  /** The read end: non-blocking, close-on-exec. */
  readonly readFd: number;
  /** The write end, when it was opened ahead (close-on-exec: only the command gets it, as its fd 1 and 2). */
  readonly writeFd?: number;
  /** Its folder is on a local file system: its write end is opened and its name removed synchronously. */
  readonly local?: boolean;
}

/**
 * Runs `file` with `args`, its output ignored; resolves whether it exited with 0, or undefined when it could
 * not be run for a reason of the moment (the spawn helper ended under it): the next command tries again.
 */
export type RunQuietly = (file: string, args: readonly string[]) => Promise<boolean | undefined>;

/** `RunQuietly` in this process: `file` forked here, its output ignored. */
export function runHereQuietly(file: string, args: readonly string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: 'ignore', windowsHide: true });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}

/** A pool's folder is `<tmpdir>/<prefix><pid>-<random>`: the pid of the process that made it. */
const FOLDER_PREFIX = 'tool-exec-pipes-';

/** Every pool's folder, removed if the process exits with it. */
const folders = new Set<string>();
let exitHookInstalled = false;

/** FIFOs made ahead, taken one per command. */
export class FifoPool {
  private folder: string | undefined;
  /** The folder is on a local file system (decided when it is made): FIFOs are opened as they are taken, not ahead. */
  private local = false;
  /** `mkfifo` failed in a folder of `parents`: folders go in the temp folder from then on. */
  private tempOnly = false;
  private ready: string[] = [];
  private making: Promise<void> | undefined;
  private made = 0;
  /** The next command's FIFO, both ends open, or the opening of them. */
  private prepared: OutputFifo | undefined;
  private preparing = false;
  private disposed = false;
  /** Why no FIFO is to be had in this process (`mkfifo` failed); undefined while they are. */
  private unavailable: string | undefined;

  /**
   * `mounts`: whether a (real) path is on a local file system, where opening a FIFO cannot wait on a server,
   * and whether it is in memory; `parents`: where the folder may go, the first in memory taken (`fifoParents`).
   */
  constructor(
    private readonly runQuietly: RunQuietly,
    private readonly platform: NodeJS.Platform = process.platform,
    private readonly mounts: FifoMounts = processMountTable,
    private readonly parents: () => readonly string[] = fifoParents,
  ) {}

  /** Why commands get Node's socket pair instead (tests, diagnostics); undefined while FIFOs are made. */
  get unavailableReason(): string | undefined {
    return this.platform === 'linux' ? this.unavailable : `FIFOs are used on Linux only (${this.platform})`;
  }

  /**
   * A fresh FIFO with its read end open, or undefined: the command gets Node's socket pair. Answers without
   * a promise while FIFOs are ready; only the first command (and one that outran a batch) waits for one.
   * Where the folder is local its read end is opened now, synchronously; elsewhere it was opened ahead.
   */
  take(): OutputFifo | undefined | Promise<OutputFifo | undefined> {
    if (this.unavailableReason !== undefined) return undefined;
    // Opened ahead (only where the folder is not local): taken as it is.
    const prepared = this.prepared;
    if (prepared) {
      this.prepared = undefined;
      this.prepare();
      return prepared;
    }
    if (this.ready.length < FIFO_LOW_WATER) this.makeMore();
    if (this.ready.length > 0) {
      const fifo = this.open(this.ready.pop()!);
      this.prepare();
      return fifo;
    }
    return this.making!.then(() => (this.ready.length > 0 ? this.open(this.ready.pop()!) : undefined));
  }

  /** Makes the first batch now, for the first command to find ready. */
  warmUp(): void {
    if (this.unavailableReason === undefined && !this.disposed && this.ready.length < FIFO_LOW_WATER) this.makeMore();
  }

  /** Removes the folder and the FIFOs still in it. */
  dispose(): void {
    this.disposed = true;
    this.ready = [];
    if (this.prepared) closeEnds(this.prepared);
    this.prepared = undefined;
    this.drop();
  }

  /** Opens the next FIFO's ends through the thread pool, for the next command to take as they are; none where the folder is local. */
  private prepare(): void {
    if (this.preparing || this.prepared || this.disposed || this.local) return;
    if (this.ready.length < FIFO_LOW_WATER) this.makeMore();
    const fifo = this.ready.pop();
    if (fifo === undefined) return;
    this.preparing = true;
    void openEnds(fifo).then((opened) => {
      this.preparing = false;
      if (!opened) return;
      if (this.disposed) closeEnds(opened);
      else this.prepared = opened;
    });
  }

  private open(fifo: string): OutputFifo | undefined {
    try {
      return { path: fifo, readFd: fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK), local: this.local };
    } catch {
      // The folder was removed under us (a /tmp cleaner): the next batch makes a new one.
      this.ready = [];
      this.drop();
      return undefined;
    }
  }

  private makeMore(): void {
    if (this.making) return;
    const making = this.makeBatch().finally(() => {
      if (this.making === making) this.making = undefined;
    });
    this.making = making;
  }

  private async makeBatch(): Promise<void> {
    let folder = this.folder;
    try {
      if (!folder) {
        folder = makeFolder(this.tempOnly ? [] : this.parents(), this.mounts);
        this.local = onLocalDisk(folder, this.mounts);
        this.folder = folder;
        rememberFolder(folder);
      }
    } catch (error) {
      this.unavailable = `no folder for FIFOs: ${(error as Error).message}`;
      return;
    }
    const names = Array.from({ length: FIFO_BATCH }, () => path.join(folder, String(this.made++)));
    const made = await this.runQuietly('mkfifo', ['-m', '600', '--', ...names]).catch(() => false);
    if (made === undefined) return;
    if (!made) {
      // A file system in memory may refuse FIFOs where it allows the folder (a confined app): the temp folder, once.
      if (!this.tempOnly && this.folder === folder) {
        this.tempOnly = true;
        this.drop();
        return this.makeBatch();
      }
      this.unavailable = '`mkfifo` failed';
      return;
    }
    if (this.folder === folder) {
      this.ready.push(...names);
      this.prepare();
    } else {
      // Disposed or dropped while it ran: what it made there goes too.
      removeFolder(folder);
    }
  }

  private drop(): void {
    const folder = this.folder;
    this.folder = undefined;
    if (!folder) return;
    removeFolder(folder);
  }
}

/** What the pool asks the mount table. */
export type FifoMounts = Pick<MountTable, 'isLocal' | 'inMemory'>;

/** Where a pool's folder may go, in order of preference, when it is in memory: the temp folder, the user's runtime folder, /dev/shm. */
export function fifoParents(env: NodeJS.ProcessEnv = process.env): string[] {
  const runtime = env.XDG_RUNTIME_DIR;
  return [os.tmpdir(), ...(runtime && path.isAbsolute(runtime) ? [runtime] : []), '/dev/shm'];
}

/**
 * A private folder (0700) in the first of `parents` on a file system in memory that takes one, else in the
 * temp folder; its real path, the one /proc shows for a FIFO in it (src/tools/process/processTree.ts names a tree's
 * output by it).
 */
function makeFolder(parents: readonly string[], mounts: FifoMounts): string {
  for (const parent of parents) {
    try {
      const real = fs.realpathSync.native(parent);
      if (mounts.inMemory(real)) return fs.mkdtempSync(path.join(real, `${FOLDER_PREFIX}${process.pid}-`));
    } catch {
      // Gone, not a folder, or not ours to write in: the next one.
    }
  }
  return fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), `${FOLDER_PREFIX}${process.pid}-`)));
}

/** Whether `folder` is on a local file system; a folder whose real path cannot be had is taken as not. */
function onLocalDisk(folder: string, mounts: FifoMounts): boolean {
  try {
    return mounts.isLocal(fs.realpathSync.native(folder));
  } catch {
    return false;
  }
}

function removeFolder(folder: string): void {
  folders.delete(folder);
  try {
    fs.rmSync(folder, { recursive: true, force: true });
  } catch {
    // A batch still being made in it (ENOTEMPTY): removed when that batch is done.
  }
}

function rememberFolder(folder: string): void {
  folders.add(folder);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Once per process: the folders of processes that are gone (killed, so no exit hook ran) go too.
  void removeOrphanFolders(path.dirname(folder));
  process.once('exit', () => {
    for (const each of folders) {
      try {
        fs.rmSync(each, { recursive: true, force: true });
      } catch {
        // Nothing more can be done at exit.
      }
    }
  });
}

/** Removes `<prefix><pid>-*` folders in `parent` whose process no longer runs (a live pid, maybe reused, keeps its folder). */
export async function removeOrphanFolders(parent: string, isRunning: (pid: number) => boolean = processRuns): Promise<void> {
  let entries: string[];
  try {
    entries = await fs.promises.readdir(parent);
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = entry.startsWith(FOLDER_PREFIX) ? Number(entry.slice(FOLDER_PREFIX.length).split('-')[0]) : NaN;
    if (!Number.isInteger(pid) || pid <= 0 || isRunning(pid)) continue;
    await fs.promises.rm(path.join(parent, entry), { recursive: true, force: true }).catch(() => {});
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Both ends of `fifo`, opened through the thread pool (the read end first, so the write end's open does not wait); undefined if either failed. */
function openEnds(fifo: string): Promise<OutputFifo | undefined> {
  return new Promise((resolve) => {
    fs.open(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK, (readError, readFd) => {
      if (readError) {
        resolve(undefined);
        return;
      }
      fs.open(fifo, fs.constants.O_WRONLY, (writeError, writeFd) => {
        if (writeError) {
          fs.close(readFd, () => {});
          resolve(undefined);
          return;
        }
        resolve({ path: fifo, readFd, writeFd });
      });
    });
  });
}

function closeEnds(fifo: OutputFifo): void {
  fs.close(fifo.readFd, () => {});
  if (fifo.writeFd !== undefined) fs.close(fifo.writeFd, () => {});
}

/**
 * The write end of `fifo`, for the command (blocking, as a program expects its stdout to be): the one
 * opened ahead, or opened now (the read end is open, so the open does not wait).
 */
export function openFifoWriter(fifo: OutputFifo): number {
  return fifo.writeFd ?? fs.openSync(fifo.path, fs.constants.O_WRONLY);
}

/** Removes `fifo`'s name once its command holds the write end, so nothing else can open it (through the thread pool where it is not local). */
export function unlinkFifo(fifo: OutputFifo): void {
  // Gone with its folder already: the pipe lives on in its ends.
  if (!fifo.local) {
    fs.unlink(fifo.path, () => {});
    return;
  }
  try {
    fs.unlinkSync(fifo.path);
  } catch {
    // As above.
  }
}

/** The read end as a stream; destroying it closes the fd. */
export function fifoReader(fifo: OutputFifo): Readable {
  return new Socket({ fd: fifo.readFd, readable: true, writable: false });
}
