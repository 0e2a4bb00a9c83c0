// The chat's messages and tools as the wire formats' neutral ones (src/models/types.ts), and their
// size in characters for the token estimate.
import * as vscode from 'vscode';
import type { ChatMessage, ChatPart, ChatTool } from '../../models';

const TEXT_MIME = /^(text\/|application\/(json|xml|[\w.+-]*\+(json|xml))$)/;

/** `imageInput`: images go along only to a model declared to take them; otherwise a line says one was left out. */
export function toChatMessages(messages: readonly vscode.LanguageModelChatRequestMessage[], imageInput: boolean): ChatMessage[] {
  return messages.map((message) => ({ role: roleOf(message.role), parts: message.content.flatMap((part) => partsOf(part, imageInput)) }));
}

export function toChatTools(tools: readonly vscode.LanguageModelChatTool[] | undefined): ChatTool[] {
  return (tools ?? []).map((tool) => ({ name: tool.name, description: tool.description, ...(tool.inputSchema ? { inputSchema: tool.inputSchema } : {}) }));
}

/** The characters of a message or text, as the token estimate counts them. */
export function charsOf(text: string | vscode.LanguageModelChatRequestMessage): number {
  if (typeof text === 'string') return text.length;
  return toChatMessages([text], false)[0].parts.reduce((sum, part) => sum + partChars(part), 0);
}

export function partChars(part: ChatPart): number {
  switch (part.kind) {
    case 'text':
      return part.text.length;
    case 'toolResult':
      return part.text.length;
    case 'toolCall':
      return part.name.length + JSON.stringify(part.input).length;
    case 'image':
      return part.base64.length;
  }
}

function roleOf(role: vscode.LanguageModelChatMessageRole): ChatMessage['role'] {
  if (role === vscode.LanguageModelChatMessageRole.Assistant) return 'assistant';
  if (role === vscode.LanguageModelChatMessageRole.User) return 'user';
  // The System role (a proposed API VS Code itself uses) is the only other one.
  return 'system';
}

function partsOf(part: unknown, imageInput: boolean): ChatPart[] {
  if (part instanceof vscode.LanguageModelTextPart) return [{ kind: 'text', text: part.value }];
  if (part instanceof vscode.LanguageModelToolCallPart) return [{ kind: 'toolCall', callId: part.callId, name: part.name, input: part.input }];
  if (part instanceof vscode.LanguageModelToolResultPart) return [{ kind: 'toolResult', callId: part.callId, text: part.content.map(resultText).join('\n') }];
  if (isDataPart(part)) {
    if (part.mimeType.startsWith('image/')) {
      return imageInput ? [{ kind: 'image', mimeType: part.mimeType, base64: Buffer.from(part.data).toString('base64') }] : [{ kind: 'text', text: `[an image (${part.mimeType}) left out: this model is not set to take images]` }];
    }
    // Cache hints and other control data VS Code attaches are not for the model.
    return TEXT_MIME.test(part.mimeType) ? [{ kind: 'text', text: new TextDecoder().decode(part.data) }] : [];
  }
  return [];
}

function resultText(part: unknown): string {
  if (part instanceof vscode.LanguageModelTextPart) return part.value;
  if (part instanceof vscode.LanguageModelPromptTsxPart) return JSON.stringify(part.value);
  if (isDataPart(part)) return TEXT_MIME.test(part.mimeType) ? new TextDecoder().decode(part.data) : `[${part.mimeType} data, ${part.data.byteLength} bytes, not sent]`;
  return '';
}

function isDataPart(part: unknown): part is { mimeType: string; data: Uint8Array } {
  if (part === null || typeof part !== 'object') return false;
  const candidate = part as { mimeType?: unknown; data?: unknown };
  return typeof candidate.mimeType === 'string' && candidate.data instanceof Uint8Array;
}
