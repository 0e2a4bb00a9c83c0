// The scripted demo model's view of a conversation, as plain data: what it reads from VS Code's
// request messages and what it answers with. No `vscode` import, so the script is unit-testable.

export type DemoInputPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'toolCall'; readonly callId: string; readonly name: string; readonly input: unknown }
  | { readonly kind: 'toolResult'; readonly callId: string; readonly text: string };

export interface DemoMessage {
  readonly role: 'user' | 'assistant';
  readonly parts: readonly DemoInputPart[];
}

export type DemoOutputPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'toolCall'; readonly callId: string; readonly name: string; readonly input: Readonly<Record<string, unknown>> };

/** The model's next response, or the model error it raises instead. */
export type DemoStep =
  | { readonly kind: 'respond'; readonly parts: readonly DemoOutputPart[] }
  | { readonly kind: 'fail'; readonly reason: 'blocked'; readonly message: string };

/** One user prompt and what has happened since: the state a scripted session continues from. */
export interface DemoTurn {
  /** The text of the latest user prompt ('' when there is none). */
  readonly prompt: string;
  /** 1-based position of that prompt among the user's prompts; keeps call ids unique across turns. */
  readonly index: number;
  /** Tool results given after that prompt, by call id. */
  readonly results: ReadonlyMap<string, string>;
  /** Tool results of the earlier prompts of the conversation, in order (what a follow-up can build on). */
  readonly earlier: ReadonlyArray<{ readonly callId: string; readonly text: string }>;
}

/**
 * Converts one request message. Parts are recognised by shape, not by class: VS Code rebuilds them
 * in the extension host and newer versions add variants (`LanguageModelToolResultPart2`, ...).
 */
export function toDemoMessage(isAssistant: boolean, content: readonly unknown[]): DemoMessage {
  return { role: isAssistant ? 'assistant' : 'user', parts: content.flatMap(toDemoPart) };
}

function toDemoPart(part: unknown): DemoInputPart[] {
  if (part === null || typeof part !== 'object') return [];
  const shape = part as { value?: unknown; callId?: unknown; name?: unknown; input?: unknown; content?: unknown };
  if (typeof shape.callId === 'string' && Array.isArray(shape.content)) {
    return [{ kind: 'toolResult', callId: shape.callId, text: shape.content.map(textOf).join('') }];
  }
  if (typeof shape.callId === 'string' && typeof shape.name === 'string') {
    return [{ kind: 'toolCall', callId: shape.callId, name: shape.name, input: shape.input }];
  }
  if (typeof shape.value === 'string') return [{ kind: 'text', text: shape.value }];
  return [];
}

function textOf(part: unknown): string {
  const value = part !== null && typeof part === 'object' ? (part as { value?: unknown }).value : undefined;
  return typeof value === 'string' ? value : '';
}

/**
 * The latest user prompt and the tool results after it. A prompt is a user message with text and
 * no tool results (results travel in user messages too), so a follow-up prompt starts a new turn.
 */
export function currentTurn(messages: readonly DemoMessage[]): DemoTurn {
  let prompt = '';
  let index = 0;
  let results = new Map<string, string>();
  const earlier: Array<{ callId: string; text: string }> = [];
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const texts = message.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : []));
    const hasResults = message.parts.some((part) => part.kind === 'toolResult');
    if (texts.length > 0 && !hasResults) {
      prompt = texts.join('\n');
      index += 1;
      earlier.push(...[...results].map(([callId, text]) => ({ callId, text })));
      results = new Map();
      continue;
    }
    for (const part of message.parts) {
      if (part.kind === 'toolResult') results.set(part.callId, part.text);
    }
  }
  return { prompt, index, results, earlier };
}

/** Characters of model input or output text per token: the usual rough estimate for English and code. */
export const CHARS_PER_TOKEN = 4;

/** A tokenizer-free estimate of the tokens a message or text takes. */
export function estimateTokens(input: string | DemoMessage): number {
  const text = typeof input === 'string' ? input : input.parts.map(partText).join('');
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function partText(part: DemoInputPart): string {
  switch (part.kind) {
    case 'text':
    case 'toolResult':
      return part.text;
    case 'toolCall':
      return part.name + JSON.stringify(part.input ?? {});
  }
}
