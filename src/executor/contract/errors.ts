// Named error classes, and the projection of any thrown value into a model-readable message (spec §9).

/** Thrown (as an abort reason) when a call is cancelled by the user or the turn. */
export class CancellationError extends Error {
  override readonly name = 'CancellationError';
  constructor(message = 'Cancelled') {
    super(message);
  }
}

/**
 * A `CancellationError` without a stack trace, for aborts nobody debugs (a call that simply ended):
 * capturing the stack was a measurable part of every call's cost.
 */
export function quietCancellation(message: string): CancellationError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new CancellationError(message);
  } finally {
    Error.stackTraceLimit = limit;
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
  try {
    return projectErrorMessageUnsafe(value);
  } catch {
    // A Proxy whose traps throw, or worse: the message must still be a message.
    return UNDESCRIBABLE_ERROR;
  }
}

/** What the model is told about a thrown value that cannot even be inspected. */
export const UNDESCRIBABLE_ERROR = 'an error that could not be described (reading it threw)';

function projectErrorMessageUnsafe(value: unknown): string {
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
  try {
    return errorClassOfUnsafe(value);
  } catch {
    return 'Undescribable';
  }
}

function errorClassOfUnsafe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object' && typeof value !== 'function') return typeof value;
  const name = safeGet(value, 'name');
  if (value instanceof Error && typeof name === 'string' && name !== '') return name;
  const constructorName = safeGet(safeGet(value, 'constructor'), 'name');
  return typeof constructorName === 'string' && constructorName !== '' ? constructorName : value instanceof Error ? 'Error' : 'Object';
}

/**
 * Reads a property of a thrown value that may be hostile (a getter that throws, a Proxy): a throw here
 * must not turn the error it describes into another failure (it once became a user cancel).
 */
function safeGet(value: unknown, key: string): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function ownMessage(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return value;
  if (typeof value === 'object' || typeof value === 'function') {
    const message = safeGet(value, 'message');
    if (typeof message === 'string') return message;
    if (value instanceof Error) return '';
    try {
      return JSON.stringify(value) ?? safeString(value);
    } catch {
      return safeString(value);
    }
  }
  return safeString(value);
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function causeOf(value: unknown): unknown {
  return safeGet(value, 'cause');
}

function describeEmpty(value: unknown): string {
  if (value instanceof Error) {
    const name = safeGet(value, 'name');
    return typeof name === 'string' && name !== '' ? name : 'Error';
  }
  return safeString(value);
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
