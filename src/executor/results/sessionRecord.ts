// The session record format: one JSON object per line. Successes keep their text (or the
// artifact holding it), display and metadata; failures also keep the exact model content sent, so a
// session can be replayed. Media parts are stored as artifacts and referenced. Everything in it is
// redacted: the result was redacted before it forked, and the input is redacted here.
import type { ToolDisplay } from '../contract/contract';
import type { Redactor } from '../ports/redactor';
import type { ArtifactRef, ErrorKind, ToolCallResult } from '../contract/result';

/** Bumped when an entry's shape changes incompatibly. */
export const SESSION_RECORD_VERSION = 1;
/**
 * A string of a recorded input longer than this keeps its head and a note (a 50 MB Write would
 * otherwise be recorded whole): the record stays bounded whatever the model sends.
 */
export const RECORD_MAX_INPUT_STRING_CHARS = 64 * 1024;
/**
 * The unbudgeted text kept when no artifact holds it. Larger results were persisted (their artifact is
 * referenced) or cut for the model; the record keeps this much of them, marked.
 */
export const RECORD_MAX_TEXT_CHARS = 1024 * 1024;

export interface SessionHeaderEntry {
  readonly type: 'session';
  readonly version: number;
  readonly sessionId: string;
  readonly startedAt: string;
  readonly workspaceFolders: readonly string[];
}

export interface MediaReference {
  readonly kind: 'image';
  readonly mimeType: string;
  readonly bytes: number;
  readonly artifact?: ArtifactRef;
  /** Why the part could not be stored. */
  readonly error?: string;
}

export interface CallRecordEntry {
  readonly type: 'call';
  readonly version: number;
  readonly sessionId: string;
  readonly at: string;
  readonly callId: string;
  readonly name: string;
  readonly group?: number;
  /** The resolved input, every string redacted. */
  readonly input: unknown;
  readonly isError: boolean;
  readonly errorKind: ErrorKind | null;
  /** Exactly what the model received (always kept for failures; kept for successes too, for replay). */
  readonly modelContent: string;
  /** The unbudgeted text, unless it lives in `artifact`. */
  readonly text?: string;
  readonly display?: ToolDisplay;
  readonly media?: readonly MediaReference[];
  readonly metadata: Pick<
    ToolCallResult,
    'truncated' | 'strategy' | 'originalBytes' | 'modelBytes' | 'artifact' | 'changes' | 'stopTurn' | 'permission' | 'timing' | 'failure'
  >;
}

export type SessionRecordEntry = SessionHeaderEntry | CallRecordEntry;

/** Builds the entry of one call. `media` are the references of its stored media parts. */
export function callRecordEntry(sessionId: string, result: ToolCallResult, input: unknown, redactor: Redactor, media?: readonly MediaReference[]): CallRecordEntry {
  return {
    type: 'call',
    version: SESSION_RECORD_VERSION,
    sessionId,
    at: new Date().toISOString(),
    callId: result.callId,
    name: result.name,
    group: result.group,
    input: redactDeep(input, redactor, 0, RECORD_MAX_INPUT_STRING_CHARS),
    isError: result.isError,
    errorKind: result.errorKind,
    modelContent: result.modelContent,
    ...(result.artifact && !result.isError ? {} : { text: bounded(result.text, RECORD_MAX_TEXT_CHARS) }),
    display: result.display,
    media,
    metadata: {
      truncated: result.truncated,
      strategy: result.strategy,
      originalBytes: result.originalBytes,
      modelBytes: result.modelBytes,
      artifact: result.artifact,
      changes: result.changes,
      stopTurn: result.stopTurn,
      permission: result.permission,
      timing: result.timing,
      failure: result.failure,
    },
  };
}

/**
 * Every string of a JSON-like value redacted (keys too); other values as they are. With `maxChars`,
 * longer strings keep their head and a note of what was left out (redacted before the cut, so a
 * secret is never cut in half and left half readable).
 */
export function redactDeep(value: unknown, redactor: Redactor, depth = 0, maxChars = Number.POSITIVE_INFINITY): unknown {
  if (typeof value === 'string') return bounded(redactor.redact(value), maxChars);
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redactor, depth + 1, maxChars));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[redactor.redact(key)] = redactDeep(item, redactor, depth + 1, maxChars);
  return out;
}

function bounded(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = maxChars;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}\n[not recorded: ${text.length - end} more chars]`;
}
