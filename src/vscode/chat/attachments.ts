// What the user attached in the chat input (`request.references`), as parts of the prompt. Files,
// ranges and folders go through the executor as Read and Glob calls, the same path as the model's
// own: redaction, ignore files (an ignored attachment is not sent, and the reply says so), the
// sensitive-file approval, the result budget. Plain values are redacted here; images go as images
// when the model takes them.
import * as vscode from 'vscode';
import type { ToolCall } from '../../executor';
import { oneLine } from './replyText';
import type { ChatHost } from './chatHost';
import type { PromptPart } from './prompt/promptMessages';
import { dataPartClass } from './modelCounter';
import { ReplyRenderer } from './replyRenderer';

/** A plain value attached (a selection's text, a variable) is cut here. Ours. */
export const MAX_ATTACHED_VALUE_CHARS = 20_000;
/** An ignored or failed attachment's reason in the reply is cut here. Ours. */
export const ATTACHMENT_REASON_MAX_CHARS = 200;

export interface Attachments {
  /** What goes into the prompt message, after the user's words. */
  readonly parts: readonly PromptPart[];
  /** One line per attachment that was not sent, for the reply. */
  readonly notSent: readonly string[];
}

interface Planned {
  readonly label: string;
  readonly call: ToolCall;
}

/** The files and folders attached, by absolute path (before they are read). */
export function attachedPaths(request: vscode.ChatRequest): string[] {
  return (request.references ?? []).flatMap((reference) => {
    const value = reference.value;
    if (value instanceof vscode.Uri) return value.scheme === 'file' ? [value.fsPath] : [];
    return value instanceof vscode.Location ? [value.uri.fsPath] : [];
  });
}

/** `given`: files the instructions carry already (VS Code attaches AGENTS.md and the like itself): not read again. */
export async function readAttachments(host: ChatHost, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, signal: AbortSignal, given: ReadonlySet<string> = new Set()): Promise<Attachments> {
  const parts: PromptPart[] = [];
  const notSent: string[] = [];
  const planned: Planned[] = [];
  const takesImages = modelTakesImages(request.model);
  for (const [index, reference] of (request.references ?? []).entries()) {
    const value = reference.value;
    const id = `attachment-${Date.now().toString(36)}-${index}`;
    if ((value instanceof vscode.Uri && given.has(value.fsPath)) || (value instanceof vscode.Location && given.has(value.uri.fsPath))) continue;
    if (value instanceof vscode.Uri) {
      if (value.scheme !== 'file') {
        notSent.push(`${value.toString()}: only files on this machine can be attached`);
        continue;
      }
      const isFolder = await vscode.workspace.fs.stat(value).then((stat) => (stat.type & vscode.FileType.Directory) !== 0, () => false);
      planned.push(isFolder ? { label: `folder ${value.fsPath}`, call: { id, name: 'Glob', input: { pattern: '**/*', path: value.fsPath } } } : { label: value.fsPath, call: { id, name: 'Read', input: { path: value.fsPath } } });
    } else if (value instanceof vscode.Location) {
      const first = value.range.start.line + 1;
      const lines = value.range.end.line - value.range.start.line + 1;
      planned.push({ label: `${value.uri.fsPath}, lines ${first}-${first + lines - 1}`, call: { id, name: 'Read', input: { path: value.uri.fsPath, offset: first, limit: lines } } });
    } else if (isBinaryData(value)) {
      if (!takesImages || !value.mimeType.startsWith('image/') || !dataPartClass()) {
        notSent.push(`an image (${value.mimeType}): ${request.model.name} does not take images here, so it was not sent`);
        continue;
      }
      parts.push({ kind: 'text', text: `\n\nAttached image (${reference.modelDescription ?? reference.id}):` }, { kind: 'data', mimeType: value.mimeType, data: await value.data() });
    } else if (typeof value === 'string') {
      const text = host.redactor.redact(value);
      parts.push({ kind: 'text', text: `\n\n<attachment name="${reference.modelDescription ?? reference.id}">\n${text.length > MAX_ATTACHED_VALUE_CHARS ? `${text.slice(0, MAX_ATTACHED_VALUE_CHARS)}\n[… cut here]` : text}\n</attachment>` });
    }
  }
  if (planned.length > 0) {
    const results = await runAttachmentCalls(host, request, stream, signal, planned);
    planned.forEach((item, index) => {
      const result = results[index];
      if (!result || result.isError) {
        notSent.push(`${item.label}: ${oneLine(result?.failure?.message ?? result?.modelContent ?? 'not read', ATTACHMENT_REASON_MAX_CHARS)}`);
        return;
      }
      parts.push({ kind: 'text', text: `\n\n<attachment ${item.call.name === 'Glob' ? 'folder' : 'file'}="${item.label}">\n${result.modelContent}\n</attachment>` });
    });
  }
  return { parts, notSent };
}

/** The calls run as one turn, shown in the reply like the model's. */
async function runAttachmentCalls(host: ChatHost, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, signal: AbortSignal, planned: readonly Planned[]) {
  const turn = host.executor.beginTurn({ signal, offeredTools: new Set(['Read', 'Glob']), label: '@executor attachments' });
  const renderer = new ReplyRenderer(stream, turn, { redactor: host.redactor, diffLinks: host.diffLinks, workspaceFolders: () => host.workspaceFolders() });
  try {
    for (const { call } of planned) {
      renderer.expect(call.id, call.name, call.input);
      turn.offer(call);
    }
    turn.end();
    const results = await turn.results();
    return planned.map(({ call }) => results.find((result) => result.callId === call.id));
  } finally {
    renderer.dispose();
  }
}

/** `ChatReferenceBinaryData` (not in the API we build against): found by shape. */
export function isBinaryData(value: unknown): value is { readonly mimeType: string; data(): Thenable<Uint8Array> } {
  return typeof value === 'object' && value !== null && typeof (value as { mimeType?: unknown }).mimeType === 'string' && typeof (value as { data?: unknown }).data === 'function';
}

/** Newer VS Code tells whether a model takes images (`capabilities.supportsImageToText`). */
export function modelTakesImages(model: vscode.LanguageModelChat): boolean {
  return (model as { capabilities?: { supportsImageToText?: boolean } }).capabilities?.supportsImageToText === true;
}

/** Whether the model can call tools: false only when VS Code says so. */
export function modelCallsTools(model: vscode.LanguageModelChat): boolean {
  return (model as { capabilities?: { supportsToolCalling?: boolean } }).capabilities?.supportsToolCalling !== false;
}
