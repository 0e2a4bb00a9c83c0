// Checkpoints of the workspace around each turn, kept in our own storage (the workspace storage, or
// beside the CLI's artifacts), never in the user's repository: a checkpoint before the turn's first
// write and one after its last call, so a turn's changes are the difference of the two, whoever made
// them, a tool or the shell.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ObjectStore, type ObjectBatch } from './objectStore';
import { editTree, entryAt, reachable, type TreeEntry } from './tree';
import type { StatPool } from './statPool';
import { WalkMemo, writeTree } from './walk';

export interface FolderCheckpoint {
  readonly folder: string;
  readonly tree: string;
  readonly files: number;
  readonly bytes: number;
}

export interface Checkpoint {
  readonly id: string;
  readonly takenAt: number;
  readonly folders: readonly FolderCheckpoint[];
  /** Files whose bytes were read; the others matched the last checkpoint's stat. */
  readonly read: number;
}

/** A turn as undo sees it: the checkpoints around it. An undo or a redo is a turn of its own. */
export interface TurnRecord {
  readonly turnId: string;
  /** What the user asked, for the list (first line). */
  readonly title: string;
  readonly kind: 'turn' | 'undo' | 'redo';
  /** The turn an undo or redo reversed. */
  readonly reverses?: string;
  readonly before: string;
  readonly after: string;
  readonly endedAt: number;
  /** Paths the turn reported changed (the snapshots and the watcher), to name those no checkpoint holds. */
  readonly reported: readonly string[];
}

/** How much history is kept; the oldest turns go first. */
export interface Retention {
  /** Turns kept per workspace. */
  readonly maxTurns: number;
  /** Turns older than this many days go. */
  readonly maxDays: number;
  /** The objects of a workspace's checkpoints stay under this many bytes. */
  readonly maxBytes: number;
}

/** Enough for a working day's turns; older ones are rarely undone. */
export const DEFAULT_RETENTION: Retention = { maxTurns: 100, maxDays: 7, maxBytes: 2 * 1024 * 1024 * 1024 };

const MS_PER_DAY = 24 * 60 * 60 * 1000;
const TURNS_FILE = 'turns.json';

export interface CheckpointStoreOptions {
  /** Root-level ignore files read besides `.gitignore` (ours and other agents'). */
  readonly ignoreFiles?: readonly string[];
  readonly retention?: Retention;
  /** Takes the walks' stats known ahead; the process's pool by default. */
  readonly stats?: StatPool;
}

export class CheckpointStore {
  readonly objects: ObjectStore;
  private last: Checkpoint | undefined;
  private readonly open = new Map<string, { checkpoint: string; title: string }>();
  /** What each folder's walk keeps for the next one. */
  private readonly memos = new Map<string, WalkMemo>();

  constructor(
    readonly root: string,
    private readonly options: CheckpointStoreOptions = {},
  ) {
    this.objects = new ObjectStore(path.join(root, 'objects'));
  }

  /** Takes a checkpoint of the folders, reading only files whose stat changed since the last one. */
  async take(folders: readonly string[], signal?: AbortSignal): Promise<Checkpoint> {
    const previous = this.last ?? this.latestOnDisk();
    const result: FolderCheckpoint[] = [];
    let read = 0;
    const takenAt = Date.now();
    // One pack for the checkpoint's new objects; a walk that fails leaves it unwritten, as nothing refers to it.
    const batch = this.objects.batch();
    for (const folder of folders) {
      const before = previous?.folders.find((entry) => entry.folder === folder);
      const tree = await writeTree(folder, {
        store: this.objects,
        ...(before && previous ? { previous: { tree: before.tree, takenAt: previous.takenAt } } : {}),
        ignoreFiles: this.options.ignoreFiles ?? [],
        skip: new Set([path.resolve(this.root)]),
        memo: this.memoOf(folder),
        batch,
        ...(this.options.stats ? { stats: this.options.stats } : {}),
        ...(signal ? { signal } : {}),
      });
      read += tree.read;
      result.push({ folder, tree: tree.tree, files: tree.files, bytes: tree.bytes });
    }
    this.objects.flush(batch);
    const checkpoint: Checkpoint = { id: `${takenAt.toString(36)}-${randomUUID().slice(0, 8)}`, takenAt, folders: result, read };
    this.writeJson(path.join('checkpoints', `${checkpoint.id}.json`), checkpoint);
    this.last = checkpoint;
    return checkpoint;
  }

  /**
   * A checkpoint of the latest one with some paths set (absolute path → entry), made without walking the
   * folders: an undo records what it changed this way. It keeps the latest one's time, so the next
   * checkpoint trusts no stat the latest one could not. Objects the edits name may wait in `batch`: it is
   * written before the checkpoint is.
   */
  derive(edits: ReadonlyMap<string, TreeEntry | undefined>, batch: ObjectBatch = this.objects.batch()): Checkpoint {
    const base = this.last ?? this.latestOnDisk();
    if (!base) throw new Error('no checkpoint to derive from');
    const folders = base.folders.map((entry) => {
      const inside = new Map<string, TreeEntry | undefined>();
      for (const [file, value] of edits) {
        const relative = path.relative(entry.folder, file);
        if (relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)) inside.set(relative.split(path.sep).join('/'), value);
      }
      return inside.size === 0 ? entry : { ...entry, tree: editTree(this.objects, entry.tree, inside, batch) };
    });
    this.objects.flush(batch);
    const checkpoint: Checkpoint = { id: `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`, takenAt: base.takenAt, folders, read: 0 };
    this.writeJson(path.join('checkpoints', `${checkpoint.id}.json`), checkpoint);
    this.last = checkpoint;
    return checkpoint;
  }

  /** Records a turn between two checkpoints already taken (an undo's). */
  recordTurn(record: Omit<TurnRecord, 'endedAt'>): TurnRecord {
    const full: TurnRecord = { ...record, endedAt: Date.now() };
    this.writeJson(TURNS_FILE, [...this.turns(), full]);
    this.prune(undefined, undefined, true);
    return full;
  }

  checkpoint(id: string): Checkpoint {
    if (!/^[0-9a-z]+-[0-9a-f]{8}$/.test(id)) throw new Error(`not a checkpoint id: ${id}`);
    return JSON.parse(fs.readFileSync(path.join(this.root, 'checkpoints', `${id}.json`), 'utf8')) as Checkpoint;
  }

  /** A file's bytes as the checkpoint holds them; undefined when it held no file there. */
  fileAt(id: string, file: string): Buffer | undefined {
    for (const folder of this.checkpoint(id).folders) {
      const relative = path.relative(folder.folder, file);
      if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) continue;
      const entry = entryAt(this.objects, folder.tree, relative.split(path.sep).join('/'));
      return entry?.k === 'f' ? this.objects.get(entry.h) : undefined;
    }
    return undefined;
  }

  /** The checkpoint before a turn's first write; taken once per turn. */
  async beginTurn(turnId: string, title: string, folders: readonly string[], signal?: AbortSignal): Promise<Checkpoint> {
    const open = this.open.get(turnId);
    if (open) return this.checkpoint(open.checkpoint);
    const checkpoint = await this.take(folders, signal);
    this.open.set(turnId, { checkpoint: checkpoint.id, title });
    return checkpoint;
  }

  hasBegun(turnId: string): boolean {
    return this.open.has(turnId);
  }

  /** The checkpoint after the turn; records the turn (a turn that never began writes nothing). */
  async endTurn(turnId: string, reported: readonly string[] = [], kind: TurnRecord['kind'] = 'turn', reverses?: string): Promise<TurnRecord | undefined> {
    const open = this.open.get(turnId);
    if (!open) return undefined;
    this.open.delete(turnId);
    const before = this.checkpoint(open.checkpoint);
    const after = await this.take(before.folders.map((entry) => entry.folder));
    const record: TurnRecord = {
      turnId,
      title: open.title.split('\n')[0]!.slice(0, 200),
      kind,
      ...(reverses ? { reverses } : {}),
      before: before.id,
      after: after.id,
      endedAt: Date.now(),
      reported: [...new Set(reported)],
    };
    this.writeJson(TURNS_FILE, [...this.turns(), record]);
    this.prune(undefined, undefined, true);
    return record;
  }

  /** The recorded turns, oldest first. */
  turns(): TurnRecord[] {
    try {
      return JSON.parse(fs.readFileSync(path.join(this.root, TURNS_FILE), 'utf8')) as TurnRecord[];
    } catch {
      return [];
    }
  }

  turn(turnId: string): TurnRecord | undefined {
    return this.turns().find((turn) => turn.turnId === turnId);
  }

  /** The undo (or redo) whose reversal of the turn still stands: the latest to reverse it, unless it was reversed in turn. */
  reversalOf(turnId: string, turns: readonly TurnRecord[] = this.turns()): TurnRecord | undefined {
    let latest: TurnRecord | undefined;
    for (const turn of turns) if (turn.reverses === turnId) latest = turn;
    return latest && !this.reversalOf(latest.turnId, turns) ? latest : undefined;
  }

  /**
   * Drops the oldest turns past the retention's count, age or size, then every checkpoint and object
   * no kept turn reaches; an object two turns share stays while either is kept.
   */
  prune(retention: Retention = this.options.retention ?? DEFAULT_RETENTION, now = Date.now(), whenDropping = false): { turns: number; bytes: number } {
    let turns = this.turns();
    const dropped = turns.length;
    turns = turns.filter((turn) => now - turn.endedAt <= retention.maxDays * MS_PER_DAY).slice(-retention.maxTurns);
    // After a turn only a dropped turn can free anything worth a listing of every object.
    let freed = !whenDropping || turns.length < dropped ? this.sweep(turns) : 0;
    while (turns.length > 1 && this.objects.size() > retention.maxBytes) {
      turns = turns.slice(1);
      freed += this.sweep(turns);
    }
    this.writeJson(TURNS_FILE, turns);
    return { turns: dropped - turns.length, bytes: freed };
  }

  /** Removes every turn and checkpoint. */
  clear(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
    this.objects.forget();
    this.last = undefined;
    this.open.clear();
    this.memos.clear();
  }

  private memoOf(folder: string): WalkMemo {
    let memo = this.memos.get(folder);
    if (!memo) this.memos.set(folder, (memo = new WalkMemo()));
    return memo;
  }

  private sweep(turns: readonly TurnRecord[]): number {
    const keep = new Set<string>();
    const checkpoints = new Set<string>(turns.flatMap((turn) => [turn.before, turn.after]));
    for (const open of this.open.values()) checkpoints.add(open.checkpoint);
    if (this.last) checkpoints.add(this.last.id);
    for (const id of checkpoints) {
      try {
        for (const folder of this.checkpoint(id).folders) reachable(this.objects, folder.tree, keep);
      } catch {
        // a checkpoint already gone keeps nothing
      }
    }
    const dir = path.join(this.root, 'checkpoints');
    for (const file of safeList(dir)) {
      if (file.endsWith('.json') && !checkpoints.has(file.slice(0, -5))) fs.rmSync(path.join(dir, file), { force: true });
    }
    return this.objects.removeAll([...this.objects.names()].filter((name) => !keep.has(name)));
  }

  private latestOnDisk(): Checkpoint | undefined {
    const ids = safeList(path.join(this.root, 'checkpoints'))
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.slice(0, -5));
    let latest: Checkpoint | undefined;
    for (const id of ids) {
      try {
        const checkpoint = this.checkpoint(id);
        if (!latest || checkpoint.takenAt > latest.takenAt) latest = checkpoint;
      } catch {
        // unreadable: not a base for the next one
      }
    }
    return latest;
  }

  private writeJson(relative: string, value: unknown): void {
    const file = path.join(this.root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(value));
    fs.renameSync(temporary, file);
  }
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
