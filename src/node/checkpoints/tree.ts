// One checkpoint of a workspace folder: a tree of folder listings in the object store, each entry a
// file's bytes (with its mode and the stat that lets the next checkpoint skip reading it), a link's
// target, a subfolder, or a file left out with the reason. Git's model without git: nested
// repositories are plain files here and no `.git` is ever read or written.
import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { GIT_DIR_NAME } from '../../executor';
import type { ObjectStore } from './objectStore';

/** A file larger than this is left out (and named so by undo): such files are build outputs or data, and copying them on each change would cost more than the undo is worth. */
export const CHECKPOINT_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Files past this total are left out: a checkpoint never holds more of a workspace than this. */
export const CHECKPOINT_MAX_TOTAL_BYTES = 1024 * 1024 * 1024;
/** Files past this count are left out, so a checkpoint of a huge tree ends. */
export const CHECKPOINT_MAX_FILES = 200_000;
/** A stat within this much of the checkpoint's start is not trusted by the next one (git's "racy clean": a write in the same clock tick leaves mtime as it was). */
export const CHECKPOINT_RACY_MS = 50;
/** The walk lets the event loop run after this many folders. */
const YIELD_EVERY_FOLDERS = 64;
/** Read by git itself in every folder; ours are read at the root. */
const GITIGNORE = '.gitignore';

export type LeftOutReason = 'too-large' | 'over-total' | 'unreadable';

export type TreeEntry =
  /** A file: content hash, size, mode, mtime, inode and ctime (the stat compared by the next checkpoint). */
  | { readonly k: 'f'; readonly h: string; readonly s: number; readonly m: number; readonly t: number; readonly i: number; readonly c: number }
  | { readonly k: 'l'; readonly to: string }
  | { readonly k: 'd'; readonly h: string }
  | { readonly k: 'x'; readonly why: LeftOutReason; readonly s: number };

export type Tree = Readonly<Record<string, TreeEntry>>;

export interface TreeOptions {
  readonly store: ObjectStore;
  /** The same folder's tree in the last checkpoint, whose stats spare reading unchanged files. */
  readonly previous?: { readonly tree: string; readonly takenAt: number };
  /** Root-level ignore files in gitignore syntax (ours and other agents'). */
  readonly ignoreFiles: readonly string[];
  /** Absolute paths never walked (the checkpoints' own storage when it is inside the workspace). */
  readonly skip: ReadonlySet<string>;
  readonly signal?: AbortSignal;
}

export interface TreeResult {
  readonly tree: string;
  readonly files: number;
  readonly bytes: number;
  /** Files whose bytes were read (the rest matched the previous stat). */
  readonly read: number;
}

/** Parsed listings by hash: objects never change, and the next checkpoint reads the same ones again. */
const parsed = new Map<string, Tree>();
/** Listings kept parsed; the oldest go first. */
const MAX_PARSED_LISTINGS = 20_000;

export function readTree(store: ObjectStore, hash: string): Tree {
  const key = `${store.root}\0${hash}`;
  const cached = parsed.get(key);
  if (cached) return cached;
  const tree = Object.freeze(JSON.parse(store.get(hash).toString('utf8')) as Tree);
  parsed.set(key, tree);
  if (parsed.size > MAX_PARSED_LISTINGS) parsed.delete(parsed.keys().next().value as string);
  return tree;
}

/** Whether a new listing holds exactly the old one's entries (unchanged entries are the old objects themselves). */
function sameListing(previous: Tree, next: Readonly<Record<string, TreeEntry>>): boolean {
  const names = Object.keys(next);
  if (names.length !== Object.keys(previous).length) return false;
  for (const name of names) if (previous[name] !== next[name]) return false;
  return true;
}

interface Rules {
  readonly base: string;
  readonly rules: Ignore;
}

/** Writes the folder's tree into the store and returns its hash. */
export async function writeTree(folder: string, options: TreeOptions): Promise<TreeResult> {
  const { store } = options;
  const counts = { files: 0, bytes: 0, read: 0, folders: 0 };
  const trustBefore = options.previous ? options.previous.takenAt - CHECKPOINT_RACY_MS : -Infinity;
  const rootRules: Rules[] = [];
  for (const name of options.ignoreFiles) {
    const text = readText(path.join(folder, name));
    if (text !== undefined) rootRules.push({ base: folder, rules: ignore().add(text) });
  }

  const visit = async (dir: string, previous: Tree | undefined, inherited: readonly Rules[], previousHash?: string): Promise<string> => {
    if (options.signal?.aborted) throw options.signal.reason;
    if (++counts.folders % YIELD_EVERY_FOLDERS === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const tree: Record<string, TreeEntry> = {};
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      return store.put(Buffer.from('{}'));
    }
    // Read only where the listing has one: a failed read per folder costs more than the walk's stat.
    const gitignore = entries.some((entry) => entry.name === GITIGNORE) ? readText(path.join(dir, GITIGNORE)) : undefined;
    const rules = gitignore === undefined ? inherited : [...inherited, { base: dir, rules: ignore().add(gitignore) }];
    for (const dirent of entries) {
      const name = dirent.name;
      if (name === GIT_DIR_NAME) continue;
      const full = `${dir}${path.sep}${name}`;
      if (options.skip.has(full)) continue;
      // The listing's type spares a stat of each folder and link; a file system that gives none is asked.
      let kind: 'dir' | 'link' | 'file' | 'other' = dirent.isDirectory() ? 'dir' : dirent.isSymbolicLink() ? 'link' : dirent.isFile() ? 'file' : 'other';
      let stat: fs.Stats | undefined;
      if (kind === 'file' || kind === 'other') {
        try {
          stat = fs.lstatSync(full);
        } catch {
          continue;
        }
        kind = stat.isDirectory() ? 'dir' : stat.isSymbolicLink() ? 'link' : stat.isFile() ? 'file' : 'other';
      }
      if (rules.length > 0 && ignored(rules, full, kind === 'dir', options.ignoreFiles, folder)) continue;
      const before = previous?.[name];
      if (kind === 'dir') {
        const sub = before?.k === 'd' ? readTree(store, before.h) : undefined;
        const hash = await visit(full, sub, rules, before?.k === 'd' ? before.h : undefined);
        tree[name] = before?.k === 'd' && before.h === hash ? before : { k: 'd', h: hash };
      } else if (kind === 'link') {
        let to: string;
        try {
          to = fs.readlinkSync(full);
        } catch {
          tree[name] = { k: 'x', why: 'unreadable', s: 0 };
          continue;
        }
        tree[name] = before?.k === 'l' && before.to === to ? before : { k: 'l', to };
      } else if (kind === 'file') {
        tree[name] = fileEntry(full, stat!, before, trustBefore, counts, store);
      }
    }
    // A folder whose every entry is the one it had is the same object: no listing written or hashed again.
    if (previous && previousHash !== undefined && sameListing(previous, tree)) return previousHash;
    return store.put(Buffer.from(JSON.stringify(tree)));
  };

  const tree = await visit(folder, options.previous ? readTree(store, options.previous.tree) : undefined, rootRules, options.previous?.tree);
  return { tree, files: counts.files, bytes: counts.bytes, read: counts.read };
}

function fileEntry(
  full: string,
  stat: fs.Stats,
  before: TreeEntry | undefined,
  trustBefore: number,
  counts: { files: number; bytes: number; read: number },
  store: ObjectStore,
): TreeEntry {
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
    stat.mtimeMs < trustBefore &&
    stat.ctimeMs < trustBefore
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
  const hash = store.put(bytes);
  return { k: 'f', h: hash, s: bytes.length, m: mode, t: stat.mtimeMs, i: stat.ino, c: stat.ctimeMs };
}

function ignored(rules: readonly Rules[], full: string, directory: boolean, ignoreFiles: readonly string[], folder: string): boolean {
  const fromRoot = path.relative(folder, full).split(path.sep).join('/');
  // The ignore files themselves are the user's files: kept, so an undo restores them too.
  if (ignoreFiles.includes(fromRoot)) return false;
  for (const { base, rules: set } of rules) {
    const relative = path.relative(base, full).split(path.sep).join('/');
    if (set.ignores(directory ? `${relative}/` : relative)) return true;
  }
  return false;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A path whose entry differs between two trees (files, links and left-out files; folders are walked). */
export interface TreeChange {
  readonly path: string;
  readonly before: TreeEntry | undefined;
  readonly after: TreeEntry | undefined;
}

/** What differs between two trees of one folder; subtrees with the same hash are skipped unread. */
export function diffTrees(store: ObjectStore, before: string | undefined, after: string | undefined, folder: string, into: TreeChange[] = []): TreeChange[] {
  if (before === after) return into;
  const a = before ? readTree(store, before) : {};
  const b = after ? readTree(store, after) : {};
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = a[name];
    const y = b[name];
    const full = path.join(folder, name);
    const xDir = x?.k === 'd' ? x.h : undefined;
    const yDir = y?.k === 'd' ? y.h : undefined;
    if (xDir || yDir) diffTrees(store, xDir, yDir, full, into);
    // A folder is a change of its own only where it appears or goes (an empty one holds no leaf).
    const xLeaf = x?.k === 'd' ? (y?.k === 'd' ? undefined : FOLDER) : x;
    const yLeaf = y?.k === 'd' ? (x?.k === 'd' ? undefined : FOLDER) : y;
    if (!sameEntry(xLeaf, yLeaf)) into.push({ path: full, before: xLeaf, after: yLeaf });
  }
  return into;
}

/** A folder in a change: its content is compared entry by entry, not as one. */
export const FOLDER: TreeEntry = { k: 'd', h: '' };

/** Whether two leaf entries hold the same content (a file's stat may differ while its bytes and mode do not). */
export function sameEntry(a: TreeEntry | undefined, b: TreeEntry | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.k === 'd' && b.k === 'd') return true;
  if (a.k === 'f' && b.k === 'f') return a.h === b.h && a.m === b.m;
  if (a.k === 'l' && b.k === 'l') return a.to === b.to;
  if (a.k === 'x' && b.k === 'x') return a.s === b.s && a.why === b.why;
  return false;
}

/** The entry at `relative` (posix) in a tree, undefined when absent or a folder. */
export function entryAt(store: ObjectStore, tree: string, relative: string): TreeEntry | undefined {
  let current = readTree(store, tree);
  const parts = relative.split('/');
  for (let index = 0; index < parts.length; index++) {
    const entry = current[parts[index]!];
    if (!entry) return undefined;
    if (index === parts.length - 1) return entry.k === 'd' ? undefined : entry;
    if (entry.k !== 'd') return undefined;
    current = readTree(store, entry.h);
  }
  return undefined;
}

/** Every object a tree reaches (itself, its subtrees, its files' bytes), for pruning. */
export function reachable(store: ObjectStore, tree: string, into: Set<string>): void {
  if (into.has(tree)) return;
  into.add(tree);
  for (const entry of Object.values(readTree(store, tree))) {
    if (entry.k === 'd') reachable(store, entry.h, into);
    else if (entry.k === 'f') into.add(entry.h);
  }
}

/**
 * The tree with some paths set (`undefined` removes; a folder entry makes the folder if missing), written
 * without walking anything: only the folders on the edited paths are listed again.
 */
export function editTree(store: ObjectStore, hash: string | undefined, edits: ReadonlyMap<string, TreeEntry | undefined>): string {
  const tree: Record<string, TreeEntry> = { ...(hash ? readTree(store, hash) : {}) };
  const nested = new Map<string, Map<string, TreeEntry | undefined>>();
  for (const [relative, entry] of edits) {
    const slash = relative.indexOf('/');
    if (slash >= 0) {
      const head = relative.slice(0, slash);
      let sub = nested.get(head);
      if (!sub) nested.set(head, (sub = new Map()));
      sub.set(relative.slice(slash + 1), entry);
    } else if (entry === undefined) {
      delete tree[relative];
    } else if (entry.k === 'd') {
      if (tree[relative]?.k !== 'd') tree[relative] = { k: 'd', h: store.put(Buffer.from('{}')) };
    } else {
      tree[relative] = entry;
    }
  }
  for (const [head, sub] of nested) {
    const current = tree[head];
    // Removals under a folder that is not there change nothing (the folder itself was removed).
    if (current?.k !== 'd' && [...sub.values()].every((entry) => entry === undefined)) continue;
    tree[head] = { k: 'd', h: editTree(store, current?.k === 'd' ? current.h : undefined, sub) };
  }
  const sorted: Record<string, TreeEntry> = {};
  for (const name of Object.keys(tree).sort()) sorted[name] = tree[name]!;
  return store.put(Buffer.from(JSON.stringify(sorted)));
}
