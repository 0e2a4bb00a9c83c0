// Adapter: the FileChangeFeed port on chokidar 4. Why chokidar 4: pure JavaScript (bundles with
// esbuild, no native build), runs on Node >= 14.16 (chokidar 5 is ESM-only and wants Node >= 20.19).
// Tried and rejected: @parcel/watcher 2.6 (in 3 of 4 runs of `mkdir -p a/b/c/d/e/f && echo > .../x`
// it reported only `a`, and later changes inside the new tree not at all), and Node 20's recursive
// fs.watch (one watcher per file, synchronous stats, and no way to skip node_modules).
import * as path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { FileChangeEvent, FileChangeFeed } from '../../executor/ports/fileChangeFeed';
import { SNAPSHOT_SKIP_DIRS } from './walk';

/**
 * chokidar emits after an async stat or readdir (a few ms); its throttles (50 ms for changes) only
 * drop duplicates. This much quiet leaves room for a loaded machine.
 */
export const WATCH_SETTLE_QUIET_MS = 60;
/** A workspace that never goes quiet (a build writing continuously) still ends the wait. */
export const WATCH_SETTLE_MAX_MS = 1000;
/**
 * After the last raw change, once a processed event followed it, this much quiet is enough: the
 * event that raw change stood for has arrived (chokidar emits one after an async stat).
 */
export const WATCH_SETTLE_AFTER_EVENT_MS = 10;
/** How deep the watcher follows folders (past the walk's 4 levels: that is its purpose). */
export const WATCH_MAX_DEPTH = 64;

const KINDS: Readonly<Record<string, { kind: FileChangeEvent['kind']; directory: boolean }>> = {
  add: { kind: 'created', directory: false },
  addDir: { kind: 'created', directory: true },
  change: { kind: 'modified', directory: false },
  unlink: { kind: 'deleted', directory: false },
  unlinkDir: { kind: 'deleted', directory: true },
};

export class ChokidarChangeFeed implements FileChangeFeed {
  /** One watcher per set of folders started together: each has its own 'ready' (chokidar emits it once). */
  private readonly watchers: FSWatcher[] = [];
  /** Folder → the initial scan of the watcher that watches it. */
  private readonly ready = new Map<string, Promise<void>>();
  private readonly listeners = new Set<(event: FileChangeEvent) => void>();
  private lastEventAt = 0;
  /** When the kernel last reported a change (chokidar's `raw`, before its stat and its event). */
  private lastRawAt = 0;
  private readonly watched = new Set<string>();

  start(folders: readonly string[], signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const resolved = folders.map((folder) => path.resolve(folder));
    const added = [...new Set(resolved.filter((folder) => !this.watched.has(folder)))];
    if (added.length > 0) {
      for (const folder of added) this.watched.add(folder);
      const watcher = watch(added, {
        ignoreInitial: true,
        // Unlink events at once: "atomic" would hold them 100 ms to merge editor save dances.
        atomic: false,
        followSymlinks: false,
        depth: WATCH_MAX_DEPTH,
        // The CLI must be able to exit even if nobody disposes the snapshotter.
        persistent: false,
        // Skipped folders below a workspace folder; never the workspace folder itself (one may be called `venv`).
        ignored: (file: string) => !this.watched.has(path.resolve(file)) && SNAPSHOT_SKIP_DIRS.has(path.basename(file)),
      });
      this.watchers.push(watcher);
      watcher.on('all', (name: string, file: string) => this.dispatch(name, file));
      watcher.on('raw', () => {
        this.lastRawAt = Date.now();
      });
      watcher.on('error', () => undefined);
      const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
      for (const folder of added) this.ready.set(folder, ready);
    }
    return raceAbort(Promise.all(resolved.map((folder) => this.ready.get(folder))).then(() => undefined), signal);
  }

  onChange(listener: (event: FileChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Waits for the events of changes already made: none when the kernel reported no change since
   * `since`; else until a processed event followed the last raw change and `WATCH_SETTLE_AFTER_EVENT_MS`
   * passed quietly, or `WATCH_SETTLE_QUIET_MS` of quiet (a raw change chokidar drops has no event),
   * at most `WATCH_SETTLE_MAX_MS`.
   */
  async settle(since?: number): Promise<void> {
    if (this.watchers.length === 0) return;
    // Let the kernel's pending notifications reach the watcher before asking: two check phases
    // have a poll phase between them, whatever phase this started in.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    const started = Date.now();
    if (since !== undefined && this.lastRawAt < since && this.lastEventAt < since) return;
    for (;;) {
      const now = Date.now();
      if (now - started >= WATCH_SETTLE_MAX_MS) return;
      const lastActivity = Math.max(this.lastRawAt, this.lastEventAt);
      const caughtUp = this.lastEventAt >= this.lastRawAt;
      const needed = caughtUp ? WATCH_SETTLE_AFTER_EVENT_MS : WATCH_SETTLE_QUIET_MS;
      const quietFor = now - lastActivity;
      if (quietFor >= needed) return;
      await sleep(needed - quietFor);
    }
  }

  async dispose(): Promise<void> {
    this.listeners.clear();
    const watchers = this.watchers.splice(0);
    this.ready.clear();
    this.watched.clear();
    await Promise.all(watchers.map((watcher) => watcher.close()));
  }

  private dispatch(name: string, file: string): void {
    const known = KINDS[name];
    if (!known) return;
    this.lastEventAt = Date.now();
    const event: FileChangeEvent = { kind: known.kind, path: path.resolve(file), directory: known.directory };
    for (const listener of [...this.listeners]) listener(event);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

function raceAbort(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
