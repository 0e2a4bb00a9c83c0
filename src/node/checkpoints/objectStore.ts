// Content-addressed objects for checkpoints: file bytes and folder listings, named by their SHA-256,
// so a file or folder that did not change between two checkpoints is stored once.
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** The digest that names an object (of its bytes before compression). */
export const OBJECT_HASH = 'sha256';
/** zlib's fastest level: source text and folder listings shrink several times, at little cost over reading them. */
const COMPRESSION_LEVEL = 1;

export function hashBytes(bytes: Uint8Array): string {
  return createHash(OBJECT_HASH).update(bytes).digest('hex');
}

export class ObjectStore {
  /** The bytes all objects take, counted once and then kept up to date. */
  private total: number | undefined;
  /** Names this store's temporary files apart from another process's writing the same object. */
  private readonly tag = randomBytes(6).toString('hex');
  private temporaries = 0;

  constructor(readonly root: string) {}

  pathOf(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`not an object name: ${hash}`);
    return path.join(this.root, hash.slice(0, 2), hash.slice(2));
  }

  has(hash: string): boolean {
    return fs.existsSync(this.pathOf(hash));
  }

  /** Stores the bytes under their hash; written beside and renamed, so a crash never leaves half an object. */
  put(bytes: Uint8Array): string {
    const hash = hashBytes(bytes);
    const file = this.pathOf(hash);
    if (fs.existsSync(file)) return hash;
    const temporary = `${file}.${this.tag}-${(this.temporaries++).toString(36)}.tmp`;
    const stored = deflateRawSync(bytes, { level: COMPRESSION_LEVEL });
    try {
      fs.writeFileSync(temporary, stored, { mode: 0o600 });
    } catch (error) {
      // The prefix folder is made on the first object under it, not checked before each write.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(temporary, stored, { mode: 0o600 });
    }
    fs.renameSync(temporary, file);
    if (this.total !== undefined) this.total += stored.length;
    return hash;
  }

  get(hash: string): Buffer {
    const bytes = inflateRawSync(fs.readFileSync(this.pathOf(hash)));
    if (hashBytes(bytes) !== hash) throw new Error(`checkpoint object ${hash.slice(0, 12)} is damaged`);
    return bytes;
  }

  /** Forgets the counted size (the objects were removed from outside). */
  forget(): void {
    this.total = undefined;
  }

  /** Every stored object's name. */
  *names(): Generator<string> {
    let prefixes: string[];
    try {
      prefixes = fs.readdirSync(this.root);
    } catch {
      return;
    }
    for (const prefix of prefixes) {
      if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
      for (const rest of fs.readdirSync(path.join(this.root, prefix))) {
        if (/^[0-9a-f]{62}$/.test(rest)) yield prefix + rest;
      }
    }
  }

  /** Removes the object and returns the bytes it freed. */
  remove(hash: string): number {
    const file = this.pathOf(hash);
    try {
      const { size } = fs.statSync(file);
      fs.unlinkSync(file);
      if (this.total !== undefined) this.total -= size;
      return size;
    } catch {
      return 0;
    }
  }

  /** The bytes all objects take. */
  size(): number {
    if (this.total !== undefined) return this.total;
    let total = 0;
    for (const name of this.names()) {
      try {
        total += fs.statSync(this.pathOf(name)).size;
      } catch {
        // removed meanwhile
      }
    }
    this.total = total;
    return total;
  }
}
