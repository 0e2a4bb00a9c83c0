// Adapter: the FileChangeFeed port on chokidar 4. Why chokidar 4: pure JavaScript (bundles with
// esbuild, no native build), runs on Node >= 14.16 (chokidar 5 is ESM-only and wants Node >= 20.19).
// Tried and rejected: @parcel/watcher 2.6 (in 3 of 4 runs of `mkdir -p a/b/c/d/e/f && echo > .../x`
// it reported only `a`, and later changes inside the new tree not at all), and Node 20's recursive
// fs.watch (one watcher per file, synchronous stats, and no way to skip node_modules).
import { lstatSync } from 'node:fs';
import * as path from 'node:path';
import type { FSWatcher } from 'chokidar';
import type { FileChangeEvent, FileChangeFeed } from '../../executor/ports/fileChangeFeed';
import { SNAPSHOT_SKIP_DIRS } from './walk';

/**
 * A raw change whose path gets no event (an ignored name, an attribute-only change, an event
 * chokidar's own throttles dropped) ends the wait after this much quiet: room for a loaded machine.
 */
export const WATCH_SETTLE_QUIET_MS = 60;
/** A workspace that never goes quiet (a build writing continuously) still ends the wait. */
export const WATCH_SETTLE_MAX_MS = 1000;
/**
 * After a folder appeared, once every raw change had its event, this much quiet: chokidar reads the
 * new folder and what it holds, and watches each, one async step after another (its events are not
 * needed, the snapshot walks a new folder itself), and the next call's changes inside it must be seen.
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
  private readonly folderListeners = new Set<(folder: string | undefined) => void>();
  private lastEventAt = 0;
  /** When chokidar last reported a folder that appeared. */
  private lastFolderAddedAt = 0;
  /** When the kernel last reported a change (chokidar's `raw`, before its stat and its event). */
  private lastRawAt = 0;
  private readonly watched = new Set<string>();
  /** Raw changes not yet followed by an event for their path, by the paths they may stand for. */
  private readonly unmatched = new Map<string, Set<RawChange>>();
  /** The order of raw changes and events (a `Date.now()` ms holds several). */
  private sequence = 0;
  /** Path → the `sequence` and time of its latest event. */
  private readonly lastEventOf = new Map<string, { readonly sequence: number; readonly at: number }>();
  /** `sequence` of the last raw change, or of the last event that answered no raw change. */
  private lastSurprise = 0;
  /** A watcher reported an error: a folder may be unwatched, its changes unseen. */
  private failed = false;
  /** When old raw changes and events were last forgotten. */
  private forgotAt = 0;
  /** `settle` calls waiting for the next raw change or event. */
  private readonly waiting = new Set<() => void>();

  start(folders: readonly string[], signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const resolved = folders.map((folder) => path.resolve(folder));
    const added = [...new Set(resolved.filter((folder) => !this.watched.has(folder)))];
    if (added.length > 0) {
      for (const folder of added) this.watched.add(folder);
      // Required at the first start: a process that only reads never evaluates chokidar (issue 13: start-up).
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { watch } = require('chokidar') as typeof import('chokidar');
      const watcher = watch(added, {
        ignoreInitial: true,
        // Unlink events at once: "atomic" would hold them 100 ms to merge editor save dances.
        atomic: false,
        followSymlinks: false,
        depth: WATCH_MAX_DEPTH,
        // The CLI must be able to exit even if nobody disposes the snapshotter.
        persistent: false,
        // Skipped folders below a workspace folder; never the workspace folder itself (one may be called `venv`).
        ignored: (file: string) => this.isSkipped(path.resolve(file)),
      });
      this.watchers.push(watcher);
      watcher.on('all', (name: string, file: string) => this.dispatch(name, file));
      watcher.on('raw', (kind: string, name: unknown, details: unknown) => this.onRaw(kind, name, details));
      watcher.on('error', () => {
        this.failed = true;
      });
      const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
      for (const folder of added) this.ready.set(folder, ready);
    }
    return raceAbort(Promise.all(resolved.map((folder) => this.ready.get(folder))).then(() => undefined), signal);
  }

  onChange(listener: (event: FileChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onFolderChange(listener: (folder: string | undefined) => void): () => void {
    this.folderListeners.add(listener);
    return () => this.folderListeners.delete(listener);
  }

  /**
   * Waits for the events of changes already made: none when the kernel reported no change since
   * `since`; else until every raw change since then was followed by chokidar's event for its path
   * (a raw `change` of a path that had an event since `since` needs none: that path is already
   * reported, and chokidar drops a second change within 50 ms), or `WATCH_SETTLE_QUIET_MS` of quiet
   * (a raw change chokidar drops has no event), then, when a folder appeared, for
   * `WATCH_SETTLE_AFTER_EVENT_MS` of quiet; a name that came and went again (the OS sandbox's
   * placeholders) waits only that long too; at most `WATCH_SETTLE_MAX_MS`.
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
      this.forgetOld(now);
      const quietFor = now - Math.max(this.lastRawAt, this.lastEventAt);
      const awaited = this.awaitsEvent(since ?? 0);
      const needed =
        awaited === 'event'
          ? WATCH_SETTLE_QUIET_MS
          : awaited === 'gone' || this.lastFolderAddedAt >= (since ?? 0)
            ? WATCH_SETTLE_AFTER_EVENT_MS
            : 0;
      if (quietFor >= needed) return;
      await this.nextActivity(Math.min(needed - quietFor, WATCH_SETTLE_MAX_MS - (now - started)));
    }
  }

  changeMark(): number | undefined {
    return this.failed || this.watchers.length === 0 ? undefined : this.lastSurprise;
  }

  async dispose(): Promise<void> {
    this.listeners.clear();
    this.folderListeners.clear();
    this.unmatched.clear();
    this.lastEventOf.clear();
    for (const wake of [...this.waiting]) wake();
    const watchers = this.watchers.splice(0);
    this.ready.clear();
    this.watched.clear();
    await Promise.all(watchers.map((watcher) => watcher.close()));
  }

  private dispatch(name: string, file: string): void {
    const known = KINDS[name];
    if (!known) return;
    const now = Date.now();
    this.lastEventAt = now;
    if (name === 'addDir') this.lastFolderAddedAt = now;
    const event: FileChangeEvent = { kind: known.kind, path: path.resolve(file), directory: known.directory };
    const sequence = ++this.sequence;
    this.lastEventOf.set(event.path, { sequence, at: now });
    this.forgetOld(now);
    const raws = this.unmatched.get(event.path);
    if (raws) for (const raw of raws) this.matched(raw);
    else this.lastSurprise = sequence;
    // Also when no raw change came first: chokidar reading a new folder finds what the kernel could not report yet.
    for (const listener of this.folderListeners) {
      listener(path.dirname(event.path));
      if (event.directory) listener(event.path);
    }
    for (const listener of [...this.listeners]) listener(event);
    this.wake();
  }

  /**
   * chokidar's `raw` (before its stat or readdir, and its event): the file name `fs.watch` gave,
   * relative to the watched folder, or the watched file's own name when a file is watched.
   */
  private onRaw(kind: string, name: unknown, details: unknown): void {
    const now = Date.now();
    this.lastRawAt = now;
    this.lastSurprise = ++this.sequence;
    this.forgetOld(now);
    const watchedPath = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
    if (typeof watchedPath === 'string') {
      const watched = path.resolve(watchedPath);
      const paths = new Set<string>();
      if (typeof name === 'string' && name !== '') paths.add(path.resolve(watched, name));
      if (typeof name !== 'string' || name === '' || path.basename(watched) === name) paths.add(watched);
      // Any kind, either reading of the name: a folder whose listing may have changed is read again.
      for (const listener of this.folderListeners) {
        for (const changed of paths) {
          listener(changed);
          listener(path.dirname(changed));
        }
      }
      // A skipped folder below a workspace folder is not watched: it has no event to wait for.
      const candidates = [...paths].filter((candidate) => !this.isSkipped(candidate));
      if (candidates.length > 0) {
        const raw: RawChange = { sequence: this.lastSurprise, at: now, change: kind === 'change', paths: candidates };
        for (const candidate of candidates) {
          let raws = this.unmatched.get(candidate);
          if (!raws) this.unmatched.set(candidate, (raws = new Set()));
          raws.add(raw);
        }
      }
    } else {
      for (const listener of this.folderListeners) listener(undefined);
    }
    this.wake();
  }

  /**
   * Whether a raw change at or after `since` still waits for its event: `event` when one may still
   * come after a while; `gone` when every waiting change is a name that no longer exists (made and
   * removed at once, as the OS sandbox does with its placeholders: chokidar reports nothing for
   * those, and an unlink of a file it knew comes within milliseconds); undefined when none waits.
   */
  private awaitsEvent(since: number): 'event' | 'gone' | undefined {
    let awaited: 'gone' | undefined;
    for (const raws of this.unmatched.values()) {
      for (const raw of raws) {
        if (raw.at < since) continue;
        const answered = raw.paths.some((candidate) => {
          const last = this.lastEventOf.get(candidate);
          return last !== undefined && (last.sequence > raw.sequence || (raw.change && last.at >= since));
        });
        if (answered) this.matched(raw);
        else if (!raw.change && raw.paths.every((candidate) => !exists(candidate))) awaited = 'gone';
        else return 'event';
      }
    }
    return awaited;
  }

  private matched(raw: RawChange): void {
    for (const candidate of raw.paths) {
      const raws = this.unmatched.get(candidate);
      raws?.delete(raw);
      if (raws?.size === 0) this.unmatched.delete(candidate);
    }
  }

  /**
   * Raw changes and events older than the longest wait no longer hold anything up: forgotten, at
   * most every `FORGET_EVERY_MS` (a burst of events wakes `settle` once per event).
   */
  private forgetOld(now: number): void {
    if (now - this.forgotAt < FORGET_EVERY_MS) return;
    this.forgotAt = now;
    const horizon = now - WATCH_SETTLE_MAX_MS;
    for (const raws of this.unmatched.values()) for (const raw of raws) if (raw.at < horizon) this.matched(raw);
    for (const [file, last] of this.lastEventOf) if (last.at < horizon) this.lastEventOf.delete(file);
  }

  private isSkipped(file: string): boolean {
    return !this.watched.has(file) && SNAPSHOT_SKIP_DIRS.has(path.basename(file));
  }

  private nextActivity(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      this.waiting.add(done);
    });
  }

  private wake(): void {
    for (const done of [...this.waiting]) done();
  }
}

/** A raw change reported by the kernel, and the paths whose event answers it. */
interface RawChange {
  readonly sequence: number;
  readonly at: number;
  /** A content or attribute change (`fs.watch`'s `change`), not a name appearing or going. */
  readonly change: boolean;
  readonly paths: readonly string[];
}

/** Whether `file` names anything now (a dangling link too). */
function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** How often old raw changes and events are forgotten. */
const FORGET_EVERY_MS = 100;

function raceAbort(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
