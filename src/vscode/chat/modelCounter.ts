// Our prompt messages as VS Code's, and the model's own counter over them, cached per message: a
// message is counted once per model, so a long conversation costs only its new messages per request.
import * as vscode from 'vscode';
import { fingerprint, type PromptMessage } from './prompt/promptMessages';
import { windowTokens } from './prompt/window';

/** Providers frame each message with role and separator tokens that `countTokens` leaves out; OpenAI documents 3-4. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** The same for each tool definition (its framing in the provider's own format). Ours. */
export const TOOL_OVERHEAD_TOKENS = 8;
/** Counts kept; past this the cache starts over (a count is cheap to ask again). Ours. */
export const MAX_CACHED_COUNTS = 20_000;
/** The window of a model, or the default when it reports none. */
export function windowOf(model: vscode.LanguageModelChat): number {
  return windowTokens(model.maxInputTokens);
}

export function toChatMessages(messages: readonly PromptMessage[]): vscode.LanguageModelChatMessage[] {
  return messages.map(toChatMessage);
}

export function toChatMessage(message: PromptMessage): vscode.LanguageModelChatMessage {
  const parts = message.parts.map((part) => {
    switch (part.kind) {
      case 'text':
        return new vscode.LanguageModelTextPart(part.text);
      case 'call':
        return new vscode.LanguageModelToolCallPart(part.id, part.name, part.input);
      case 'result':
        return new vscode.LanguageModelToolResultPart(part.callId, [new vscode.LanguageModelTextPart(part.text)]);
      case 'data':
        return dataPart(part.mimeType, part.data);
    }
  });
  return message.role === 'assistant'
    ? vscode.LanguageModelChatMessage.Assistant(parts as Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart>)
    : vscode.LanguageModelChatMessage.User(parts as Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart>);
}

/** `LanguageModelDataPart` where this VS Code has it (newer than the API we build against). */
export function dataPartClass(): { image(data: Uint8Array, mimeType: string): unknown } | undefined {
  const found = (vscode as unknown as { LanguageModelDataPart?: { image?: unknown } }).LanguageModelDataPart;
  return found && typeof found.image === 'function' ? (found as { image(data: Uint8Array, mimeType: string): unknown }) : undefined;
}

function dataPart(mimeType: string, data: Uint8Array): vscode.LanguageModelTextPart {
  const DataPart = dataPartClass();
  return (DataPart ? DataPart.image(data, mimeType) : new vscode.LanguageModelTextPart(`[an image (${mimeType}) that could not be sent]`)) as vscode.LanguageModelTextPart;
}

/** Counts with `model.countTokens`, each message once per model. */
export class ModelCounter {
  private readonly counts = new Map<string, number>();

  /** Milliseconds spent in the provider's counter, and how many times it was asked (for the log). */
  providerMs = 0;
  providerCalls = 0;

  async count(model: vscode.LanguageModelChat, message: PromptMessage, token?: vscode.CancellationToken): Promise<number> {
    const key = `${model.vendor}/${model.id}\0${message.key}`;
    const known = this.counts.get(key);
    if (known !== undefined) return known;
    const counted = (await this.ask(model, toChatMessage(message), token)) + MESSAGE_OVERHEAD_TOKENS;
    if (this.counts.size >= MAX_CACHED_COUNTS) this.counts.clear();
    this.counts.set(key, counted);
    return counted;
  }

  /** A text as the one result of a user message (what an incoming tool result becomes); not cached. */
  async countResult(model: vscode.LanguageModelChat, callId: string, text: string, token?: vscode.CancellationToken): Promise<number> {
    return (await this.ask(model, toChatMessage({ role: 'user', parts: [{ kind: 'result', callId, text }], key: '' }), token)) + MESSAGE_OVERHEAD_TOKENS;
  }

  /** The offered tools: names, descriptions and schemas, as providers send them. */
  async countTools(model: vscode.LanguageModelChat, tools: readonly vscode.LanguageModelChatTool[], token?: vscode.CancellationToken): Promise<number> {
    let total = 0;
    for (const tool of tools) {
      const text = JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema ?? {} });
      const key = `${model.vendor}/${model.id}\0t:${tool.name}:${fingerprint(text)}`;
      let counted = this.counts.get(key);
      if (counted === undefined) {
        counted = (await this.ask(model, text, token)) + TOOL_OVERHEAD_TOKENS;
        this.counts.set(key, counted);
      }
      total += counted;
    }
    return total;
  }

  private async ask(model: vscode.LanguageModelChat, input: string | vscode.LanguageModelChatMessage, token?: vscode.CancellationToken): Promise<number> {
    const started = performance.now();
    try {
      return await model.countTokens(input, token);
    } finally {
      this.providerMs += performance.now() - started;
      this.providerCalls++;
    }
  }
}

/** What outlives one request: counts per model and message, and where taken-out results were saved. */
export class ContextMemory {
  readonly counter = new ModelCounter();
  /** Call id → URI of its saved whole result (`null`: saving failed). */
  readonly saved = new Map<string, string | null>();
}
