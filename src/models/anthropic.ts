// Anthropic's Messages format (POST {baseUrl}/messages with `stream: true`). The stream is typed events:
// `message_start` (input tokens), `content_block_start` (a text block, or a tool_use block with its id
// and name), `content_block_delta` (`text_delta`, or `input_json_delta` pieces of the tool's input as
// JSON text), `content_block_stop`, `message_delta` (output tokens), `message_stop`; `ping` between
// them, and `error` when the answer fails after it started.
import { badResponse, streamError, type ErrorContext } from './errors';
import type { SseEvent } from './sse';
import type { ChatEvent, ChatMessage, ChatPart, ChatRequest } from './types';

export const ANTHROPIC_MESSAGES_PATH = '/messages';
export const ANTHROPIC_MODELS_PATH = '/models';
/** The API version every request names (Anthropic's only stable one). */
export const ANTHROPIC_VERSION = '2023-06-01';

export function anthropicHeaders(apiKey: string | undefined): Record<string, string> {
  return { 'anthropic-version': ANTHROPIC_VERSION, ...(apiKey ? { 'x-api-key': apiKey } : {}) };
}

/** The request body: system text apart, user and assistant turns alternating (neighbours of one role merged). */
export function anthropicBody(request: ChatRequest): Record<string, unknown> {
  const system = request.messages
    .filter((message) => message.role === 'system')
    .flatMap((message) => message.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])))
    .join('\n\n');
  const turns: { role: 'user' | 'assistant'; content: Record<string, unknown>[] }[] = [];
  for (const message of request.messages) {
    if (message.role === 'system') continue;
    const content = blocks(message);
    if (content.length === 0) continue;
    const last = turns[turns.length - 1];
    if (last?.role === message.role) last.content.push(...content);
    else turns.push({ role: message.role, content });
  }
  return {
    model: request.model,
    max_tokens: request.maxOutputTokens,
    ...(system ? { system } : {}),
    messages: turns,
    stream: true,
    ...(request.tools.length > 0
      ? {
          tools: request.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema ?? { type: 'object', properties: {} } })),
          tool_choice: { type: request.toolMode === 'required' ? 'any' : 'auto' },
        }
      : {}),
  };
}

/** A message's parts as content blocks; tool results first, as the format wants them after a tool use. */
function blocks(message: ChatMessage): Record<string, unknown>[] {
  const block = (part: ChatPart): Record<string, unknown>[] => {
    switch (part.kind) {
      // The format refuses empty text blocks.
      case 'text':
        return part.text === '' ? [] : [{ type: 'text', text: part.text }];
      case 'image':
        return [{ type: 'image', source: { type: 'base64', media_type: part.mimeType, data: part.base64 } }];
      case 'toolCall':
        return [{ type: 'tool_use', id: part.callId, name: part.name, input: part.input }];
      case 'toolResult':
        return [{ type: 'tool_result', tool_use_id: part.callId, content: part.text, ...(part.isError ? { is_error: true } : {}) }];
    }
  };
  const results = message.parts.filter((part) => part.kind === 'toolResult').flatMap(block);
  return [...results, ...message.parts.filter((part) => part.kind !== 'toolResult').flatMap(block)];
}

interface AnthropicEvent {
  readonly type?: unknown;
  readonly index?: unknown;
  readonly message?: { readonly usage?: { readonly input_tokens?: unknown; readonly output_tokens?: unknown; readonly cache_read_input_tokens?: unknown; readonly cache_creation_input_tokens?: unknown } };
  readonly content_block?: { readonly type?: unknown; readonly id?: unknown; readonly name?: unknown; readonly text?: unknown };
  readonly delta?: { readonly type?: unknown; readonly text?: unknown; readonly partial_json?: unknown };
  readonly usage?: { readonly output_tokens?: unknown };
  readonly error?: { readonly type?: unknown; readonly message?: unknown };
}

/** The events of an Anthropic stream. Throws a ModelError for an `error` event, a tool input that is not JSON, or a stream cut before `message_stop`. */
export async function* anthropicEvents(events: AsyncIterable<SseEvent>, context: ErrorContext): AsyncGenerator<ChatEvent> {
  const tools = new Map<number, { id: string; name: string; json: string }>();
  let inputTokens: number | undefined;
  for await (const event of events) {
    let data: AnthropicEvent;
    try {
      data = JSON.parse(event.data) as AnthropicEvent;
    } catch {
      throw badResponse(context, 'JSON (an event of its stream)');
    }
    const type = typeof data.type === 'string' ? data.type : event.event;
    const index = typeof data.index === 'number' ? data.index : -1;
    switch (type) {
      case 'message_start': {
        const usage = data.message?.usage;
        // Cached input is billed apart but is input all the same.
        const parts = [usage?.input_tokens, usage?.cache_read_input_tokens, usage?.cache_creation_input_tokens].map(count).filter((value) => value !== undefined);
        inputTokens = parts.length > 0 ? parts.reduce((sum, value) => sum + value, 0) : undefined;
        break;
      }
      case 'content_block_start':
        if (data.content_block?.type === 'tool_use') {
          tools.set(index, { id: String(data.content_block.id ?? ''), name: String(data.content_block.name ?? ''), json: '' });
        } else if (data.content_block?.type === 'text' && typeof data.content_block.text === 'string' && data.content_block.text !== '') {
          yield { kind: 'text', text: data.content_block.text };
        }
        break;
      case 'content_block_delta':
        if (data.delta?.type === 'text_delta' && typeof data.delta.text === 'string' && data.delta.text !== '') yield { kind: 'text', text: data.delta.text };
        else if (data.delta?.type === 'input_json_delta' && typeof data.delta.partial_json === 'string') {
          const tool = tools.get(index);
          if (!tool) throw badResponse(context, 'in order (tool input for a block that did not start)');
          tool.json += data.delta.partial_json;
        }
        break;
      case 'content_block_stop': {
        const tool = tools.get(index);
        if (tool) {
          tools.delete(index);
          yield toolCall(tool, context);
        }
        break;
      }
      case 'message_delta': {
        const outputTokens = count(data.usage?.output_tokens);
        if (inputTokens !== undefined || outputTokens !== undefined) yield { kind: 'usage', inputTokens, outputTokens };
        break;
      }
      case 'message_stop':
        return;
      case 'error':
        throw streamError(context, typeof data.error?.type === 'string' ? data.error.type : undefined, String(data.error?.message ?? ''));
      default:
        // `ping`, and event types the format may add later: nothing to show.
        break;
    }
  }
  throw badResponse(context, 'complete (the stream ended before its message_stop)');
}

function toolCall(tool: { id: string; name: string; json: string }, context: ErrorContext): ChatEvent {
  let input: unknown;
  try {
    input = tool.json.trim() === '' ? {} : JSON.parse(tool.json);
  } catch {
    throw badResponse(context, `JSON in the input of its call of ${tool.name || 'a tool'}`);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input) || tool.id === '' || tool.name === '') throw badResponse(context, 'a tool call with an id, a name and an object input');
  return { kind: 'toolCall', callId: tool.id, name: tool.name, input };
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
