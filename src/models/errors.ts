// A failed model request as one sentence a person can act on: wrong key, endpoint down, model not
// found, rate limited (with when to retry), context too long, no tool calling. The endpoint's own words
// are kept short and never carry the API key (some endpoints echo part of a wrong key back).

export type ModelErrorKind = 'auth' | 'unreachable' | 'notFound' | 'rateLimited' | 'contextTooLong' | 'noToolCalling' | 'badResponse' | 'server';

/** An endpoint's own message is cut to this in our sentence: enough for its reason, not a page of HTML. */
export const ENDPOINT_DETAIL_MAX_CHARS = 200;

export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    /** For `rateLimited`: seconds until a retry may succeed, when the endpoint said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/** What the sentences name: the entry's name and where it points. */
export interface ErrorContext {
  readonly name: string;
  readonly baseUrl: string;
  readonly model: string;
  /** Masked wherever the endpoint's words are quoted. */
  readonly apiKey: string | undefined;
}

/** The command that stores a key, as the palette shows it. */
export const SET_KEY_COMMAND_TITLE = 'Agent Tool Executor: Set API Key…';
/** The command that lists an endpoint's models, as the palette shows it. */
export const ADD_MODEL_COMMAND_TITLE = 'Agent Tool Executor: Add Model from Endpoint…';

const CONTEXT_TOO_LONG = /context[ _-]?length|context window|prompt is too long|too many tokens|maximum context|exceeds? the (?:context|limit)|input is too long|request too large|reduce the length/i;
const NO_TOOLS = /does not support tools|tools? (?:are|is) not supported|not support(?:ed)? (?:for )?(?:tool|function)|tool[ _]?(?:calling|use|choice)[^.]*not supported|unsupported[^.]*tools?|"tools" (?:is|are) not (?:allowed|permitted)/i;
const MODEL_MISSING = /model[^.]{0,80}(?:not found|does not exist|not exist|unknown|no such|not available)|(?:not found|unknown|no such)[^.]{0,40}model|model_not_found/i;

/** The error for a response with a non-2xx `status`, its headers and (the start of) its body. */
export function httpError(context: ErrorContext, status: number, headers: Readonly<Record<string, string | string[] | undefined>>, body: string): ModelError {
  const detail = endpointDetail(body, context.apiKey);
  const where = `${context.name} (${context.baseUrl})`;
  if (status === 401 || status === 403) {
    return new ModelError('auth', `${where} refused the API key (HTTP ${status}); set the right one with "${SET_KEY_COMMAND_TITLE}".`);
  }
  if (status === 429) {
    const seconds = retryAfterSeconds(headers);
    return new ModelError('rateLimited', `${where} is rate limiting requests (HTTP 429); ${seconds === undefined ? 'try again in a minute' : `try again in ${seconds} s`}.`, seconds);
  }
  if (status === 413 || CONTEXT_TOO_LONG.test(detail)) {
    return new ModelError('contextTooLong', `The conversation is too long for ${context.model} at ${where}${quote(detail)}; start a new chat or lower maxInputTokens for this model.`);
  }
  if (NO_TOOLS.test(detail)) return noToolCalling(context, detail);
  if (status === 404) {
    return MODEL_MISSING.test(detail) || detail === ''
      ? new ModelError('notFound', `${where} has no model "${context.model}"${quote(detail)}; list its models with "${ADD_MODEL_COMMAND_TITLE}".`)
      : new ModelError('notFound', `${where} has no such address (HTTP 404${detail ? `: ${detail}` : ''}); check baseUrl, which usually ends in /v1.`);
  }
  if (MODEL_MISSING.test(detail)) return new ModelError('notFound', `${where} has no model "${context.model}"${quote(detail)}; list its models with "${ADD_MODEL_COMMAND_TITLE}".`);
  return new ModelError('server', `${where} answered HTTP ${status}${detail ? `: ${detail}` : ''}.`.replace(/\.\.$/, '.'));
}

/** The error for an `error` the endpoint sent inside the stream, after a 200. */
export function streamError(context: ErrorContext, type: string | undefined, message: string): ModelError {
  const detail = endpointDetail(message, context.apiKey);
  const where = `${context.name} (${context.baseUrl})`;
  if (/rate_limit|overloaded/i.test(type ?? '')) return new ModelError('rateLimited', `${where} stopped the answer: it is ${/overloaded/i.test(type ?? '') ? 'overloaded' : 'rate limiting requests'}${quote(detail)}; try again in a minute.`);
  if (CONTEXT_TOO_LONG.test(detail)) return new ModelError('contextTooLong', `The conversation is too long for ${context.model} at ${where}${quote(detail)}; start a new chat or lower maxInputTokens for this model.`);
  if (NO_TOOLS.test(detail)) return noToolCalling(context, detail);
  return new ModelError('server', `${where} stopped the answer with an error${detail ? `: ${detail}` : ''}.`.replace(/\.\.$/, '.'));
}

/** The error when the endpoint cannot be reached at all (`code`: Node's, such as ECONNREFUSED). */
export function unreachable(context: ErrorContext, code: string | undefined, message: string): ModelError {
  const reason = code === 'ECONNREFUSED' ? 'nothing is listening there' : code === 'ENOTFOUND' ? 'its host name is unknown' : endpointDetail(message, context.apiKey) || 'the connection failed';
  return new ModelError('unreachable', `${context.name} could not be reached at ${context.baseUrl} (${code ? `${code}: ` : ''}${reason}); is the server running?`);
}

/** The error for an answer that breaks the format (truncated, not JSON where JSON belongs). */
export function badResponse(context: ErrorContext, what: string): ModelError {
  return new ModelError('badResponse', `${context.name} (${context.baseUrl}) sent an answer that is not ${what}.`);
}

function noToolCalling(context: ErrorContext, detail: string): ModelError {
  return new ModelError('noToolCalling', `${context.model} at ${context.name} (${context.baseUrl}) does not support tool calling${quote(detail)}; pick a model that does, or set toolCalling to false for this entry.`);
}

/** Seconds from `retry-after-ms`, `retry-after` (seconds or an HTTP date), whichever is there. */
export function retryAfterSeconds(headers: Readonly<Record<string, string | string[] | undefined>>, now = Date.now()): number | undefined {
  const first = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const ms = Number(first('retry-after-ms'));
  if (first('retry-after-ms') !== undefined && Number.isFinite(ms) && ms >= 0) return Math.ceil(ms / 1000);
  const value = first('retry-after');
  if (value === undefined) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.ceil(Number(value));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The endpoint's reason from a body (`error.message`, `error`, `message`, or the text), one line, short, key masked. */
export function endpointDetail(body: string, apiKey: string | undefined): string {
  let text = body.trim();
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const error = parsed.error as { message?: unknown } | string | undefined;
    const found = typeof error === 'string' ? error : typeof error?.message === 'string' ? error.message : typeof parsed.message === 'string' ? parsed.message : typeof parsed.detail === 'string' ? parsed.detail : undefined;
    if (found !== undefined) text = found;
  } catch {
    // Not JSON: the text itself, unless it is a page of HTML.
    if (/^<(?:!doctype|html)/i.test(text)) text = '';
  }
  text = maskKey(text.replace(/\s+/g, ' ').trim(), apiKey);
  return text.length > ENDPOINT_DETAIL_MAX_CHARS ? `${text.slice(0, ENDPOINT_DETAIL_MAX_CHARS - 1)}…` : text;
}

/** A key, and any run of 8 or more of its characters (endpoints echo keys in part: "sk-abc…xyz"), as `[API key]`. */
export function maskKey(text: string, apiKey: string | undefined): string {
  if (!apiKey) return text;
  let masked = text.split(apiKey).join('[API key]');
  for (let start = 0; start + MIN_ECHOED_KEY_CHARS <= apiKey.length; start++) {
    const piece = apiKey.slice(start, start + MIN_ECHOED_KEY_CHARS);
    if (masked.includes(piece)) masked = masked.split(piece).join('[API key]');
  }
  return masked;
}

/** Endpoints echo a wrong key's first and last few characters; a run this long of the key is masked. */
const MIN_ECHOED_KEY_CHARS = 8;

function quote(detail: string): string {
  return detail ? ` (${detail.replace(/[.\s]+$/, '')})` : '';
}
