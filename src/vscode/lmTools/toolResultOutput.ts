// A `vscode.LanguageModelToolResult` from another tool as our handler's output: text parts as text,
// images as media parts (stored as artifacts), anything else described in a line. The executor then
// redacts, budgets and saves large output like any tool's.
import * as vscode from 'vscode';
import type { MediaPart, ToolOutput } from '../../executor/contract/contract';

const TEXT_MIME = /^(text\/|application\/(json|xml|[\w.+-]*\+(json|xml))$)/;

export function toolOutputOf(result: vscode.LanguageModelToolResult): ToolOutput {
  const texts: string[] = [];
  const media: MediaPart[] = [];
  for (const part of result.content ?? []) {
    if (part instanceof vscode.LanguageModelTextPart) {
      texts.push(part.value);
    } else if (part instanceof vscode.LanguageModelPromptTsxPart) {
      texts.push(JSON.stringify(part.value));
    } else if (isDataPart(part)) {
      // LanguageModelDataPart (not in the 1.104 typings we build against).
      if (part.mimeType.startsWith('image/')) media.push({ kind: 'image', mimeType: part.mimeType, data: part.data });
      else if (TEXT_MIME.test(part.mimeType)) texts.push(new TextDecoder().decode(part.data));
      else texts.push(`[${part.mimeType} data, ${part.data.byteLength} bytes, not shown]`);
    } else {
      texts.push('[a result part of a kind this extension does not know, not shown]');
    }
  }
  return media.length > 0 ? { content: texts.join('\n'), media } : { content: texts.join('\n') };
}

function isDataPart(part: unknown): part is { mimeType: string; data: Uint8Array } {
  if (part === null || typeof part !== 'object') return false;
  const candidate = part as { mimeType?: unknown; data?: unknown };
  return typeof candidate.mimeType === 'string' && candidate.data instanceof Uint8Array;
}
