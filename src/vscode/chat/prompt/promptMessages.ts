// The request to a model as plain data: no `vscode` here, so prompt assembly and the context budget
// are unit-tested directly. The chat adapter turns these into `LanguageModelChatMessage`s.

export type PromptPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'call'; readonly id: string; readonly name: string; readonly input: object }
  | { readonly kind: 'result'; readonly callId: string; readonly text: string }
  | { readonly kind: 'data'; readonly mimeType: string; readonly data: Uint8Array };

export interface PromptMessage {
  readonly role: 'user' | 'assistant';
  readonly parts: readonly PromptPart[];
  /** Names this message's content for the token-count cache: equal keys, equal content. */
  readonly key: string;
}

/** A user message of one text. */
export function userText(text: string, key = `u:${fingerprint(text)}`): PromptMessage {
  return { role: 'user', parts: [{ kind: 'text', text }], key };
}

/** All the text a message carries (for counters that count characters, and for tests). */
export function messageText(message: PromptMessage): string {
  let text = '';
  for (const part of message.parts) {
    if (part.kind === 'text') text += part.text;
    else if (part.kind === 'result') text += part.text;
    else if (part.kind === 'call') text += part.name + JSON.stringify(part.input);
  }
  return text;
}

/**
 * A short fingerprint of a text for cache keys: its length and a 32-bit FNV-1a hash. Only for texts
 * without an identity of their own (prompts, the model's words); tool results are keyed by call id.
 */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return `${text.length}.${(hash >>> 0).toString(36)}`;
}
