// Undo of a turn: every path the turn changed goes back to its checkpoint before the turn, and
// nothing else is touched (no clean, no reset, HEAD never moves). A path that is no longer as the
// turn left it (the user or a later turn changed it) is never overwritten without the user's answer.
// The undo is a turn of its own, between two checkpoints, so undoing it is the redo.
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CheckpointStore, TurnRecord } from './checkpointStore';
import type { ObjectBatch } from './objectStore';
import { CHECKPOINT_MAX_FILE_BYTES, diffTrees, FOLDER, readTree, sameEntry, type LeftOutReason, type TreeChange, type TreeEntry } from './tree';

export type ChangeKind = 'created' | 'modified' | 'deleted';

/** One path the undo will put back, and what is there now. */
export interface PlannedPath {
  readonly path: string;
  readonly folder: string;
  /** What the turn did to the path. */
  readonly kind: ChangeKind;
  /** The state to restore (undefined: the path did not exist). */
  readonly target: TreeEntry | undefined;
  /** The state the turn left. */
  readonly expected: TreeEntry | undefined;
  /** The state now; differs from `expected` for a conflict. */
  readonly current: CurrentEntry | undefined;
}

export type CurrentEntry = TreeEntry | { readonly k: 'dir' };

export interface Conflict extends PlannedPath {
  /** Later turns that changed the path (newest last); empty when only the user did. */
  readonly laterTurns: readonly string[];
}

export interface NotRestorable {
  readonly path: string;
  readonly reason: LeftOutReason | 'ignored';
}

export interface UndoPlan {
  readonly turn: TurnRecord;
  /** Paths that are as the turn left them: restored without asking. */
  readonly safe: readonly PlannedPath[];
  readonly conflicts: readonly Conflict[];
  readonly notRestorable: readonly NotRestorable[];
  /** Paths already as the undo would leave them (put back by hand, or by an earlier undo): nothing to write. */
  readonly alreadyBack: readonly string[];
}

export type ConflictAnswer = 'skip' | 'overwrite' | 'cancel';

export interface UndoOutcome {
  /** The undo's own record (its undo is the redo); undefined when cancelled or nothing changed. */
  readonly record: TurnRecord | undefined;
  readonly restored: readonly PlannedPath[];
  readonly skipped: readonly Conflict[];
  readonly notRestorable: readonly NotRestorable[];
  readonly failed: readonly { readonly path: string; readonly error: string }[];
  readonly cancelled: boolean;
}

/** A turn whose changes an undo (or a redo) already reversed, every path of it back as before: nothing is left to undo. */
export class AlreadyReversedError extends Error {
  constructor(
    readonly turn: TurnRecord,
    /** The undo or redo that reversed it; undoing this one brings the turn's changes back. */
    readonly by: TurnRecord,
  ) {
    super(`${turn.kind === 'undo' ? `undo ${turn.turnId} is already redone` : `turn ${turn.turnId} is already undone`} (by ${by.turnId}); undoing ${by.turnId} ${by.kind === 'undo' ? 'redoes' : 'undoes'} it`);
  }
}

/** What undoing the turn would do, with what is there now; writes nothing. */
export function planUndo(store: CheckpointStore, turnId: string): UndoPlan {
  const turns = store.turns();
  const index = turns.findIndex((turn) => turn.turnId === turnId);
  if (index < 0) throw new Error(`no checkpoints are kept for turn ${turnId}: it is older than the retention, or wrote nothing`);
  const turn = turns[index]!;
  const before = store.checkpoint(turn.before);
  const after = store.checkpoint(turn.after);
  const later = turns.slice(index + 1);
  const safe: PlannedPath[] = [];
  const conflicts: Conflict[] = [];
  const notRestorable: NotRestorable[] = [];
  const alreadyBack: string[] = [];
  const seen = new Set<string>();
  for (const folderBefore of before.folders) {
    const folderAfter = after.folders.find((entry) => entry.folder === folderBefore.folder);
    for (const change of diffTrees(store.objects, folderBefore.tree, folderAfter?.tree, folderBefore.folder)) {
      seen.add(change.path);
      if (change.before?.k === 'x') {
        notRestorable.push({ path: change.path, reason: change.before.why });
        continue;
      }
      const planned: PlannedPath = {
        path: change.path,
        folder: folderBefore.folder,
        kind: kindOf(change),
        target: change.before,
        expected: change.after,
        current: currentEntry(change.path, change.after),
      };
      if (sameCurrent(planned.current, planned.expected)) safe.push(planned);
      else if (isBack(planned)) alreadyBack.push(planned.path);
      else conflicts.push({ ...planned, laterTurns: laterTurnsChanging(store, later, change.path) });
    }
  }
  // An undo again of a turn an undo reversed (and no redo since) finds its paths back: nothing to do but say so.
  const reversal = safe.length === 0 && conflicts.length === 0 ? store.reversalOf(turnId, turns) : undefined;
  if (reversal) throw new AlreadyReversedError(turn, reversal);
  for (const reported of turn.reported) {
    if (!seen.has(reported)) notRestorable.push({ path: reported, reason: 'ignored' });
  }
  return { turn, safe, conflicts, notRestorable, alreadyBack };
}

/**
 * Undoes the turn: a checkpoint, the safe paths restored, each conflict as `decide` answers, and a
 * checkpoint after. `cancel` writes nothing.
 */
export async function undoTurn(
  store: CheckpointStore,
  turnId: string,
  decide: (conflicts: readonly Conflict[]) => Promise<ConflictAnswer> | ConflictAnswer,
): Promise<UndoOutcome> {
  const plan = planUndo(store, turnId);
  const answer = plan.conflicts.length > 0 ? await decide(plan.conflicts) : 'skip';
  if (answer === 'cancel') return { record: undefined, restored: [], skipped: [...plan.conflicts], notRestorable: plan.notRestorable, failed: [], cancelled: true };
  const chosen = answer === 'overwrite' ? [...plan.safe, ...plan.conflicts] : [...plan.safe];
  const undoId = `undo-${plan.turn.turnId}-${randomBytes(4).toString('hex')}`;
  const kind = plan.turn.kind === 'undo' ? 'redo' : 'undo';
  // The undo's own checkpoints are the latest one with its paths set, first as they are now (their bytes
  // kept, for the redo), then as restored: no walk of the folders.
  const kept = store.objects.batch();
  const before = store.derive(new Map(chosen.map((planned) => [planned.path, keptEntry(store, planned.path, kept)])), kept);
  const restored: PlannedPath[] = [];
  const failed: { path: string; error: string }[] = [];
  const beforeTree = store.checkpoint(plan.turn.before);
  // Deepest first, so a folder the turn created is empty by the time its own removal is tried.
  for (const planned of chosen.sort((a, b) => b.path.length - a.path.length)) {
    try {
      restorePath(store, planned);
      const tree = beforeTree.folders.find((entry) => entry.folder === planned.folder)?.tree;
      if (!planned.target) removeEmptyParents(store, planned, tree);
      restored.push(planned);
    } catch (error) {
      failed.push({ path: planned.path, error: error instanceof Error ? error.message : String(error) });
    }
  }
  const after = store.derive(new Map(restored.map((planned) => [planned.path, planned.target?.k === 'd' ? FOLDER : planned.target])));
  const record = store.recordTurn({ turnId: undoId, title: `${kind === 'redo' ? 'Redo' : 'Undo'}: ${plan.turn.title}`, kind, reverses: plan.turn.turnId, before: before.id, after: after.id, reported: [] });
  return {
    record,
    restored: restored.sort((a, b) => a.path.localeCompare(b.path)),
    skipped: answer === 'overwrite' ? [] : [...plan.conflicts],
    notRestorable: plan.notRestorable,
    failed,
    cancelled: false,
  };
}

/** What is at the path now, its bytes stored; no stat kept, so the next checkpoint reads the file again. */
function keptEntry(store: CheckpointStore, file: string, batch: ObjectBatch): TreeEntry | undefined {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (stat.isDirectory()) return FOLDER;
  if (stat.isSymbolicLink()) return { k: 'l', to: fs.readlinkSync(file) };
  if (!stat.isFile()) return undefined;
  if (stat.size > CHECKPOINT_MAX_FILE_BYTES) return { k: 'x', why: 'too-large', s: stat.size };
  const bytes = fs.readFileSync(file);
  return { k: 'f', h: store.objects.put(bytes, batch), s: bytes.length, m: stat.mode & 0o7777, t: -1, i: -1, c: -1 };
}

function kindOf(change: TreeChange): ChangeKind {
  if (!change.before) return 'created';
  if (!change.after) return 'deleted';
  return 'modified';
}

/** What is at the path now, read as a checkpoint would (the bytes are read only when the size matches). */
export function currentEntry(file: string, expected?: TreeEntry): CurrentEntry | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return undefined;
  }
  if (stat.isDirectory()) return { k: 'dir' };
  if (stat.isSymbolicLink()) return { k: 'l', to: fs.readlinkSync(file) };
  if (stat.size > CHECKPOINT_MAX_FILE_BYTES) return { k: 'x', why: 'too-large', s: stat.size };
  const mode = stat.mode & 0o7777;
  // A size that differs is a change already: the bytes need not be read.
  if (expected?.k === 'f' && expected.s !== stat.size) return { k: 'f', h: '', s: stat.size, m: mode, t: stat.mtimeMs, i: stat.ino, c: stat.ctimeMs };
  const hash = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  return { k: 'f', h: hash, s: stat.size, m: mode, t: stat.mtimeMs, i: stat.ino, c: stat.ctimeMs };
}

/** Whether the path is now as the undo would leave it (the size shortcut of `currentEntry` is undone where it hid the hash). */
function isBack(planned: PlannedPath): boolean {
  const { current, target } = planned;
  const hashed = current?.k === 'f' && current.h === '' && target?.k === 'f' && target.s === current.s ? currentEntry(planned.path) : current;
  return sameCurrent(hashed, target);
}

function sameCurrent(current: CurrentEntry | undefined, expected: TreeEntry | undefined): boolean {
  if (current?.k === 'dir') return expected?.k === 'd';
  return sameEntry(current, expected);
}

function laterTurnsChanging(store: CheckpointStore, later: readonly TurnRecord[], file: string): string[] {
  const found: string[] = [];
  for (const turn of later) {
    const before = store.checkpoint(turn.before);
    const after = store.checkpoint(turn.after);
    for (const folder of before.folders) {
      const other = after.folders.find((entry) => entry.folder === folder.folder);
      if (!isInside(file, folder.folder)) continue;
      if (diffTrees(store.objects, folder.tree, other?.tree, folder.folder).some((change) => change.path === file)) found.push(turn.turnId);
    }
  }
  return found;
}

/** Puts one path back as the checkpoint holds it; written beside and renamed, so it is never half there. */
function restorePath(store: CheckpointStore, planned: PlannedPath): void {
  const { path: file, folder, target } = planned;
  if (!isInside(file, folder)) throw new Error('outside the workspace folder');
  ensureRealParents(file, folder, target !== undefined);
  const current = fs.lstatSync(file, { throwIfNoEntry: false });
  if (target?.k === 'd') {
    if (current && !current.isDirectory()) throw new Error(`a ${current.isSymbolicLink() ? 'link' : 'file'} is there now, not a folder`);
    if (!current) fs.mkdirSync(file);
    return;
  }
  if (current?.isDirectory()) {
    if (target) throw new Error('a folder is there now');
    // The turn made this folder: its own paths were put back first (deepest first), so it is empty unless someone else wrote there.
    if (fs.readdirSync(file).length > 0) throw new Error('the folder the turn made is not empty now: left as it is');
    fs.rmdirSync(file);
    return;
  }
  if (!target) {
    if (current) fs.unlinkSync(file);
    return;
  }
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.undo`);
  if (target.k === 'f') {
    fs.writeFileSync(temporary, store.objects.get(target.h), { mode: target.m, flag: 'wx' });
    fs.chmodSync(temporary, target.m);
  } else if (target.k === 'l') {
    fs.symlinkSync(target.to, temporary);
  } else {
    throw new Error('the checkpoint left this file out');
  }
  try {
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

/** Each folder on the way is a real folder inside the workspace folder (a link there could lead out); missing ones are made when `create`. */
function ensureRealParents(file: string, folder: string, create: boolean): void {
  const parts = path.relative(folder, path.dirname(file)).split(path.sep).filter(Boolean);
  let current = folder;
  for (const part of parts) {
    current = path.join(current, part);
    const stat = fs.lstatSync(current, { throwIfNoEntry: false });
    if (!stat) {
      if (!create) return;
      fs.mkdirSync(current);
    } else if (!stat.isDirectory()) {
      throw new Error(`${path.relative(folder, current)} is ${stat.isSymbolicLink() ? 'a link' : 'a file'} now, not a folder`);
    }
  }
}

/** Removes the folders above a removed path that are empty now and were not there before the turn. */
function removeEmptyParents(store: CheckpointStore, planned: PlannedPath, beforeTree: string | undefined): void {
  let dir = path.dirname(planned.path);
  while (dir !== planned.folder && isInside(dir, planned.folder)) {
    if (beforeTree && folderInTree(store, beforeTree, path.relative(planned.folder, dir).split(path.sep))) return;
    try {
      fs.rmdirSync(dir);
    } catch {
      return;
    }
    dir = path.dirname(dir);
  }
}

function folderInTree(store: CheckpointStore, tree: string, parts: readonly string[]): boolean {
  let current = readTree(store.objects, tree);
  for (const part of parts) {
    const entry = current[part];
    if (entry?.k !== 'd') return false;
    current = readTree(store.objects, entry.h);
  }
  return true;
}

function isInside(candidate: string, folder: string): boolean {
  const relative = path.relative(folder, candidate);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
