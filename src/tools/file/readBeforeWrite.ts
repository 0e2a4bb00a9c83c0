// The read-before-write check of Write and Edit: an existing file may be changed only if the model read it
// in this session and it has not changed since. What they write becomes the new baseline.
import type { FileStateLedger } from '../../executor/contract/contract';

export interface CurrentStamp {
  readonly mtimeMs: number;
  readonly size: number;
}

/** Undefined when the write may go ahead; otherwise the message that tells the model to Read first. */
export function readBeforeWriteError(file: string, current: CurrentStamp, ledger: FileStateLedger): string | undefined {
  const seen = ledger.get(file);
  if (!seen) return `${file} has not been read in this session. Read it first, then write to it.`;
  if (seen.mtimeMs !== current.mtimeMs || seen.size !== current.size) {
    return `${file} has changed since it was last read (by the user, a formatter or another tool). Read it again, then write to it.`;
  }
  return undefined;
}

/** Records the file as written (`stats` of its descriptor after the write), so the next Edit or Write of it needs no new Read. */
export function recordWritten(file: string, stats: CurrentStamp, ledger: FileStateLedger): void {
  ledger.record(file, { mtimeMs: stats.mtimeMs, size: stats.size });
}
