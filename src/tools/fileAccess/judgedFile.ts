// The one way the file tools open a path: the file opened is the file the permission policy judged.
// A process in the workspace can swap a name for a symlink between the check and the open, so a tool
// opens the judged real location (every component a real folder when judged) without following a
// link at its end, then asks the kernel which file the descriptor is and refuses when that is not the
// judged location. A new file is created inside its folder's verified descriptor, never through a name.
import { closeSync, constants, fstatSync, lstatSync, open as openCallback, openSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { ToolContext } from '../../executor/contract/contract';

/** 0 where the platform has no such flag (Windows): there the descriptor check below is all there is. */
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
/** Reading: no link followed at the end, no wait on a FIFO put in the file's place. */
const READ_FLAGS = constants.O_RDONLY | O_NOFOLLOW | constants.O_NONBLOCK;
/** Changing a file in place: read first, then truncated and written through the same descriptor. */
const UPDATE_FLAGS = constants.O_RDWR | O_NOFOLLOW | constants.O_NONBLOCK;
/** Creating: only a new regular file, never through a (dangling) link. */
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;
const FOLDER_FLAGS = constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
/** Where Linux names what a descriptor is open on; a path below it is looked up inside that folder. */
const DESCRIPTOR_LINKS = '/proc/self/fd';

/** The code a refusal carries, so `withFsErrors` turns it into `cannot ACTION FILE: …` like any other. */
export const PATH_CHANGED = 'EPATHCHANGED';

/** The file at a path changed between its permission check and its open: nothing was read or written. */
export class PathChangedError extends Error {
  readonly code = PATH_CHANGED;
  constructor(judged: string, found: string) {
    super(
      `${judged} changed between its permission check and its open (${found}), as when a symbolic link is swapped in; ` +
        'nothing was read or written. Try again once nothing is changing it.',
    );
  }
}

let descriptorLinks: boolean | undefined;

/** Whether `/proc/self/fd` names what a descriptor is open on (Linux); elsewhere the weaker check applies. */
function hasDescriptorLinks(): boolean {
  if (descriptorLinks === undefined) {
    try {
      descriptorLinks = process.platform === 'linux' && statSync(DESCRIPTOR_LINKS).isDirectory();
    } catch {
      descriptorLinks = false;
    }
  }
  return descriptorLinks;
}

/**
 * Where the call's path `raw` was judged to be: its first real reading (`realLocation` of the path the
 * tools resolve), the permission stage's own when it made one. Undefined when it names no file.
 */
export async function judgedLocation(raw: string, ctx: Pick<ToolContext, 'judgePath'>): Promise<string | undefined> {
  const judged = await ctx.judgePath(raw);
  return judged.kind === 'file' ? judged.path.real[0] : undefined;
}

/**
 * Throws `PathChangedError` unless descriptor `fd` is open on `expected` (a real path). On Linux the
 * kernel says which file it is; elsewhere the descriptor must be the file now at `expected`, and
 * `expected` must still have no link in it (narrower, since both are looked up again).
 */
export function verifyOpened(fd: number, expected: string): void {
  if (hasDescriptorLinks()) {
    const found = readlinkSync(`${DESCRIPTOR_LINKS}/${fd}`);
    if (found !== expected) throw new PathChangedError(expected, `it is now ${found}`);
    return;
  }
  let same = false;
  try {
    const opened = fstatSync(fd);
    const now = statSync(expected);
    same = opened.dev === now.dev && opened.ino === now.ino && realpathSync.native(expected) === expected;
  } catch {
    same = false;
  }
  if (!same) throw new PathChangedError(expected, 'the file opened is not the one at that path');
}

/** Opens `real` for reading, synchronously (local file systems only); verified. */
export function openForReadSync(real: string): number {
  let fd: number;
  try {
    fd = openSync(real, READ_FLAGS);
  } catch (error) {
    throw linkError(error, real);
  }
  return verifiedOrClosed(fd, real);
}

/** Opens `real` for reading; verified. */
export function openForRead(real: string): Promise<number> {
  return new Promise((resolve, reject) =>
    openCallback(real, READ_FLAGS, (error, fd) => {
      if (error) return reject(linkError(error, real));
      try {
        resolve(verifiedOrClosed(fd, real));
      } catch (failure) {
        reject(failure);
      }
    }),
  );
}

/** Opens the existing file at `real` to read and then rewrite it; undefined when there is none. Verified. */
export async function openForUpdate(real: string): Promise<fs.FileHandle | undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(real, UPDATE_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw linkError(error, real);
  }
  await verifiedHandle(handle, real);
  return handle;
}

/**
 * Creates the new file `real`, and its missing folders, each inside the verified descriptor of the
 * folder above it: a link swapped in anywhere is refused, never followed. Fails with EEXIST when
 * something is at `real` already.
 */
export async function createNew(real: string): Promise<fs.FileHandle> {
  if (!hasDescriptorLinks()) {
    // No descriptor to create in: the folder is made and checked by name (Known limits in RELIABILITY.md).
    await fs.mkdir(path.dirname(real), { recursive: true });
    const folder = await fs.realpath(path.dirname(real));
    if (folder !== path.dirname(real)) throw new PathChangedError(path.dirname(real), `it is now ${folder}`);
    return verifiedHandle(await fs.open(real, CREATE_FLAGS).catch((error) => Promise.reject(linkError(error, real))), real);
  }
  const folder = await openFolder(path.dirname(real));
  try {
    const handle = await fs.open(inFolder(folder, real), CREATE_FLAGS).catch((error) => Promise.reject(named(linkError(error, real, inFolder(folder, real)), folder, real)));
    return await verifiedHandle(handle, real);
  } finally {
    await folder.close();
  }
}

/** Writes all of `bytes` at the start of the open file, after cutting it to nothing unless it is new. */
export async function rewrite(handle: fs.FileHandle, bytes: Uint8Array, isNew: boolean): Promise<void> {
  if (!isNew) await handle.truncate(0);
  for (let written = 0; written < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, written);
    written += bytesWritten;
  }
}

/** `real`'s name inside the open folder `folder`: looked up in that very folder, whatever its path names now. */
function inFolder(folder: fs.FileHandle, real: string): string {
  return `${DESCRIPTOR_LINKS}/${folder.fd}/${path.basename(real)}`;
}

/** An error about a name inside `folder` as the model should read it: the real path, not the descriptor's. */
function named(error: unknown, folder: fs.FileHandle, real: string): unknown {
  if (error instanceof Error && !(error instanceof PathChangedError)) error.message = error.message.split(inFolder(folder, real)).join(real);
  return error;
}

/** The folder `real` opened and verified, created (inside its verified parent) when missing. */
async function openFolder(real: string): Promise<fs.FileHandle> {
  try {
    return await verifiedHandle(await fs.open(real, FOLDER_FLAGS), real);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || path.dirname(real) === real) throw linkError(error, real);
  }
  const parent = await openFolder(path.dirname(real));
  const inParent = inFolder(parent, real);
  try {
    await fs.mkdir(inParent).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw named(error, parent, real);
    });
    return await verifiedHandle(await fs.open(inParent, FOLDER_FLAGS).catch((error) => Promise.reject(named(linkError(error, real, inParent), parent, real))), real);
  } finally {
    await parent.close();
  }
}

async function verifiedHandle(handle: fs.FileHandle, real: string): Promise<fs.FileHandle> {
  try {
    verifyOpened(handle.fd, real);
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

function verifiedOrClosed(fd: number, real: string): number {
  try {
    verifyOpened(fd, real);
    return fd;
  } catch (error) {
    closeQuietly(fd);
    throw error;
  }
}

/**
 * ELOOP from an `O_NOFOLLOW` open (EMLINK on the BSDs), ENOTDIR from a folder's, EEXIST from a create's
 * where a link stands at `opened`: a link now stands where the policy judged a file or folder that was
 * none, the same refusal as a descriptor on another file.
 */
function linkError(error: unknown, real: string, opened = real): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ELOOP' || code === 'EMLINK' || ((code === 'ENOTDIR' || code === 'EEXIST') && isLink(opened))) {
    return new PathChangedError(real, 'a symbolic link now stands there');
  }
  return error;
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** close(2) frees the descriptor even when it reports an error. */
export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Freed all the same.
  }
}
