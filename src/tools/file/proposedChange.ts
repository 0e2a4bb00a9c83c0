// "Review Diff" before an approval: what Write or Edit would make of a file, computed when
// the approval is asked, so the user can see the whole change in a diff editor before answering.
import { fstat, read } from 'node:fs';
import { promisify } from 'node:util';
import type { ApprovalContext, ProposedChange } from '../../executor';
import { resolveModelPath } from '../../executor';
import { realLocation } from '../../executor';
import { closeQuietly, openForRead } from '../fileAccess/judgedFile';
import { decodeText } from '../fileAccess/fileText';

/** Files larger than this get no "Review Diff" (the dialog's preview still shows the change). Ours. */
export const PROPOSED_CHANGE_MAX_BYTES = 1024 * 1024;

const fstatAsync = promisify(fstat);
const readAsync = promisify(read);

/**
 * The change `after(before)` would make to the file the model named; undefined when there is nothing
 * to show (not a file, too large, unreadable, or `after` says the call would fail).
 */
export async function proposedChange(
  rawPath: string,
  context: ApprovalContext | undefined,
  after: (before: string, exists: boolean) => string | undefined,
): Promise<ProposedChange | undefined> {
  const resolved = resolveModelPath(rawPath, context?.workspaceFolders ?? []);
  if (!resolved.ok || resolved.kind !== 'file') return undefined;
  const file = resolved.absolute;
  // The file the handler will change: the judged one, opened as the tools open it (src/tools/fileAccess/judgedFile.ts).
  const judged = context?.judgePath ? await context.judgePath(rawPath) : undefined;
  const real = judged?.kind === 'file' ? judged.path.real[0] : await realLocation(file);
  if (real === undefined) return undefined;
  let before = '';
  let exists = true;
  let fd: number | undefined;
  try {
    fd = await openForRead(real);
    const stats = await fstatAsync(fd);
    if (!stats.isFile() || stats.size > PROPOSED_CHANGE_MAX_BYTES) return undefined;
    const bytes = Buffer.alloc(stats.size);
    const { bytesRead } = await readAsync(fd, bytes, 0, stats.size, 0);
    before = decodeText(bytes.subarray(0, bytesRead)).text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    exists = false;
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
  const text = after(before, exists);
  if (text === undefined || Buffer.byteLength(text) > PROPOSED_CHANGE_MAX_BYTES) return undefined;
  return { path: file, before, after: text };
}
