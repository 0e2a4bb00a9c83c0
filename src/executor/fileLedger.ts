// The session's read-before-write ledger: what the model last saw of each file.
import type { FileStamp, FileStateLedger } from './contract/contract';

export class InMemoryFileLedger implements FileStateLedger {
  private readonly stamps = new Map<string, FileStamp>();

  record(absolutePath: string, stamp: FileStamp): void {
    this.stamps.set(absolutePath, { mtimeMs: stamp.mtimeMs, size: stamp.size });
  }

  get(absolutePath: string): FileStamp | undefined {
    return this.stamps.get(absolutePath);
  }

  forget(absolutePath: string): void {
    this.stamps.delete(absolutePath);
  }

  get size(): number {
    return this.stamps.size;
  }
}
