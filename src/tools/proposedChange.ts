// "Review Diff" before an approval (issue 11): what Write or Edit would make of a file, computed when
// the approval is asked, so the user can see the whole change in a diff editor before answering.
import * as fs from 'node:fs/promises';
import type { ApprovalContext, ProposedChange } from '../executor/contract';
import { resolveModelPath } from '../executor/paths';
import { decodeText } from './fileText';

/** Files larger than this get no "Review Diff" (the dialog's preview still shows the change). Ours. */
export const PROPOSED_CHANGE_MAX_BYTES = 1024 * 1024;

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
  let before = '';
  let exists = true;
  try {
    const stats = await fs.stat(file);
    if (!stats.isFile() || stats.size > PROPOSED_CHANGE_MAX_BYTES) return undefined;
    before = decodeText(await fs.readFile(file)).text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    exists = false;
  }
  const text = after(before, exists);
  if (text === undefined || Buffer.byteLength(text) > PROPOSED_CHANGE_MAX_BYTES) return undefined;
  return { path: file, before, after: text };
}
