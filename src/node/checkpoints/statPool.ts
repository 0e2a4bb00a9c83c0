// lstat of many paths, shared between the calling thread and one worker thread. A later checkpoint's
// walk spends most of its time in lstat (one per entry, changed or not), and git status spreads the
// same stats over threads; the worker is started after a walk large enough to need it and ends when idle.
import * as fs from 'node:fs';
import { Worker } from 'node:worker_threads';

/** What a walk needs of an entry's lstat. */
export interface EntryStat {
  readonly kind: 'file' | 'dir' | 'link' | 'other';
  readonly dev: number;
  readonly ino: number;
  readonly mode: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

/** Below this many paths the worker's wake-up costs more than the stats it would take. */
export const STAT_POOL_MIN_PATHS = 512;
/** Paths claimed at a time by either thread: enough that claims cost nothing, few enough that neither thread waits long for the other. */
const CLAIM = 32;
/** How long the caller waits, over one list, for the worker's claims before stating what is left itself (and ending the worker). */
const WORKER_WAIT_MS = 1000;
/** Workers that stalled before the pool stops starting them (each may stay stuck in its stat). */
export const STAT_POOL_MAX_STALLS = 3;
/** An unused worker ends after this long; the next large walk starts another. */
const IDLE_MS = 10 * 60 * 1000;
/** Numbers kept per path: mode, size, mtimeMs, ctimeMs, ino, dev. */
const FIELDS = 6;
/** A path's state: not stated yet, stated, or (2) no stat: the path is gone, or the stat failed. */
const PENDING = 0;
const STATED = 1;

export function entryStatOf(stat: fs.Stats): EntryStat {
  return { kind: kindOf(stat.mode), dev: stat.dev, ino: stat.ino, mode: stat.mode, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs };
}

function kindOf(mode: number): EntryStat['kind'] {
  const type = mode & fs.constants.S_IFMT;
  return type === fs.constants.S_IFREG ? 'file' : type === fs.constants.S_IFDIR ? 'dir' : type === fs.constants.S_IFLNK ? 'link' : 'other';
}

/**
 * Claims the next run of paths from the shared counter, stats them, and returns how many it took (0
 * when none are left). Both threads run this very function (the worker from its source text), so it
 * uses only its parameters and globals.
 */
function statClaim(lstat: typeof fs.lstatSync, paths: readonly string[], control: SharedArrayBuffer, states: SharedArrayBuffer, numbers: SharedArrayBuffer, claim: number): number {
  // control[0]: the next unclaimed index; control[1]: paths finished by either thread.
  const counters = new Int32Array(control);
  const state = new Int32Array(states);
  const out = new Float64Array(numbers);
  const start = Atomics.add(counters, 0, claim);
  if (start >= paths.length) return 0;
  const end = Math.min(paths.length, start + claim);
  for (let index = start; index < end; index++) {
    let stat;
    try {
      stat = lstat(paths[index]!, { throwIfNoEntry: false });
    } catch {
      stat = undefined;
    }
    if (stat) {
      // FIELDS numbers per path, in its order.
      const at = index * 6;
      out[at] = stat.mode;
      out[at + 1] = stat.size;
      out[at + 2] = stat.mtimeMs;
      out[at + 3] = stat.ctimeMs;
      out[at + 4] = stat.ino;
      out[at + 5] = stat.dev;
    }
    Atomics.store(state, index, stat ? 1 : 2);
  }
  Atomics.add(counters, 1, end - start);
  Atomics.notify(counters, 1);
  return end - start;
}

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { lstatSync } = require('node:fs');
const statClaim = ${statClaim.toString()};
parentPort.on('message', (job) => {
  while (statClaim(lstatSync, job.paths, job.control, job.states, job.numbers, job.claim) > 0);
});
`;

interface Job {
  readonly paths: readonly string[];
  readonly control: SharedArrayBuffer;
  readonly states: SharedArrayBuffer;
  readonly numbers: SharedArrayBuffer;
  readonly claim: number;
}

function newJob(paths: readonly string[]): Job {
  return {
    paths,
    control: new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT),
    states: new SharedArrayBuffer(paths.length * Int32Array.BYTES_PER_ELEMENT),
    numbers: new SharedArrayBuffer(paths.length * FIELDS * Float64Array.BYTES_PER_ELEMENT),
    claim: CLAIM,
  };
}

/**
 * The stats of a list of paths, taken in the list's order by the worker while the caller walks, and by
 * the caller itself where it catches up. `at` gives a path's stat, or undefined where there is none (the
 * path is gone, the stat failed, or the worker stalled): the caller then stats the path itself.
 */
export class StatList {
  private readonly counters: Int32Array;
  private readonly states: Int32Array;
  private readonly numbers: Float64Array;
  private here = 0;
  private waitedUntil: number | undefined;
  private done = false;

  constructor(
    private readonly job: Job,
    private readonly pool: StatPool,
    /** Whether the pool's worker has the job too; if not, the caller states every path. */
    private shared: boolean,
    private readonly waitMs: number,
  ) {
    this.counters = new Int32Array(job.control);
    this.states = new Int32Array(job.states);
    this.numbers = new Float64Array(job.numbers);
  }

  at(index: number): EntryStat | undefined {
    for (;;) {
      const state = Atomics.load(this.states, index);
      if (state === STATED) {
        const at = index * FIELDS;
        const mode = this.numbers[at]!;
        return { kind: kindOf(mode), mode, size: this.numbers[at + 1]!, mtimeMs: this.numbers[at + 2]!, ctimeMs: this.numbers[at + 3]!, ino: this.numbers[at + 4]!, dev: this.numbers[at + 5]! };
      }
      if (state !== PENDING || this.done) return undefined;
      const next = Atomics.load(this.counters, 0);
      // Far past the claims: this one path is the caller's alone.
      if (index >= next + CLAIM) return undefined;
      // The next run is stated here: it holds the path, or the worker has the path under way meanwhile.
      if (next < this.job.paths.length) {
        this.here += statClaim(fs.lstatSync, this.job.paths, this.job.control, this.job.states, this.job.numbers, CLAIM);
        continue;
      }
      // Every path is claimed and the worker has this one under way.
      if (!this.waitForWorker(index)) return undefined;
    }
  }

  /** Paths claimed by either thread, and paths finished. */
  progress(): { claimed: number; finished: number } {
    return { claimed: Math.min(this.job.paths.length, Atomics.load(this.counters, 0)), finished: Atomics.load(this.counters, 1) };
  }

  /** Ends the job: paths not claimed by now are not stated. */
  finish(): void {
    if (this.done) return;
    this.done = true;
    Atomics.store(this.counters, 0, this.job.paths.length);
    this.pool.finished(this.here, Atomics.load(this.counters, 1) - this.here);
  }

  /** Waits while the worker states the path; false once the worker has had `waitMs` of waits on this list. */
  private waitForWorker(index: number): boolean {
    if (!this.shared) return false;
    const seen = Atomics.load(this.counters, 1);
    if (Atomics.load(this.states, index) !== PENDING) return true;
    const now = Date.now();
    this.waitedUntil ??= now + this.waitMs;
    if (now < this.waitedUntil) {
      try {
        Atomics.wait(this.counters, 1, seen, this.waitedUntil - now);
        return true;
      } catch {
        // A host whose main thread may not block (a browser's rule): no waiting, so no worker either.
      }
    }
    // A worker stuck in a stat: the rest is stated here, and it is sent no more work.
    this.pool.stalled();
    this.shared = false;
    return false;
  }
}

export interface StatPoolOptions {
  /** Lists shorter than this are stated by the caller alone; `STAT_POOL_MIN_PATHS` by default. */
  readonly minPaths?: number;
  /** `WORKER_WAIT_MS` by default. */
  readonly waitMs?: number;
  /** The worker's program: `WORKER_SOURCE` except in tests of a worker that stalls or fails. */
  readonly workerSource?: string;
}

export class StatPool {
  private worker: Worker | undefined;
  private online = false;
  /** A worker that failed to start or run is not started again: the caller's thread does every stat. */
  private failed = false;
  private stalls = 0;
  private idle: NodeJS.Timeout | undefined;
  /** Stats taken by the caller's thread and by the worker, over the pool's life (for tests and the bench). */
  readonly counts = { here: 0, worker: 0 };

  constructor(private readonly options: StatPoolOptions = {}) {}

  get state(): 'none' | 'starting' | 'running' | 'failed' {
    return this.failed ? 'failed' : !this.worker ? 'none' : this.online ? 'running' : 'starting';
  }

  /**
   * Starts stating the paths in order: in the worker when it is running (the caller states a run itself
   * whenever it catches up), else as the caller asks for them. Call `finish` on the list when done.
   */
  lstatAhead(paths: readonly string[]): StatList {
    const job = newJob(paths);
    const shared = paths.length >= (this.options.minPaths ?? STAT_POOL_MIN_PATHS) && this.ready();
    if (shared) this.worker!.postMessage(job);
    return new StatList(job, this, shared, this.options.waitMs ?? WORKER_WAIT_MS);
  }

  /** Counts a shared job's stats and keeps the worker for the next. */
  finished(here: number, worker: number): void {
    this.counts.here += here;
    this.counts.worker += worker;
    if (this.worker) this.restartIdle();
  }

  /** Ends a worker that stalled; after `STAT_POOL_MAX_STALLS` of them, no other is started. */
  stalled(): void {
    this.stop();
    if (++this.stalls >= STAT_POOL_MAX_STALLS) this.failed = true;
  }

  /**
   * Starts the worker, so the next large walk has it ready; a new worker states `paths` once, so its
   * code is compiled by then (a fresh worker states several times slower). A walk's list shorter than
   * the pool's minimum starts none.
   */
  warm(paths?: readonly string[]): void {
    if (this.worker || this.failed) return;
    if (paths && paths.length < (this.options.minPaths ?? STAT_POOL_MIN_PATHS)) return;
    let worker: Worker;
    try {
      worker = new Worker(this.options.workerSource ?? WORKER_SOURCE, { eval: true });
    } catch {
      this.failed = true;
      return;
    }
    worker.unref();
    worker.once('online', () => {
      if (this.worker === worker) this.online = true;
    });
    worker.once('error', () => {
      if (this.worker !== worker) return;
      this.stop();
      this.failed = true;
    });
    worker.once('exit', () => {
      if (this.worker === worker) this.stop();
    });
    this.worker = worker;
    if (paths && paths.length > 0) worker.postMessage(newJob(paths));
    this.restartIdle();
  }

  /** Ends the worker; a later `warm` starts another. */
  stop(): void {
    const worker = this.worker;
    this.worker = undefined;
    this.online = false;
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    if (worker) void worker.terminate();
  }

  private ready(): boolean {
    if (!this.worker) this.warm();
    return this.online;
  }

  private restartIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => this.stop(), IDLE_MS);
    this.idle.unref();
  }
}

/** The process's pool: one worker at most, however many checkpoint stores there are. */
export const sharedStatPool = new StatPool();
