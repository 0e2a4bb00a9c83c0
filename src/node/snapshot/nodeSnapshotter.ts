// Adapter: the WorkspaceSnapshotter port in Node (spec §5). The spec's walk before and after
// the call over every workspace folder, merged with the change events a watcher saw in between.
// The after-snapshot is not cancellable: the files are on disk whatever happened to the call.
import * as path from 'node:path';
import type { FileChangeEvent, FileChangeFeed } from '../../executor';
import { nullLogger, type Logger } from '../../executor';
import type { SnapshotSession, WorkspaceSnapshotter } from '../../executor';
import type { WorkspaceChange } from '../../executor';
import { FsWatchChangeFeed } from './fsWatchFeed';
import { diffWorkspace, type EventRecord } from './diff';
import { SNAPSHOT_MAX_DEPTH, SNAPSHOT_MAX_FILES, walkWorkspace, type ListingCache, type WalkResult } from './walk';

/**
 * `warmUp` waits this long before the watcher's initial scan starts: a scan of a large workspace
 * floods the file-system thread pool, and a short run of read-only calls (a fresh `tool-exec` doing
 * one Read) should not queue behind it. The first snapshot starts it at once.
 */
export const WARM_UP_DELAY_MS = 250;
/** Events kept per call; past it the rest are dropped (a call rewriting a whole tree still ends). */
export const MAX_EVENTS_PER_CALL = 20_000;

export interface NodeSnapshotterOptions {
  /** Change events merged with the walk. @default an `fs.watch` watcher per folder; `false`: the walk alone (spec §5). */
  readonly feed?: FileChangeFeed | false;
  /** @default 4 (spec §5) */
  readonly maxDepth?: number;
  /** @default 500 (spec §5) */
  readonly maxFiles?: number;
  readonly logger?: Logger;
}

export class NodeWorkspaceSnapshotter implements WorkspaceSnapshotter {
  private readonly feed: FileChangeFeed | undefined;
  private feedBroken = false;
  private warmUpTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly logger: Logger;
  /**
   * The last walk, and the watcher's change mark just before it began. While the mark stays the
   * same the watched folders did not change, and the walk stands for a new one (the after-snapshot of
   * one call is then the before-snapshot of the next).
   */
  private lastWalk: { readonly roots: string; readonly mark: number; readonly walks: readonly WalkResult[] } | undefined;
  /**
   * What the walks read of each folder, reused while the folder is unchanged and the watcher, which
   * drops a folder from it as soon as the kernel reports a change there, is subscribed and sound
   * (else a walk reads every folder again for one new file).
   */
  private readonly listings: ListingCache = new Map();
  private unsubscribeFolders: (() => void) | undefined;

  constructor(private readonly options: NodeSnapshotterOptions = {}) {
    this.feed = options.feed === false ? undefined : (options.feed ?? new FsWatchChangeFeed());
    this.logger = options.logger ?? nullLogger;
  }

  async begin(folders: readonly string[], signal: AbortSignal): Promise<SnapshotSession> {
    const roots = folders.map((folder) => path.resolve(folder));
    const events = new Map<string, EventRecord>();
    // Wall-clock (the watcher stamps with Date.now()), 1 ms early so a change in the same ms counts.
    const since = Date.now() - 1;
    const unsubscribe = await this.subscribe(roots, events, signal);
    try {
      const before = await this.walkAll(roots, { watched: unsubscribe !== undefined, reuse: true }, signal);
      let finished: Promise<readonly WorkspaceChange[]> | undefined;
      return {
        finish: () =>
          (finished ??= (async () => {
            try {
              // The watcher's pending notifications first (the call's own changes), then the walk, whose
              // change mark is then read without another wait (two loop turns fewer per call).
              if (unsubscribe) await this.feed!.settle(since);
              // Always walked: a change the kernel does not report (a write through mmap) is still found.
              const after = await this.walkAll(roots, { watched: unsubscribe !== undefined, reuse: false, settled: unsubscribe !== undefined });
              return await diffWorkspace({ folders: roots, before, after, events });
            } finally {
              unsubscribe?.();
            }
          })()),
      };
    } catch (error) {
      unsubscribe?.();
      throw error;
    }
  }

  /**
   * Starts the watcher soon (after `WARM_UP_DELAY_MS`, or at the first `begin`), so the first call
   * does not pay for its initial scan (0.7 s for 20000 files, see bench/snapshotCost.ts).
   * Failures surface, logged, at the first `begin`.
   */
  warmUp(folders: readonly string[]): void {
    if (!this.feed || this.feedBroken) return;
    const feed = this.feed;
    clearTimeout(this.warmUpTimer);
    this.warmUpTimer = setTimeout(() => {
      this.warmUpTimer = undefined;
      feed.start(folders.map((folder) => path.resolve(folder)), new AbortController().signal).catch(() => undefined);
    }, WARM_UP_DELAY_MS);
    // A process that is done before the delay must not stay for it.
    this.warmUpTimer.unref?.();
  }

  /** Stops the watcher. */
  async dispose(): Promise<void> {
    this.lastWalk = undefined;
    this.unsubscribeFolders?.();
    this.unsubscribeFolders = undefined;
    this.listings.clear();
    clearTimeout(this.warmUpTimer);
    this.warmUpTimer = undefined;
    await this.feed?.dispose();
  }

  /**
   * Every root walked, or (`reuse`) the last walk again when the watcher (subscribed: `watched`)
   * reported no change since it began. The kernel's pending notifications are delivered first (unless
   * the caller just `settled` the watcher), so a change made just before is counted; then the change
   * mark is read, kept with the new walk.
   */
  private async walkAll(
    roots: readonly string[],
    how: { readonly watched: boolean; readonly reuse: boolean; readonly settled?: boolean },
    signal?: AbortSignal,
  ): Promise<readonly WalkResult[]> {
    let mark: number | undefined;
    const key = JSON.stringify(roots);
    if (how.watched && this.feed?.changeMark) {
      if (!how.settled) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      signal?.throwIfAborted();
      mark = this.feed.changeMark();
      const last = this.lastWalk;
      if (how.reuse && mark !== undefined && last && last.roots === key && last.mark === mark) return last.walks;
    }
    const listings = mark !== undefined && this.unsubscribeFolders ? this.listings : undefined;
    if (!listings) this.listings.clear();
    const walks = await Promise.all(roots.map((root) => this.walk(root, signal, listings)));
    this.lastWalk = mark === undefined ? undefined : { roots: key, mark, walks };
    return walks;
  }

  private walk(root: string, signal: AbortSignal | undefined, listings: ListingCache | undefined) {
    return walkWorkspace(root, { maxDepth: this.options.maxDepth ?? SNAPSHOT_MAX_DEPTH, maxFiles: this.options.maxFiles ?? SNAPSHOT_MAX_FILES }, signal, listings);
  }

  private async subscribe(roots: readonly string[], events: Map<string, EventRecord>, signal: AbortSignal): Promise<(() => void) | undefined> {
    if (!this.feed || this.feedBroken) return undefined;
    try {
      await this.feed.start(roots, signal);
    } catch (error) {
      signal.throwIfAborted();
      this.feedBroken = true;
      this.logger.warn('tool.snapshot.watcher_failed', { error: error instanceof Error ? error.message : String(error) });
      return undefined;
    }
    this.unsubscribeFolders ??= this.feed.onFolderChange?.((folder) => {
      if (folder === undefined) this.listings.clear();
      else this.listings.delete(folder);
    });
    return this.feed.onChange((event: FileChangeEvent) => {
      const known = events.get(event.path);
      if (known) known.last = event.kind;
      else if (events.size < MAX_EVENTS_PER_CALL) events.set(event.path, { first: event.kind, last: event.kind, directory: event.directory });
    });
  }
}

/** The CLI's snapshotter: the spec's walk (§5) plus a watcher. Dispose it when the session ends. */
export function createNodeSnapshotter(options: NodeSnapshotterOptions = {}): NodeWorkspaceSnapshotter {
  return new NodeWorkspaceSnapshotter(options);
}
