// Named error classes, and the projection of any thrown value into a model-readable message (spec §9).

/** Thrown (as an abort reason) when a call is cancelled by the user or the turn. */
export class CancellationError extends Error {
  override readonly name = 'CancellationError';
  constructor(message = 'Cancelled') {
    super(message);
  }
}

/** The abort reason of a call whose deadline passed. */
export class ToolTimeoutError extends Error {
  override readonly name = 'ToolTimeoutError';
  constructor(
    readonly toolName: string,
    readonly timeoutMs: number,
    readonly queuedMs: number,
    message: string,
  ) {
    super(message);
  }
}

/** A broken invariant inside the executor: never thrown for invalid user or model input. */
export class BugIndicatingError extends Error {
  override readonly name = 'BugIndicatingError';
}

/** Spec §9: how deep the cause chain is followed, and how long a projected message may be. */
export const MAX_CAUSE_DEPTH = 12;
export const MAX_ERROR_MESSAGE_CHARS = 500;

/** Messages that only wrap a cause and say nothing of their own. */
const WRAPPER_MESSAGE = /^(?:|error|unknown error|internal error|an error occurred|failed|operation failed|wrapped error)\.?$/i;

/**
 * Projects any thrown value (Error, string, null, object, ...) into one line for the model:
 * follows `cause` at most 12 levels, takes the first message that is not a wrapper,
 * collapses whitespace and keeps at most 500 characters.
 */
export function projectErrorMessage(value: unknown): string {
  let current: unknown = value;
  let fallback: string | undefined;
  const seen = new Set<unknown>();
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH && current !== undefined && !seen.has(current); depth++) {
    seen.add(current);
    const message = collapse(ownMessage(current));
    fallback ??= message || undefined;
    if (message && !WRAPPER_MESSAGE.test(message)) {
      return limit(message);
    }
    current = causeOf(current);
  }
  return limit(fallback ?? describeEmpty(value));
}

/** The class name of a thrown value, for telemetry (`Error`, `TypeError`, `string`, `null`, ...). */
export function errorClassOf(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Error) return value.name || value.constructor?.name || 'Error';
  if (typeof value === 'object') return (value as object).constructor?.name ?? 'Object';
  return typeof value;
}

function ownMessage(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return value;
  if (value instanceof Error) return value.message;
  if (typeof value === 'object') {
    const message = (value as { message?: unknown }).message;
    if (typeof message === 'string') return message;
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      return Object.prototype.toString.call(value);
    }
  }
  return String(value);
}

function causeOf(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && 'cause' in value) {
    return (value as { cause?: unknown }).cause;
  }
  return undefined;
}

function describeEmpty(value: unknown): string {
  return value instanceof Error ? value.name || 'Error' : String(value);
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function limit(text: string): string {
  if (text.length <= MAX_ERROR_MESSAGE_CHARS) return text;
  // Never cut a surrogate pair in half.
  let end = MAX_ERROR_MESSAGE_CHARS - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** Wraps a validation or tool-reported failure for the model (spec §9). */
export function toolUseError(message: string): string {
  return `<tool_use_error>${message}</tool_use_error>`;
}
