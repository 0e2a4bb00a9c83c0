// What the user attached to an `@executor` prompt (`request.references`), as the attachments an ACP prompt
// carries (src/acp/mapping.ts `promptContent` makes the blocks): files and ranges, folders, images, plain
// values. A file's embedded text is read by our Read as one of the session's requests — the owner of
// redaction and the ignore files for `@executor`'s own attachments too (src/vscode/chat/attachments.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PromptAttachment } from '../../acp/mapping';
import type { Redactor } from '../../executor';
import { isBinaryData, MAX_ATTACHED_VALUE_CHARS } from '../chat/attachments';

/** The references as attachments; a plain value is redacted and cut as the built-in loop's. */
export async function promptAttachments(request: vscode.ChatRequest, redactor: Redactor): Promise<PromptAttachment[]> {
  const attachments: PromptAttachment[] = [];
  for (const reference of request.references ?? []) {
    const value = reference.value;
    if (value instanceof vscode.Uri) {
      if (value.scheme !== 'file') continue;
      const isFolder = await vscode.workspace.fs.stat(value).then((stat) => (stat.type & vscode.FileType.Directory) !== 0, () => false);
      const name = path.basename(value.fsPath);
      attachments.push(isFolder ? { kind: 'folder', uri: value.toString(), name } : { kind: 'file', uri: value.toString(), path: value.fsPath, name });
    } else if (value instanceof vscode.Location) {
      if (value.uri.scheme !== 'file') continue;
      attachments.push({ kind: 'file', uri: value.uri.toString(), path: value.uri.fsPath, name: path.basename(value.uri.fsPath), lines: { first: value.range.start.line + 1, last: value.range.end.line + 1 } });
    } else if (isBinaryData(value)) {
      if (value.mimeType.startsWith('image/')) attachments.push({ kind: 'image', mimeType: value.mimeType, name: reference.modelDescription ?? reference.id, data: await value.data() });
    } else if (typeof value === 'string') {
      attachments.push({ kind: 'text', text: redactor.redact(value).slice(0, MAX_ATTACHED_VALUE_CHARS) });
    }
  }
  return attachments;
}
