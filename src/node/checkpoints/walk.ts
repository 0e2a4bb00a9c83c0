// The walk that takes one folder's checkpoint. Each entry's stat is compared with the last checkpoint's,
// so only changed files are read and only folders with a changed entry are written again; a folder's
// names are read again only when its own stat changed (the file system marks a folder modified when an
// entry is added, removed or renamed), on file systems known to do so. The entries the last walk stated
// are stated again up front, by two threads (statPool.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GIT_DIR_NAME } from '../../executor';
import { IgnoreMemo, ignoredBy, type RuleSet } from './ignoreRules';
import type { ObjectBatch, ObjectStore } from './objectStore';
import { entryStatOf, sharedStatPool, type EntryStat, type StatPool } from './statPool';
import { CHECKPOINT_MAX_FILE_BYTES, CHECKPOINT_MAX_FILES, CHECKPOINT_MAX_TOTAL_BYTES, putTree, readTree, settled, type Tree, type TreeEntry } from './tree';

/** The walk lets the event loop run after this many folders. */
const YIELD_EVERY_FOLDERS = 64;
/** Read by git itself in every folder; ours are read at the root. */
const GITIGNORE = '.gitignore';
/**
 * Linux file systems (statfs magic numbers) that update a folder's mtime and ctime, in nanoseconds, on
 * every entry added, removed or renamed: ext2/3/4, XFS, Btrfs, tmpfs, ZFS, F2FS. Elsewhere every
 * folder is listed on every walk.
 */
const FOLDER_TIMES_FILE_SYSTEMS: ReadonlySet<number> = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x2fc12fc1, 0xf2f52010]);

export interface TreeOptions {
  readonly store: ObjectStore;
  /** The same folder's tree in the last checkpoint, whose stats spare reading unchanged files. */
  readonly previous?: { readonly tree: string; readonly takenAt: number };
  /** Root-level ignore files in gitignore syntax (ours and other agents'). */
  readonly ignoreFiles: readonly string[];
  /** Absolute paths never walked (the checkpoints' own storage when it is inside the workspace). */
  readonly skip: ReadonlySet<string>;
  readonly signal?: AbortSignal;
  /** Kept by the caller from one checkpoint of this folder to the next. */
  readonly memo?: WalkMemo;
  /** New objects go here, written as packs when the caller flushes it; without one, each is a file of its own. */
  readonly batch?: ObjectBatch;
  /** Takes the stats known ahead; the process's pool by default. */
  readonly stats?: StatPool;
}

export interface TreeResult {
  readonly tree: string;
  readonly files: number;
  readonly bytes: number;
  /** Files whose bytes were read (the rest matched the previous stat). */
  readonly read: number;
  /** Folders whose names were read (the rest matched the previous walk's stat of the folder). */
  readonly listed: number;
}

/** A folder's names as last read, with its stat from just before the read. */
interface Listing {
  readonly dev: number;
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  /** When the walk that read them started. */
  readonly readAt: number;
  readonly names: readonly string[];
  /** Where each name's path and stat are in the walk's stated paths (`WalkMemo.statted`); -1 for a name not stated. */
  readonly stated: Int32Array;
}

/** What one folder's walks keep for the next: folder listings (checked against each folder's stat) and ignore decisions. */
export class WalkMemo {
  readonly ignore = new IgnoreMemo();
  listings = new Map<string, Listing>();
  /** Every path the last whole walk stated, in its order: the next walk states them all up front. */
  statted: readonly string[] = [];
}

/** The parts of a folder's stat that tell whether its names changed. */
type FolderStat = Pick<EntryStat, 'dev' | 'ino' | 'mtimeMs' | 'ctimeMs'>;

/** Writes the folder's tree into the store and returns its hash. */
export async function writeTree(folder: string, options: TreeOptions): Promise<TreeResult> {
  const { store, batch } = options;
  const memo = options.memo ?? new WalkMemo();
  const startedAt = Date.now();
  const counts = { files: 0, bytes: 0, read: 0, folders: 0, listed: 0 };
  const since = options.previous?.takenAt ?? -Infinity;
  const ownIgnoreFiles = new Set(options.ignoreFiles);
  const skipped = new Map<string, Set<string>>();
  for (const full of options.skip) {
    const parent = path.dirname(full);
    skipped.set(parent, (skipped.get(parent) ?? new Set()).add(path.basename(full)));
  }
  // The root is followed if it is a link; below it, links are entries of their own.
  const rootStat = fs.statSync(folder, { throwIfNoEntry: false });
  const foldersTimed = rootStat !== undefined && folderTimesKept(folder);
  const listings = new Map<string, Listing>();
  // Taken after `startedAt`, as the walk's own stats would be: each is simply taken a little earlier.
  const ahead = memo.statted.length > 0 ? (options.stats ?? sharedStatPool).lstatAhead(memo.statted) : undefined;
  const statted: string[] = [];
  let positions: Map<string, number> | undefined;
  /** The entry's lstat: the one taken up front (found by its place in the last walk, else by its path) where there is one, else one taken now. */
  const lstat = (full: string, lastAt: number): EntryStat | undefined => {
    if (ahead) {
      const index = lastAt >= 0 ? lastAt : (positions ??= new Map(memo.statted.map((known, at) => [known, at]))).get(full);
      const known = index === undefined ? undefined : ahead.at(index);
      if (known) return known;
    }
    const stat = fs.lstatSync(full, { throwIfNoEntry: false });
    return stat && entryStatOf(stat);
  };
  memo.ignore.begin();
  const rootRules: RuleSet[] = [];
  for (const name of options.ignoreFiles) {
    const text = readText(path.join(folder, name));
    if (text !== undefined) rootRules.push(memo.ignore.rules('', text));
  }

  /**
   * The folder's names, sorted: the last walk's while the folder's stat is the one they were read with.
   * `reused` is the last walk's listing when its names are; `trusted` says whether this walk's is kept.
   */
  const list = (dir: string, relative: string, stat: FolderStat | undefined): { names: readonly string[]; reused?: Listing; trusted: boolean } | undefined => {
    const trusted = foldersTimed && stat !== undefined && stat.dev === rootStat.dev;
    const known = trusted ? memo.listings.get(relative) : undefined;
    if (known && known.dev === stat!.dev && known.ino === stat!.ino && known.mtimeMs === stat!.mtimeMs && known.ctimeMs === stat!.ctimeMs && settled(stat!.mtimeMs, stat!.ctimeMs, known.readAt)) {
      return { names: known.names, reused: known, trusted };
    }
    let names: string[];
    try {
      names = fs.readdirSync(dir).sort();
    } catch {
      return undefined;
    }
    counts.listed++;
    return { names, trusted };
  };

  // `relative` is the folder's posix path from the root ('' at the root); `stat` was taken before its names are read.
  const visit = async (dir: string, relative: string, stat: FolderStat | undefined, previous: Tree | undefined, inherited: readonly RuleSet[], previousHash?: string): Promise<string> => {
    if (options.signal?.aborted) throw options.signal.reason;
    if (++counts.folders % YIELD_EVERY_FOLDERS === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const listing = list(dir, relative, stat);
    if (!listing) return putTree(store, {}, batch);
    const { names, reused } = listing;
    // Read only where the listing has one: a failed read per folder costs more than the walk's stat.
    const gitignore = names.includes(GITIGNORE) ? readText(`${dir}${path.sep}${GITIGNORE}`) : undefined;
    const rules = gitignore === undefined ? inherited : [...inherited, memo.ignore.rules(relative, gitignore)];
    const decisions = rules.length > 0 ? memo.ignore.decisions(relative, rules) : undefined;
    const skipHere = skipped.get(dir);
    // Every entry is stated before any is walked, so the next walk finds a kept listing's paths and stats by place.
    const stated = new Int32Array(names.length).fill(-1);
    const stats: (EntryStat | undefined)[] = new Array<EntryStat | undefined>(names.length);
    for (let index = 0; index < names.length; index++) {
      const name = names[index]!;
      if (name === GIT_DIR_NAME || skipHere?.has(name)) continue;
      const lastAt = reused ? reused.stated[index]! : -1;
      const full = lastAt >= 0 ? memo.statted[lastAt]! : `${dir}${path.sep}${name}`;
      stated[index] = statted.length;
      statted.push(full);
      stats[index] = lstat(full, lastAt);
    }
    if (listing.trusted) {
      const folderStat = reused ?? stat!;
      listings.set(relative, { dev: folderStat.dev, ino: folderStat.ino, mtimeMs: folderStat.mtimeMs, ctimeMs: folderStat.ctimeMs, readAt: reused?.readAt ?? startedAt, names, stated });
    }
    const tree: Record<string, TreeEntry> = {};
    for (let index = 0; index < names.length; index++) {
      const entryStat = stats[index];
      if (!entryStat) continue;
      const name = names[index]!;
      const full = statted[stated[index]!]!;
      const kind = entryStat.kind;
      if (kind === 'other') continue;
      const entryPath = relative === '' ? name : `${relative}/${name}`;
      // The ignore files themselves are the user's files: kept, so an undo restores them too.
      if (decisions && !ownIgnoreFiles.has(entryPath) && ignoredBy(decisions, rules, entryPath, name, kind === 'dir')) continue;
      const before = previous?.[name];
      if (kind === 'file') {
        tree[name] = fileEntry(full, entryStat, before, since, counts, store, batch);
      } else if (kind === 'dir') {
        const sub = before?.k === 'd' ? readTree(store, before.h) : undefined;
        const hash = await visit(full, entryPath, entryStat, sub, rules, before?.k === 'd' ? before.h : undefined);
        tree[name] = before?.k === 'd' && before.h === hash ? before : { k: 'd', h: hash };
      } else {
        let to: string;
        try {
          to = fs.readlinkSync(full);
        } catch {
          tree[name] = { k: 'x', why: 'unreadable', s: 0 };
          continue;
        }
        tree[name] = before?.k === 'l' && before.to === to ? before : { k: 'l', to };
      }
    }
    // A folder whose every entry is the one it had is the same object: no listing written or hashed again.
    if (previous && previousHash !== undefined && sameListing(previous, tree)) return previousHash;
    return putTree(store, tree, batch);
  };

  let tree: string;
  try {
    tree = await visit(folder, '', rootStat, options.previous ? readTree(store, options.previous.tree) : undefined, rootRules, options.previous?.tree);
  } finally {
    ahead?.finish();
  }
  // Only a whole walk replaces what the memo holds: an aborted one leaves the last whole one's.
  memo.listings = listings;
  memo.statted = statted;
  memo.ignore.finish();
  (options.stats ?? sharedStatPool).warm(statted);
  return { tree, files: counts.files, bytes: counts.bytes, read: counts.read, listed: counts.listed };
}

/** Whether the folder is on a file system known to mark a folder modified whenever its entries change. */
function folderTimesKept(folder: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return FOLDER_TIMES_FILE_SYSTEMS.has(fs.statfsSync(folder).type);
  } catch {
    return false;
  }
}

/** Whether a new listing holds exactly the old one's entries (unchanged entries are the old objects themselves). */
function sameListing(previous: Tree, next: Readonly<Record<string, TreeEntry>>): boolean {
  const names = Object.keys(next);
  if (names.length !== Object.keys(previous).length) return false;
  for (const name of names) if (previous[name] !== next[name]) return false;
  return true;
}

function fileEntry(full: string, stat: EntryStat, before: TreeEntry | undefined, since: number, counts: { files: number; bytes: number; read: number }, store: ObjectStore, batch: ObjectBatch | undefined): TreeEntry {
  if (stat.size > CHECKPOINT_MAX_FILE_BYTES) return { k: 'x', why: 'too-large', s: stat.size };
  if (counts.files >= CHECKPOINT_MAX_FILES || counts.bytes + stat.size > CHECKPOINT_MAX_TOTAL_BYTES) return { k: 'x', why: 'over-total', s: stat.size };
  counts.files++;
  counts.bytes += stat.size;
  const mode = stat.mode & 0o7777;
  if (
    before?.k === 'f' &&
    before.s === stat.size &&
    before.t === stat.mtimeMs &&
    before.c === stat.ctimeMs &&
    before.i === stat.ino &&
    before.m === mode &&
    settled(stat.mtimeMs, stat.ctimeMs, since)
  ) {
    return before;
  }
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(full);
  } catch {
    return { k: 'x', why: 'unreadable', s: stat.size };
  }
  counts.read++;
  const hash = store.put(bytes, batch);
  return { k: 'f', h: hash, s: bytes.length, m: mode, t: stat.mtimeMs, i: stat.ino, c: stat.ctimeMs };
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
