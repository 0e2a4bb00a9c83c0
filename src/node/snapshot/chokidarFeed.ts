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
  private watcher: FSWatcher | undefined;
  private ready: Promise<void> | undefined;
  private readonly listeners = new Set<(event: FileChangeEvent) => void>();
  private lastEventAt = 0;
  private readonly watched = new Set<string>();

  start(folders: readonly string[], signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const added = folders.map((folder) => path.resolve(folder)).filter((folder) => !this.watched.has(folder));
    for (const folder of added) this.watched.add(folder);
    if (this.watcher && added.length > 0) {
      // A folder added to the workspace later: watched from now on (chokidar emits 'ready' only once).
      this.watcher.add(added);
    }
    if (!this.ready) {
      const watcher = watch([...folders], {
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
      this.watcher = watcher;
      watcher.on('all', (name: string, file: string) => this.dispatch(name, file));
      watcher.on('error', () => undefined);
      this.ready = new Promise((resolve) => watcher.once('ready', () => resolve()));
    }
    return raceAbort(this.ready, signal);
  }

  onChange(listener: (event: FileChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async settle(): Promise<void> {
    if (!this.watcher) return;
    const started = Date.now();
    await sleep(WATCH_SETTLE_QUIET_MS);
    for (;;) {
      const quietFor = Date.now() - this.lastEventAt;
      if (quietFor >= WATCH_SETTLE_QUIET_MS || Date.now() - started >= WATCH_SETTLE_MAX_MS) return;
      await sleep(WATCH_SETTLE_QUIET_MS - quietFor);
    }
  }

  async dispose(): Promise<void> {
    this.listeners.clear();
    const watcher = this.watcher;
    this.watcher = undefined;
    this.ready = undefined;
    this.watched.clear();
    await watcher?.close();
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
