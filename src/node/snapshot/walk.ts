// The workspace walk of spec §5: at most 4 levels deep and 500 files, skipping VCS and dependency
// folders and editor/bytecode droppings. Records the folders it saw, so a folder that appears
// between two walks can be explored past the limits. Given the listings of an earlier walk, it
// reads again only the folders that changed; every file is still stat'ed (a write through mmap
// changes a file's mtime and size without the kernel reporting it).
import { lstatSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { lstat } from 'node:fs/promises';
import * as path from 'node:path';
import { GIT_DIR_NAME } from '../../executor';
import { recordGitControlFiles } from './gitControl';

/** Spec §5: the walk goes at most this many levels down (a file at `a/b/c/d.txt` is on level 4). */
export const SNAPSHOT_MAX_DEPTH = 4;
/** Spec §5: the walk records at most this many files. */
export const SNAPSHOT_MAX_FILES = 500;
/** The snapshot skips `.git` (but for the files git runs or follows: gitControl.ts), `node_modules`, `.venv` "and kin"; these are the kin. */
export const SNAPSHOT_SKIP_DIRS: ReadonlySet<string> = new Set([
  '.git', '.hg', '.svn', 'node_modules', '.venv', 'venv', '__pycache__', '.tox', '.mypy_cache', '.pytest_cache',
]);
/** The snapshot skips these file kinds. */
export const SNAPSHOT_SKIP_SUFFIXES: readonly string[] = ['.pyc', '.swp', '.tmp'];
/**
 * The walk reads synchronously (a quarter of the time of awaiting each read in turn; docs/MEASUREMENTS.md,
 * "Workspace walk") and lets the event loop run after this many directory reads, so a tree of many
 * empty folders never blocks it for long.
 */
export const WALK_YIELD_EVERY_DIRS = 64;
/**
 * A folder's listing is kept for the next walk only when its mtime and ctime were already this much
 * older than the moment it was read: a change within the same clock tick would leave them as they
 * were (git's "racy clean" rule). Linux stamps them from a clock that advances once per jiffy, at
 * most 10 ms (HZ >= 100); the rest is room. Coarser file systems (1-2 s on ext3 and FAT) rely on the
 * watcher's report of the folder, without which no listing is reused.
 */
export const LISTING_RACY_MS = 50;

export interface FileStat {
  readonly size: number;
  readonly mtimeMs: number;
}

export interface WalkResult {
  /** Absolute path → size and mtime. */
  readonly files: Map<string, FileStat>;
  /** Every folder seen (absolute), entered or not. */
  readonly dirs: Set<string>;
  /** Folders seen at the depth limit and not entered. */
  readonly frontier: Set<string>;
  /** The file limit was reached: files past it were not recorded. */
  readonly capped: boolean;
}

/** What the walk read of one folder: its entries to walk, in name order, and the stat it had then. */
export interface FolderListing {
  readonly entries: readonly ListedEntry[];
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

/** A folder or regular file the walk looks at (skipped names and other kinds are left out). */
export interface ListedEntry {
  readonly path: string;
  readonly directory: boolean;
  /** A `.git` folder: only its control files are recorded. */
  readonly git?: boolean;
}

/**
 * Folder → its listing, filled by walks and read by later ones while the folder keeps the same
 * inode, mtime and ctime. Its owner deletes a folder's entry whenever the folder may have changed
 * by other means (a watcher's report), and gives it to a walk only while it can.
 */
export type ListingCache = Map<string, FolderListing>;

export function isSkippedName(name: string, directory: boolean): boolean {
  return directory ? SNAPSHOT_SKIP_DIRS.has(name) : SNAPSHOT_SKIP_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

/**
 * Walks one root depth first, in name order. Unreadable entries are skipped. `listings`: folders
 * are listed from it when unchanged, and what is read is kept in it.
 */
export async function walkWorkspace(
  root: string,
  limits: { maxDepth?: number; maxFiles?: number } = {},
  signal?: AbortSignal,
  listings?: ListingCache,
): Promise<WalkResult> {
  const maxDepth = limits.maxDepth ?? SNAPSHOT_MAX_DEPTH;
  const maxFiles = limits.maxFiles ?? SNAPSHOT_MAX_FILES;
  const result: WalkResult = { files: new Map(), dirs: new Set(), frontier: new Set(), capped: false };
  let capped = false;
  let reads = 0;
  // Files counted against `maxFiles`: git's control files are recorded besides them.
  let counted = 0;
  const visit = async (dir: string, depth: number): Promise<void> => {
    signal?.throwIfAborted();
    if (++reads % WALK_YIELD_EVERY_DIRS === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const entries = listings ? listFolderCached(dir, listings) : listFolder(dir);
    if (!entries) return;
    for (const entry of entries) {
      if (capped) return;
      if (entry.git) recordGitControlFiles(entry.path, result.files);
      else if (entry.directory) {
        result.dirs.add(entry.path);
        if (depth < maxDepth) await visit(entry.path, depth + 1);
        else result.frontier.add(entry.path);
      } else {
        if (counted >= maxFiles) {
          capped = true;
          return;
        }
        const stat = statFileSync(entry.path);
        if (stat) {
          result.files.set(entry.path, stat);
          counted++;
        }
      }
    }
  };
  await visit(root, 1);
  if (listings) forgetUnvisited(listings, root, result.dirs);
  return { ...result, capped };
}

/** The folders and regular files in `dir` the walk looks at, in name order; undefined when unreadable. */
function listFolder(dir: string): ListedEntry[] | undefined {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const listed: ListedEntry[] = [];
  for (const entry of entries) {
    const directory = entry.isDirectory();
    if (directory && entry.name === GIT_DIR_NAME) listed.push({ path: path.join(dir, entry.name), directory, git: true });
    else if ((directory || entry.isFile()) && !isSkippedName(entry.name, directory)) listed.push({ path: path.join(dir, entry.name), directory });
  }
  return listed;
}

/**
 * `listFolder` from the cache while the folder has the inode, mtime and ctime it had when read;
 * else read, and kept when those were older than `LISTING_RACY_MS` then. Stat'ed before the read:
 * a change in between leaves a listing newer than its stat, read again next time.
 */
function listFolderCached(dir: string, listings: ListingCache): readonly ListedEntry[] | undefined {
  const readAt = Date.now();
  let stat;
  try {
    // Followed: a workspace folder may be a link to the real one.
    stat = statSync(dir, { throwIfNoEntry: false });
  } catch {
    stat = undefined;
  }
  const cached = listings.get(dir);
  if (cached && stat && cached.ino === stat.ino && cached.mtimeMs === stat.mtimeMs && cached.ctimeMs === stat.ctimeMs) return cached.entries;
  listings.delete(dir);
  const entries = listFolder(dir);
  if (entries && stat?.isDirectory() && Math.max(stat.mtimeMs, stat.ctimeMs) < readAt - LISTING_RACY_MS) {
    listings.set(dir, { entries, ino: stat.ino, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs });
  }
  return entries;
}

/** Listings below `root` of folders this walk did not enter any more (gone, or past the file limit). */
function forgetUnvisited(listings: ListingCache, root: string, entered: ReadonlySet<string>): void {
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  for (const dir of listings.keys()) {
    if (dir !== root && dir.startsWith(prefix) && !entered.has(dir)) listings.delete(dir);
  }
}

/** Size and mtime of a regular file, read synchronously; undefined when it is gone or not a file. */
export function statFileSync(file: string): FileStat | undefined {
  try {
    const stat = lstatSync(file, { throwIfNoEntry: false });
    return stat?.isFile() ? { size: stat.size, mtimeMs: stat.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/** Size and mtime of a regular file; undefined when it is gone or not a file. */
export async function statFile(file: string): Promise<FileStat | undefined> {
  try {
    const stat = await lstat(file);
    return stat.isFile() ? { size: stat.size, mtimeMs: stat.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}
