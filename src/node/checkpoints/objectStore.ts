// Content-addressed objects for checkpoints: file bytes and folder listings, named by their SHA-256,
// so a file or folder that did not change between two checkpoints is stored once. An object is a file
// of its own or one of many in a pack: a checkpoint's new objects go into one pack, since creating a
// file costs more than writing the few kilobytes most objects are.
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** The digest that names an object (of its bytes before compression). */
export const OBJECT_HASH = 'sha256';
/** zlib's fastest level: source text and folder listings shrink several times, at little cost over reading them. */
const COMPRESSION_LEVEL = 1;
/** A batch is written as a pack once it holds this much, so a first checkpoint never holds a whole workspace in memory. */
export const PACK_MAX_BYTES = 16 * 1024 * 1024;
/** Packs sit in this folder beside the two-letter folders of single objects. */
const PACK_FOLDER = 'pack';
/** A pack starts with its index's length in this many bytes (big-endian), then the index as JSON, then the objects. */
const PACK_LENGTH_BYTES = 4;

export function hashBytes(bytes: Uint8Array): string {
  return createHash(OBJECT_HASH).update(bytes).digest('hex');
}

/** Objects put through a batch are written together, as packs, by `ObjectStore.flush`. */
export class ObjectBatch {
  /** Compressed bytes by object name. */
  readonly objects = new Map<string, Buffer>();
  bytes = 0;
}

interface Packed {
  readonly pack: string;
  readonly offset: number;
  readonly length: number;
}

export class ObjectStore {
  /** The bytes all objects take, counted once and then kept up to date. */
  private total: number | undefined;
  /** Names this store's temporary files and packs apart from another process's. */
  private readonly tag = randomBytes(6).toString('hex');
  private written = 0;
  /** Where each packed object is, and each pack's objects; read from the packs when first needed. */
  private packed: { readonly at: Map<string, Packed>; readonly members: Map<string, string[]> } | undefined;

  constructor(readonly root: string) {}

  pathOf(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`not an object name: ${hash}`);
    return path.join(this.root, hash.slice(0, 2), hash.slice(2));
  }

  has(hash: string): boolean {
    return this.packs().at.has(hash) || fs.existsSync(this.pathOf(hash));
  }

  batch(): ObjectBatch {
    return new ObjectBatch();
  }

  /** Stores the bytes under their hash: in the batch, or as a file written beside and renamed, so a crash never leaves half an object. */
  put(bytes: Uint8Array, batch?: ObjectBatch): string {
    const hash = hashBytes(bytes);
    if (batch?.objects.has(hash) || this.has(hash)) return hash;
    const stored = deflateRawSync(bytes, { level: COMPRESSION_LEVEL });
    if (batch) {
      batch.objects.set(hash, stored);
      batch.bytes += stored.length;
      if (batch.bytes >= PACK_MAX_BYTES) this.flush(batch);
      return hash;
    }
    const file = this.pathOf(hash);
    this.writeNew(file, stored);
    if (this.total !== undefined) this.total += stored.length;
    return hash;
  }

  /** Writes the batch's objects as one pack (written beside and renamed, like an object) and empties it. */
  flush(batch: ObjectBatch): void {
    if (batch.objects.size === 0) return;
    this.writePack(batch.objects);
    batch.objects.clear();
    batch.bytes = 0;
  }

  get(hash: string): Buffer {
    const file = this.pathOf(hash);
    let stored = this.readPacked(hash);
    // Not known here and not a file: another store on the same folder may have packed it since.
    if (!stored && !fs.existsSync(file)) {
      this.packed = undefined;
      stored = this.readPacked(hash);
    }
    const bytes = inflateRawSync(stored ?? fs.readFileSync(file));
    if (hashBytes(bytes) !== hash) throw new Error(`checkpoint object ${hash.slice(0, 12)} is damaged`);
    return bytes;
  }

  /** Forgets the counted size and where packed objects are (the objects were changed from outside). */
  forget(): void {
    this.total = undefined;
    this.packed = undefined;
  }

  /** Every stored object's name. */
  *names(): Generator<string> {
    this.packed = undefined;
    const packed = this.packs().at;
    yield* packed.keys();
    for (const name of this.looseNames()) if (!packed.has(name)) yield name;
  }

  /** Removes the object and returns the bytes it freed. */
  remove(hash: string): number {
    return this.removeAll([hash]);
  }

  /** Removes the objects and returns the bytes freed; a pack holding others is written again without these. */
  removeAll(hashes: Iterable<string>): number {
    let freed = 0;
    const fromPacks = new Map<string, Set<string>>();
    const { at } = this.packs();
    for (const hash of hashes) {
      const place = at.get(hash);
      if (place) fromPacks.set(place.pack, (fromPacks.get(place.pack) ?? new Set()).add(hash));
      freed += this.removeFile(this.pathOf(hash));
    }
    for (const [pack, gone] of fromPacks) freed += this.repack(pack, gone);
    return freed;
  }

  /** The bytes all objects take. */
  size(): number {
    if (this.total !== undefined) return this.total;
    let total = 0;
    for (const name of this.looseNames()) total += sizeOf(this.pathOf(name));
    for (const pack of safeList(path.join(this.root, PACK_FOLDER))) if (pack.endsWith('.pack')) total += sizeOf(path.join(this.root, PACK_FOLDER, pack));
    this.total = total;
    return total;
  }

  private *looseNames(): Generator<string> {
    for (const prefix of safeList(this.root)) {
      if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
      for (const rest of safeList(path.join(this.root, prefix))) {
        if (/^[0-9a-f]{62}$/.test(rest)) yield prefix + rest;
      }
    }
  }

  private packs(): { readonly at: Map<string, Packed>; readonly members: Map<string, string[]> } {
    if (this.packed) return this.packed;
    const packed = { at: new Map<string, Packed>(), members: new Map<string, string[]>() };
    for (const pack of safeList(path.join(this.root, PACK_FOLDER))) {
      if (!pack.endsWith('.pack')) continue;
      const index = readPackIndex(path.join(this.root, PACK_FOLDER, pack));
      if (index) this.register(packed, pack, index);
    }
    return (this.packed = packed);
  }

  private register(packed: { readonly at: Map<string, Packed>; readonly members: Map<string, string[]> }, pack: string, index: readonly PackIndexEntry[]): void {
    packed.members.set(
      pack,
      index.map(([hash, offset, length]) => {
        packed.at.set(hash, { pack, offset, length });
        return hash;
      }),
    );
  }

  private readPacked(hash: string): Buffer | undefined {
    const place = this.packs().at.get(hash);
    if (!place) return undefined;
    try {
      const fd = fs.openSync(path.join(this.root, PACK_FOLDER, place.pack), 'r');
      try {
        const bytes = Buffer.allocUnsafe(place.length);
        return fs.readSync(fd, bytes, 0, place.length, place.offset) === place.length ? bytes : undefined;
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return undefined;
    }
  }

  /** Writes the objects as a new pack and returns its size. */
  private writePack(objects: ReadonlyMap<string, Buffer>): number {
    const index: PackIndexEntry[] = [];
    let offset = 0;
    for (const [hash, stored] of objects) {
      index.push([hash, offset, stored.length]);
      offset += stored.length;
    }
    const header = Buffer.from(JSON.stringify(index));
    const length = Buffer.alloc(PACK_LENGTH_BYTES);
    length.writeUInt32BE(header.length);
    const pack = `${this.tag}-${(this.written++).toString(36)}.pack`;
    const bytes = Buffer.concat([length, header, ...objects.values()]);
    this.writeNew(path.join(this.root, PACK_FOLDER, pack), bytes);
    const base = PACK_LENGTH_BYTES + header.length;
    this.register(
      this.packs(),
      pack,
      index.map(([hash, at, size]) => [hash, base + at, size]),
    );
    if (this.total !== undefined) this.total += bytes.length;
    return bytes.length;
  }

  /** A pack without the objects `gone`: written anew under another name (readers holding the old places find it gone, not changed). */
  private repack(pack: string, gone: ReadonlySet<string>): number {
    const packed = this.packs();
    const members = packed.members.get(pack) ?? [];
    const kept = new Map<string, Buffer>();
    for (const hash of members) {
      if (gone.has(hash)) continue;
      const stored = this.readPacked(hash);
      // An object that cannot be read back is not carried over: a damaged pack shrinks to what is whole.
      if (stored) kept.set(hash, stored);
    }
    const file = path.join(this.root, PACK_FOLDER, pack);
    const before = sizeOf(file);
    const after = kept.size > 0 ? this.writePack(kept) : 0;
    for (const hash of members) if (packed.at.get(hash)?.pack === pack) packed.at.delete(hash);
    packed.members.delete(pack);
    fs.rmSync(file, { force: true });
    if (this.total !== undefined) this.total -= before;
    return before - after;
  }

  private writeNew(file: string, bytes: Uint8Array): void {
    const temporary = `${file}.${this.tag}-${(this.written++).toString(36)}.tmp`;
    try {
      fs.writeFileSync(temporary, bytes, { mode: 0o600 });
    } catch (error) {
      // The folder is made on the first object under it, not checked before each write.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(temporary, bytes, { mode: 0o600 });
    }
    fs.renameSync(temporary, file);
  }

  private removeFile(file: string): number {
    try {
      const { size } = fs.statSync(file);
      fs.unlinkSync(file);
      if (this.total !== undefined) this.total -= size;
      return size;
    } catch {
      return 0;
    }
  }
}

/** An object in a pack: its name, where its compressed bytes start (after the index, then from the file's start) and their length. */
type PackIndexEntry = readonly [string, number, number];

function readPackIndex(file: string): PackIndexEntry[] | undefined {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const length = Buffer.alloc(PACK_LENGTH_BYTES);
      if (fs.readSync(fd, length, 0, PACK_LENGTH_BYTES, 0) !== PACK_LENGTH_BYTES) return undefined;
      const header = Buffer.alloc(length.readUInt32BE(0));
      if (fs.readSync(fd, header, 0, header.length, PACK_LENGTH_BYTES) !== header.length) return undefined;
      const base = PACK_LENGTH_BYTES + header.length;
      const index = JSON.parse(header.toString('utf8')) as unknown;
      if (!Array.isArray(index) || !index.every(isIndexEntry)) return undefined;
      return index.map(([hash, offset, size]) => [hash, base + offset, size]);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // A pack that cannot be read holds nothing this store can use.
    return undefined;
  }
}

function isIndexEntry(entry: unknown): entry is PackIndexEntry {
  return Array.isArray(entry) && entry.length === 3 && typeof entry[0] === 'string' && /^[0-9a-f]{64}$/.test(entry[0]) && Number.isSafeInteger(entry[1]) && Number.isSafeInteger(entry[2]);
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
