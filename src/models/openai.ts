// OpenAI's chat completions format (POST {baseUrl}/chat/completions with `stream: true`), which Ollama,
// LM Studio, vLLM, llama.cpp's server and most gateways speak too. Text arrives as `delta.content`; a
// tool call as `delta.tool_calls[]` pieces, keyed by `index`: the id and name in the first piece, the
// arguments as JSON text split over any number of pieces. `data: [DONE]` ends the stream.
import { badResponse, streamError, type ErrorContext } from './errors';
import type { SseEvent } from './sse';
import type { ChatEvent, ChatMessage, ChatRequest } from './types';

export const OPENAI_CHAT_PATH = '/chat/completions';
export const OPENAI_MODELS_PATH = '/models';

/** The request body. `max_tokens` is left to the endpoint: OpenAI's newer models refuse it (they want `max_completion_tokens`), the others ignore the one they do not know. */
export function openaiBody(request: ChatRequest): Record<string, unknown> {
  return {
    model: request.model,
    messages: request.messages.flatMap(toOpenai),
    stream: true,
    // The usage chunk at the end: the real token counts (servers that do not know the option ignore it).
    stream_options: { include_usage: true },
    ...(request.tools.length > 0
      ? {
          tools: request.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema ?? { type: 'object', properties: {} } } })),
          tool_choice: request.toolMode === 'required' ? 'required' : 'auto',
        }
      : {}),
  };
}

export function openaiHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

/** One of our messages as OpenAI's: tool results become `tool` messages, ahead of any text sent with them. */
function toOpenai(message: ChatMessage): Record<string, unknown>[] {
  const text = message.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('');
  if (message.role === 'system') return [{ role: 'system', content: text }];
  if (message.role === 'assistant') {
    const calls = message.parts.flatMap((part) => (part.kind === 'toolCall' ? [{ id: part.callId, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.input) } }] : []));
    return [{ role: 'assistant', content: text === '' && calls.length > 0 ? null : text, ...(calls.length > 0 ? { tool_calls: calls } : {}) }];
  }
  const results = message.parts.flatMap((part) => (part.kind === 'toolResult' ? [{ role: 'tool', tool_call_id: part.callId, content: part.text }] : []));
  const images = message.parts.flatMap((part) => (part.kind === 'image' ? [{ type: 'image_url', image_url: { url: `data:${part.mimeType};base64,${part.base64}` } }] : []));
  if (text === '' && images.length === 0) return results;
  const content = images.length === 0 ? text : [...(text ? [{ type: 'text', text }] : []), ...images];
  return [...results, { role: 'user', content }];
}

interface OpenaiChunk {
  readonly choices?: readonly { readonly delta?: { readonly content?: unknown; readonly tool_calls?: readonly OpenaiToolDelta[] }; readonly finish_reason?: unknown }[];
  readonly usage?: { readonly prompt_tokens?: unknown; readonly completion_tokens?: unknown } | null;
  readonly error?: { readonly message?: unknown; readonly type?: unknown; readonly code?: unknown } | string;
}

interface OpenaiToolDelta {
  readonly index?: unknown;
  readonly id?: unknown;
  readonly function?: { readonly name?: unknown; readonly arguments?: unknown };
}

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

/** The events of an OpenAI stream. Throws a ModelError for an `error` in the stream, a call whose arguments are not JSON, or a stream cut before `[DONE]`. */
export async function* openaiEvents(events: AsyncIterable<SseEvent>, context: ErrorContext): AsyncGenerator<ChatEvent> {
  const calls = new Map<number, PendingCall>();
  const flush = function* (): Generator<ChatEvent> {
    for (const [, call] of [...calls].sort(([a], [b]) => a - b)) yield toolCall(call, context);
    calls.clear();
  };
  for await (const event of events) {
    if (event.data.trim() === '[DONE]') {
      yield* flush();
      return;
    }
    let chunk: OpenaiChunk;
    try {
      chunk = JSON.parse(event.data) as OpenaiChunk;
    } catch {
      throw badResponse(context, 'JSON (an event of its stream)');
    }
    if (chunk.error !== undefined) {
      const error = typeof chunk.error === 'string' ? { message: chunk.error } : chunk.error;
      throw streamError(context, typeof error.type === 'string' ? error.type : typeof error.code === 'string' ? error.code : undefined, String(error.message ?? ''));
    }
    for (const choice of chunk.choices ?? []) {
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string' && delta.content !== '') yield { kind: 'text', text: delta.content };
      for (const piece of delta.tool_calls ?? []) {
        const index = typeof piece.index === 'number' ? piece.index : calls.size;
        const call = calls.get(index) ?? { id: '', name: '', args: '' };
        calls.set(index, call);
        if (typeof piece.id === 'string' && piece.id !== '') call.id = piece.id;
        if (typeof piece.function?.name === 'string') call.name += piece.function.name;
        if (typeof piece.function?.arguments === 'string') call.args += piece.function.arguments;
      }
      if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') yield* flush();
    }
    if (chunk.usage) {
      const inputTokens = count(chunk.usage.prompt_tokens);
      const outputTokens = count(chunk.usage.completion_tokens);
      if (inputTokens !== undefined || outputTokens !== undefined) yield { kind: 'usage', inputTokens, outputTokens };
    }
  }
  throw badResponse(context, 'complete (the stream ended before its [DONE])');
}

/** Numbers the calls that came without an id, so each gets its own. */
let unnamedCalls = 0;

function toolCall(call: PendingCall, context: ErrorContext): ChatEvent {
  let input: unknown;
  try {
    input = call.args.trim() === '' ? {} : JSON.parse(call.args);
  } catch {
    throw badResponse(context, `JSON in the arguments of its call of ${call.name || 'a tool'}`);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw badResponse(context, `an object in the arguments of its call of ${call.name || 'a tool'}`);
  if (call.name === '') throw badResponse(context, 'a named tool call');
  // Some local servers send no id; the chat needs one to match the result to the call.
  return { kind: 'toolCall', callId: call.id || `call_${++unnamedCalls}`, name: call.name, input };
}

/** The model names a `GET {baseUrl}/models` answer lists (`{data: [{id}]}`), or Ollama's `GET /api/tags` (`{models: [{name}]}`). */
export function modelNames(body: unknown): string[] {
  const value = body as { data?: unknown; models?: unknown } | null;
  const list = Array.isArray(value?.data) ? value.data : Array.isArray(value?.models) ? value.models : [];
  return list.flatMap((item: unknown) => {
    const entry = item as { id?: unknown; name?: unknown; model?: unknown } | null;
    const name = typeof entry?.id === 'string' ? entry.id : typeof entry?.model === 'string' ? entry.model : typeof entry?.name === 'string' ? entry.name : undefined;
    return name ? [name] : [];
  });
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
