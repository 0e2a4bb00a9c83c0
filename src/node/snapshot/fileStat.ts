// A regular file's size and mtime, as the workspace walk (./walk.ts) and the git control files it keeps
// (./gitControl.ts) record them.
import { lstatSync } from 'node:fs';
import { lstat } from 'node:fs/promises';

export interface FileStat {
  readonly size: number;
  readonly mtimeMs: number;
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
