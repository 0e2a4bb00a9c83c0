// One checkpoint of a workspace folder: a tree of folder listings in the object store, each entry a
// file's bytes (with its mode and the stat that lets the next checkpoint skip reading it), a link's
// target, a subfolder, or a file left out with the reason. Git's model without git: nested
// repositories are plain files here and no `.git` is ever read or written.
import * as path from 'node:path';
import type { ObjectBatch, ObjectStore } from './objectStore';

/** A file larger than this is left out (and named so by undo): such files are build outputs or data, and copying them on each change would cost more than the undo is worth. */
export const CHECKPOINT_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Files past this total are left out: a checkpoint never holds more of a workspace than this. */
export const CHECKPOINT_MAX_TOTAL_BYTES = 1024 * 1024 * 1024;
/** Files past this count are left out, so a checkpoint of a huge tree ends. */
export const CHECKPOINT_MAX_FILES = 200_000;
/** A stat within this much of the checkpoint's start is not trusted by the next one (git's "racy clean": a write in the same clock tick leaves mtime as it was). */
export const CHECKPOINT_RACY_MS = 50;
/** The same for a stat in whole seconds: such file systems keep times in one- or (FAT) two-second steps. */
export const CHECKPOINT_COARSE_RACY_MS = 3000;

export type LeftOutReason = 'too-large' | 'over-total' | 'unreadable';

export type TreeEntry =
  /** A file: content hash, size, mode, mtime, inode and ctime (the stat compared by the next checkpoint). */
  | { readonly k: 'f'; readonly h: string; readonly s: number; readonly m: number; readonly t: number; readonly i: number; readonly c: number }
  | { readonly k: 'l'; readonly to: string }
  | { readonly k: 'd'; readonly h: string }
  | { readonly k: 'x'; readonly why: LeftOutReason; readonly s: number };

export type Tree = Readonly<Record<string, TreeEntry>>;

/** Whether a stat is old enough, for a walk that started at `since`, that a later write could not have left it as it is. */
export function settled(mtimeMs: number, ctimeMs: number, since: number): boolean {
  const window = mtimeMs % 1000 === 0 && ctimeMs % 1000 === 0 ? CHECKPOINT_COARSE_RACY_MS : CHECKPOINT_RACY_MS;
  return mtimeMs < since - window && ctimeMs < since - window;
}

/** Parsed listings by store folder, then hash: objects never change, and the next checkpoint reads the same ones again. */
const parsed = new Map<string, Map<string, Tree>>();
/** Listings kept parsed per store folder; the oldest go first. */
const MAX_PARSED_LISTINGS = 20_000;

export function readTree(store: ObjectStore, hash: string): Tree {
  const cached = parsed.get(store.root)?.get(hash);
  if (cached) return cached;
  const tree = Object.freeze(JSON.parse(store.get(hash).toString('utf8')) as Tree);
  remember(store, hash, tree);
  return tree;
}

function remember(store: ObjectStore, hash: string, tree: Tree): void {
  let listings = parsed.get(store.root);
  if (!listings) parsed.set(store.root, (listings = new Map()));
  if (listings.has(hash)) return;
  listings.set(hash, tree);
  if (listings.size > MAX_PARSED_LISTINGS) listings.delete(listings.keys().next().value as string);
}

/** Stores a listing and keeps it parsed: the next checkpoint compares against it. */
export function putTree(store: ObjectStore, tree: Record<string, TreeEntry>, batch?: ObjectBatch): string {
  const hash = store.put(Buffer.from(JSON.stringify(tree)), batch);
  remember(store, hash, Object.freeze(tree));
  return hash;
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
export function editTree(store: ObjectStore, hash: string | undefined, edits: ReadonlyMap<string, TreeEntry | undefined>, batch?: ObjectBatch): string {
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
      if (tree[relative]?.k !== 'd') tree[relative] = { k: 'd', h: store.put(Buffer.from('{}'), batch) };
    } else {
      tree[relative] = entry;
    }
  }
  for (const [head, sub] of nested) {
    const current = tree[head];
    // Removals under a folder that is not there change nothing (the folder itself was removed).
    if (current?.k !== 'd' && [...sub.values()].every((entry) => entry === undefined)) continue;
    tree[head] = { k: 'd', h: editTree(store, current?.k === 'd' ? current.h : undefined, sub, batch) };
  }
  const sorted: Record<string, TreeEntry> = {};
  for (const name of Object.keys(tree).sort()) sorted[name] = tree[name]!;
  return putTree(store, sorted, batch);
}
