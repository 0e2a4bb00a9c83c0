// What every scripted session of the demo model shares: its shape, call ids, and reading results.
import type { DemoOutputPart, DemoStep, DemoTurn } from './conversation';

/** A short scripted agent session, played one step per model request. */
export interface DemoSession {
  /** Part of every call id the session makes. */
  readonly name: string;
  /** Which prompts start it. */
  readonly trigger: RegExp;
  /** The tools it calls; it is not played unless the request offers all of them. */
  readonly tools: readonly string[];
  /** The next step, decided only from the results already in the turn. */
  next(turn: DemoTurn): DemoStep;
}

/**
 * Every call id starts with this, then the turn and session: the script finds its own calls' results
 * by id, and ids stay unique when a conversation plays a session twice.
 */
export const CALL_ID_PREFIX = 'demo';

export function callId(turn: DemoTurn, session: string, step: string): string {
  return `${CALL_ID_PREFIX}-${turn.index}-${session}-${step}`;
}

export function respond(...parts: DemoOutputPart[]): DemoStep {
  return { kind: 'respond', parts };
}

export function text(value: string): DemoOutputPart {
  return { kind: 'text', text: value };
}

export function toolCall(id: string, name: string, input: Readonly<Record<string, unknown>>): DemoOutputPart {
  return { kind: 'toolCall', callId: id, name, input };
}

/** Quoted result lines stay short so a summary reads as prose. */
export const QUOTE_MAX_CHARS = 120;

export type Outcome = 'missing' | 'denied' | 'cancelled' | 'done';

/**
 * How a call went, from the text the model got back (a tool result carries no error flag). The
 * words are the executor's one-line messages: "…was denied…" / "The user denied…"
 * (stages/permission.ts, stages/approval.ts) and "The user cancelled…" (stages/handler.ts). Only
 * the first line is read: a tool's own output may contain those words.
 */
export function outcomeOf(result: string | undefined): Outcome {
  if (result === undefined) return 'missing';
  const head = firstLine(result, Number.POSITIVE_INFINITY);
  if (/\bdenied\b/i.test(head)) return 'denied';
  if (/\bcancell?ed\b/i.test(head)) return 'cancelled';
  return 'done';
}

/** The first line of a result, cut to `max` chars: enough to quote in a summary. */
export function firstLine(result: string, max = QUOTE_MAX_CHARS): string {
  const line = result.trim().split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
