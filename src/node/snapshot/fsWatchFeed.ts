// Adapter: the FileChangeFeed port on Node's `fs.watch`, one watcher per folder (inotify on Linux,
// FSEvents on macOS, ReadDirectoryChangesW on Windows: the primitive chokidar 4 uses too). When the
// kernel names a changed entry, that one entry is stat'ed and compared with what was known of it.
//
// Why not chokidar 4: on every change the kernel reports in a folder, it reads the whole folder again
// and lstats each entry, with no option to turn that off, which costs more than the whole `git status`
// a Write is measured against (docs/MEASUREMENTS.md, "File watcher"). From their source: watchpack 2.6
// stats the one entry too, but reports file times for webpack, not whether a name is new, and past 10000
// watchers falls back to Node's recursive `fs.watch`; `watcher` 2.3 is ESM only and reports behind a debounce; and
// @parcel/watcher 2.6 (measured) missed the files of a folder tree created in one go, Node 20's
// recursive `fs.watch` watches every file one by one with no way to skip `node_modules`.
import { watch, type FSWatcher, type Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import type { FileChangeEvent, FileChangeFeed } from '../../executor';
import { SNAPSHOT_SKIP_DIRS } from './walk';

/** A workspace that never goes quiet (a build writing continuously) still ends the wait. */
export const WATCH_SETTLE_MAX_MS = 1000;
/** How deep the watcher follows folders (past the walk's 4 levels: that is its purpose). */
export const WATCH_MAX_DEPTH = 64;

/** What was last seen at a name: symbolic links and other kinds are not followed. */
interface Known {
  readonly kind: 'file' | 'dir' | 'other';
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

interface WatchedFolder {
  readonly watcher: FSWatcher;
  /** Name → what was last seen there. */
  readonly entries: Map<string, Known>;
  readonly depth: number;
}

/** A name being looked at; what was asked again while the lookup ran is done after it. */
interface Lookup {
  again: boolean;
  /** Emit events (not the initial scan). */
  report: boolean;
  /** The kernel named it (its notification already moved the change mark). */
  kernel: boolean;
  /** The kernel reported a content or attribute change (`fs.watch`'s `change`), not a name. */
  change: boolean;
  /** A watched folder's own watcher named the folder: it went or moved, and that watcher is spent. */
  self: boolean;
}

export class FsWatchChangeFeed implements FileChangeFeed {
  /** Workspace folder → its initial scan. */
  private readonly roots = new Map<string, Promise<void>>();
  private readonly folders = new Map<string, WatchedFolder>();
  private readonly lookups = new Map<string, Lookup>();
  private readonly listeners = new Set<(event: FileChangeEvent) => void>();
  private readonly folderListeners = new Set<(folder: string | undefined) => void>();
  /** Stats and folder reads under way: `settle` waits until there are none. */
  private pending = 0;
  private readonly idle = new Set<() => void>();
  /** Those of the initial scans (not reported): `start` waits for them alone, even while changes keep coming. */
  private scanning = 0;
  private readonly scanned = new Set<() => void>();
  /** Moves on every kernel notification and every event that answers none (see `changeMark`). */
  private mark = 0;
  /** A watcher could not be set or reported an error: changes in a folder may go unseen. */
  private failed = false;
  /** Bumped by `dispose`: lookups started before it are dropped. */
  private generation = 0;

  start(folders: readonly string[], signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const resolved = folders.map((folder) => path.resolve(folder));
    const added = [...new Set(resolved.filter((folder) => !this.roots.has(folder)))];
    for (const folder of added) this.watchFolder(folder, 0, false);
    if (added.length > 0) {
      const scanned = this.scanning === 0 ? Promise.resolve() : new Promise<void>((resolve) => this.scanned.add(resolve));
      for (const folder of added) this.roots.set(folder, scanned);
    }
    return raceAbort(Promise.all(resolved.map((folder) => this.roots.get(folder))).then(() => undefined), signal);
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
   * Waits until every change the kernel reported before it was called has its event: its
   * notifications are delivered, then the stats and folder reads they started (a new folder is
   * watched and read) are awaited; at once when there are none; at most `WATCH_SETTLE_MAX_MS`.
   * What is under way is known exactly, so the time of the call's start is not needed.
   */
  async settle(_since?: number): Promise<void> {
    if (this.roots.size === 0) return;
    // Two check phases have a poll phase between them, whatever phase this started in.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    const deadline = Date.now() + WATCH_SETTLE_MAX_MS;
    while (this.pending > 0 && Date.now() < deadline) await this.nextIdle(deadline - Date.now());
  }

  changeMark(): number | undefined {
    return this.failed || this.roots.size === 0 ? undefined : this.mark;
  }

  async dispose(): Promise<void> {
    this.generation++;
    this.listeners.clear();
    this.folderListeners.clear();
    for (const folder of this.folders.values()) folder.watcher.close();
    this.folders.clear();
    this.lookups.clear();
    this.roots.clear();
    this.pending = 0;
    this.scanning = 0;
    this.failed = false;
    this.wakeIdle();
    this.wakeScanned();
  }

  /**
   * Watches a folder, then reads it (in that order: what appears in between is in the listing).
   * `known`: what was known in it, compared with what is there now.
   */
  private watchFolder(dir: string, depth: number, report: boolean, known?: ReadonlyMap<string, Known>): void {
    if (this.folders.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: false }, (type, name) => this.onKernel(dir, type, name));
    } catch (error) {
      // Gone or replaced already: the notification of its folder reports it. A workspace folder has none.
      if (depth === 0 || !isGone(error)) this.failed = true;
      return;
    }
    watcher.on('error', (error) => this.onWatchError(dir, error));
    this.folders.set(dir, { watcher, entries: new Map(known), depth });
    this.track(
      readdir(dir).then(
        (names) => {
          for (const name of new Set([...names, ...(known?.keys() ?? [])])) {
            if (!SNAPSHOT_SKIP_DIRS.has(name)) this.lookUp(path.join(dir, name), { report, kernel: false, change: false, self: false });
          }
        },
        () => undefined,
      ),
      !report,
    );
  }

  private onKernel(dir: string, type: string, name: string | Buffer | null): void {
    this.mark++;
    const folder = this.folders.get(dir);
    if (!folder) return;
    this.notifyFolder(dir);
    if (name === null || name === undefined) {
      // No name given: every entry, known or listed now, is looked at.
      this.track(
        readdir(dir).then(
          (names) => {
            for (const entry of new Set([...names, ...folder.entries.keys()])) {
              if (!SNAPSHOT_SKIP_DIRS.has(entry)) this.lookUp(path.join(dir, entry), { report: true, kernel: true, change: false, self: false });
            }
          },
          () => this.lookUp(dir, { report: true, kernel: true, change: false, self: true }),
        ),
      );
      return;
    }
    const file = path.join(dir, name.toString());
    this.notifyFolder(file);
    if (!SNAPSHOT_SKIP_DIRS.has(path.basename(file))) this.lookUp(file, { report: true, kernel: true, change: type === 'change', self: false });
    // The watched folder itself went or moved: inotify names it by its own name (an entry of that name is looked at too).
    if (name.toString() === path.basename(dir)) this.lookUp(dir, { report: true, kernel: true, change: false, self: true });
  }

  private onWatchError(dir: string, error: unknown): void {
    const folder = this.folders.get(dir);
    if (folder) folder.watcher.close();
    // Windows reports a watched folder being deleted as EPERM: its parent's notification tells.
    if ((error as NodeJS.ErrnoException).code === 'EPERM' && !this.roots.has(dir)) this.lookUp(dir, { report: true, kernel: true, change: false, self: true });
    else this.failed = true;
  }

  /** Stats `file` (once at a time per name) and reports how it differs from what was known. */
  private lookUp(file: string, ask: Omit<Lookup, 'again'>): void {
    const running = this.lookups.get(file);
    if (running) {
      running.again = true;
      running.report ||= ask.report;
      running.kernel ||= ask.kernel;
      running.change ||= ask.change;
      running.self ||= ask.self;
      return;
    }
    const lookup: Lookup = { again: false, ...ask };
    this.lookups.set(file, lookup);
    const generation = this.generation;
    // Part of an initial scan when it began as one (a notification merged into it does not make it longer).
    this.track(
      (async () => {
        do {
          lookup.again = false;
          const { report, kernel, change, self } = lookup;
          lookup.change = false;
          lookup.self = false;
          const stat = await lstat(file).catch(() => undefined);
          if (generation !== this.generation) return;
          if (self) this.rewatch(file, stat);
          this.apply(file, stat, report, kernel, change);
        } while (lookup.again);
      })().finally(() => {
        if (generation === this.generation) this.lookups.delete(file);
      }),
      !ask.report,
    );
  }

  private apply(file: string, stat: Stats | undefined, report: boolean, kernel: boolean, change: boolean): void {
    const parent = this.folders.get(path.dirname(file));
    // A workspace folder itself, or one whose folder is no longer watched.
    if (!parent) {
      if (this.roots.has(file) && !stat?.isDirectory()) this.failed = true;
      return;
    }
    const name = path.basename(file);
    const before = parent.entries.get(name);
    const now = stat ? knownOf(stat) : undefined;
    if (now) parent.entries.set(name, now);
    else parent.entries.delete(name);
    const emit = (kind: FileChangeEvent['kind'], directory: boolean) => {
      if (report) this.emit({ kind, path: file, directory }, kernel);
    };
    if (before && now && before.kind === now.kind && (now.kind !== 'dir' || before.ino === now.ino)) {
      // chokidar's rule, kept: a content change moves the mtime, or leaves the file not read since (atime <= mtime).
      const differs = before.ino !== now.ino || before.size !== now.size || before.mtimeMs !== now.mtimeMs;
      if (now.kind !== 'dir' && (differs || (change && stat!.atimeMs <= stat!.mtimeMs))) emit('modified', false);
      return;
    }
    if (before) {
      if (before.kind === 'dir') this.forgetFolder(file, report);
      emit('deleted', before.kind === 'dir');
    }
    if (now) {
      emit('created', now.kind === 'dir');
      if (now.kind === 'dir' && parent.depth < WATCH_MAX_DEPTH) this.watchFolder(file, parent.depth + 1, report);
    }
  }

  /**
   * After a watched folder's watcher named the folder itself: a folder there now (the same one, or
   * a new one that got the freed inode number) is watched again and compared with what was known.
   */
  private rewatch(dir: string, stat: Stats | undefined): void {
    const folder = this.folders.get(dir);
    if (!folder || !stat?.isDirectory()) return;
    folder.watcher.close();
    this.folders.delete(dir);
    this.watchFolder(dir, folder.depth, true, folder.entries);
  }

  /** A folder that went: its watcher is closed and everything known in it reported deleted. */
  private forgetFolder(dir: string, report: boolean): void {
    const folder = this.folders.get(dir);
    if (!folder) return;
    this.folders.delete(dir);
    folder.watcher.close();
    for (const [name, known] of folder.entries) {
      const child = path.join(dir, name);
      if (known.kind === 'dir') this.forgetFolder(child, report);
      if (report) this.emit({ kind: 'deleted', path: child, directory: known.kind === 'dir' }, true);
    }
  }

  /** `kernel`: the change was named by a notification, which moved the mark already. */
  private emit(event: FileChangeEvent, kernel: boolean): void {
    if (!kernel) this.mark++;
    this.notifyFolder(path.dirname(event.path));
    if (event.directory) this.notifyFolder(event.path);
    for (const listener of [...this.listeners]) listener(event);
  }

  private notifyFolder(folder: string): void {
    for (const listener of this.folderListeners) listener(folder);
  }

  /** Counts `work` as under way (`initial`: part of an initial scan) until it ends. */
  private track(work: Promise<unknown>, initial = false): void {
    this.pending++;
    if (initial) this.scanning++;
    const generation = this.generation;
    void work.finally(() => {
      if (generation !== this.generation) return;
      if (--this.pending === 0) this.wakeIdle();
      if (initial && --this.scanning === 0) this.wakeScanned();
    });
  }

  private nextIdle(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.idle.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      this.idle.add(done);
    });
  }

  private wakeIdle(): void {
    const waiting = [...this.idle];
    this.idle.clear();
    for (const wake of waiting) wake();
  }

  private wakeScanned(): void {
    const waiting = [...this.scanned];
    this.scanned.clear();
    for (const wake of waiting) wake();
  }
}

function knownOf(stat: Stats): Known {
  return { kind: stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : 'other', ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
}

function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function raceAbort(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
