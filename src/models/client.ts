// A chat request to an endpoint, start to end: the format's body and headers, one HTTP request, a
// non-2xx status as one sentence, the stream's events as they arrive. Cancelling the signal ends the
// HTTP request. Also: the models an endpoint lists.
import { ANTHROPIC_MESSAGES_PATH, ANTHROPIC_MODELS_PATH, anthropicBody, anthropicEvents, anthropicHeaders } from './anthropic';
import { badResponse, httpError, unreachable, type ErrorContext } from './errors';
import { isAbortError, readText, request, type HttpResponse } from './http';
import { modelNames, OPENAI_CHAT_PATH, OPENAI_MODELS_PATH, openaiBody, openaiEvents, openaiHeaders } from './openai';
import { sseEvents } from './sse';
import type { ChatEvent, ChatRequest, EndpointModel, WireFormat } from './types';

/** The answers of a chat request, as they stream in. Throws ModelError (one sentence) or an AbortError. */
export async function* streamChat(endpoint: EndpointModel, apiKey: string | undefined, chat: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatEvent> {
  const context: ErrorContext = { name: endpoint.name, baseUrl: endpoint.baseUrl, model: endpoint.model, apiKey };
  const openai = endpoint.format === 'openai';
  const response = await send(context, endpointUrl(endpoint.baseUrl, openai ? OPENAI_CHAT_PATH : ANTHROPIC_MESSAGES_PATH), {
    method: 'POST',
    headers: openai ? openaiHeaders(apiKey) : anthropicHeaders(apiKey),
    body: openai ? openaiBody(chat) : anthropicBody(chat),
  }, signal);
  const events = sseEvents(guarded(response.body, context));
  yield* openai ? openaiEvents(events, context) : anthropicEvents(events, context);
}

/**
 * The model names the endpoint lists: `GET {baseUrl}/models`; for an OpenAI-format endpoint that has none
 * there (Ollama before its /v1/models), Ollama's own list, `GET /api/tags` on the same host.
 */
export async function listModels(format: WireFormat, baseUrl: string, apiKey: string | undefined, signal: AbortSignal): Promise<string[]> {
  const context: ErrorContext = { name: baseUrl, baseUrl, model: '', apiKey };
  const get = async (url: URL) => {
    const response = await send(context, url, { method: 'GET', headers: format === 'openai' ? openaiHeaders(apiKey) : anthropicHeaders(apiKey) }, signal);
    const text = await readText(response.body, MODEL_LIST_MAX_BYTES);
    try {
      return modelNames(JSON.parse(text));
    } catch {
      throw badResponse(context, 'a JSON list of models');
    }
  };
  try {
    return await get(endpointUrl(baseUrl, format === 'openai' ? OPENAI_MODELS_PATH : ANTHROPIC_MODELS_PATH));
  } catch (error) {
    if (format !== 'openai' || !(error instanceof Error && 'kind' in error && error.kind === 'notFound')) throw error;
    return get(new URL('/api/tags', baseUrl));
  }
}

/** A model list is a few KB; OpenRouter's, the longest known, is under 1 MB. */
export const MODEL_LIST_MAX_BYTES = 4 * 1024 * 1024;

/** `baseUrl` with `path` appended (a trailing slash or not). */
export function endpointUrl(baseUrl: string, path: string): URL {
  return new URL(`${baseUrl.replace(/\/+$/, '')}${path}`);
}

async function send(context: ErrorContext, url: URL, options: Parameters<typeof request>[1], signal: AbortSignal): Promise<HttpResponse> {
  let response: HttpResponse;
  try {
    response = await request(url, options, signal);
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw unreachable(context, (error as { code?: string }).code, String((error as Error).message));
  }
  if (response.status < 200 || response.status > 299) {
    const body = await readText(response.body).catch(() => '');
    throw httpError(context, response.status, response.headers, body);
  }
  return response;
}

/** The body, with a connection that breaks mid-answer as one sentence (a cancellation stays an AbortError). */
async function* guarded(body: AsyncIterable<Buffer>, context: ErrorContext): AsyncGenerator<Buffer> {
  try {
    yield* body;
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw unreachable(context, (error as { code?: string }).code, `the connection broke during the answer (${String((error as Error).message)})`);
  }
}
