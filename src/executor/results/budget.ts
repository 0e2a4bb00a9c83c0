// Result budgets (spec §7): inline, spill to an artifact, or keep the head and tail thirds.
// Works on whole text and on streamed output that was only kept as head, tail and counts.
import type { PersistedOutputInfo, ResultBudget } from '../contract/contract';
import type { ArtifactRef, BudgetStrategy } from '../contract/result';
import { countLines, formatBytes, headWithinBytes, headWithinChars, tailWithinBytes, utf8Bytes, utf8BytesAndLines } from '../format/text';

/** A line longer than this is replaced by `[line truncated: N chars]` in model content (our choice; the spec names none). */
export const MAX_LINE_CHARS = 10_000;
/** Spec §7: successful read-only results get three times the budget. */
export const READ_ONLY_BUDGET_FACTOR = 3;
/** Spec §7: spill to an artifact only past max(20000 chars, 3 × budget). */
export const SPILL_MIN_CHARS = 20_000;
export const SPILL_BUDGET_FACTOR = 3;
/** Spec §7: the artifact envelope previews the first 2000 chars. */
export const PREVIEW_CHARS = 2000;
/** The budget for tools that declare none: 256 KiB, as in the TypeScript executor the spec distils. */
export const DEFAULT_MAX_MODEL_BYTES = 256 * 1024;
/**
 * What model content may exceed its budget by, at most: the persisted envelope (a 2000-char
 * preview is up to 8000 bytes, plus the path and wording) or a truncation marker line.
 */
export const MAX_ENVELOPE_BYTES = PREVIEW_CHARS * 4 + 2048;

/** Streamed output past the spill size: only its head, tail and counts were kept. */
export interface SpilledText {
  readonly head: string;
  readonly tail: string;
  readonly totalChars: number;
  readonly totalBytes: number;
  readonly totalLines: number;
  /** The artifact the whole stream was written to, when that worked. */
  readonly artifact?: ArtifactRef;
  readonly artifactError?: string;
}

export interface BudgetInput {
  readonly toolName: string;
  /** The redacted output: whole, or spilled while streaming. */
  readonly text: string | SpilledText;
  readonly budget: ResultBudget;
  /** A successful read-only result: 3× budget. */
  readonly readOnlySuccess: boolean;
  /** Writes the full (already redacted) text; absent when there is no artifact store. */
  readonly persist?: (text: string) => Promise<ArtifactRef>;
  readonly formatPersisted?: (info: PersistedOutputInfo) => string;
}

export interface BudgetOutcome {
  readonly modelContent: string;
  readonly strategy: BudgetStrategy;
  readonly truncated: boolean;
  readonly originalBytes: number;
  readonly artifact?: ArtifactRef;
}

/** The inline limit in bytes: `min(maxModelBytes, maxInlineBytes)`, 3× for read-only successes. */
export function budgetLimitBytes(budget: ResultBudget, readOnlySuccess: boolean): number {
  const base = Math.min(budget.maxModelBytes, budget.maxInlineBytes ?? Number.POSITIVE_INFINITY);
  return base * (readOnlySuccess ? READ_ONLY_BUDGET_FACTOR : 1);
}

/** Spec §7: a result spills to an artifact only when longer than this many chars. */
export function spillAtChars(limitBytes: number): number {
  return Math.max(SPILL_MIN_CHARS, SPILL_BUDGET_FACTOR * limitBytes);
}

/** Sizes one result for the model. A failed artifact write falls back to truncation and never fails the call. */
export async function applyBudget(input: BudgetInput): Promise<BudgetOutcome> {
  if (typeof input.text !== 'string') return budgetSpilled(input, input.text);
  const text = input.text;
  const { budget } = input;
  const limit = budgetLimitBytes(budget, input.readOnlySuccess);
  // A text with more chars than the limit has bytes is cut, and without an artifact to spill to, its lines are
  // counted for the truncation note: in the same walk as its bytes (one read of a long text from memory, not two).
  const measured = text.length > limit && (budget.strategy !== 'artifact' || !input.persist) ? utf8BytesAndLines(text) : undefined;
  const originalBytes = measured?.bytes ?? utf8Bytes(text);
  // The walk that measured the text found its longest line: no second walk to cap lines when none is too long.
  const capped = measured && measured.longestLine <= MAX_LINE_CHARS ? text : capLongLines(text);
  // No second count when no line was cut, and none when even one byte per char is too many.
  const fits = capped === text ? originalBytes <= limit : capped.length <= limit && utf8Bytes(capped) <= limit;
  // A line cut down to its marker is data the model could not get back: save the whole text, as a spill does.
  const linesCut = budget.strategy === 'artifact' && input.persist !== undefined && capped !== text;
  if (fits && !linesCut) {
    return { modelContent: capped, strategy: 'inline', truncated: capped !== text, originalBytes };
  }
  let note: string | undefined;
  if (budget.strategy === 'artifact' && (text.length > spillAtChars(limit) || linesCut) && input.persist) {
    try {
      const artifact = await input.persist(text);
      const { preview, hasMore } = previewOf(capLongLines(headWithinChars(text, PREVIEW_CHARS * 2)), PREVIEW_CHARS, text.length);
      const modelContent = persistedEnvelope(input, { originalBytes, originalChars: text.length, path: artifact.path, uri: artifact.uri, preview, hasMore });
      return { modelContent, strategy: 'artifact', truncated: true, originalBytes, artifact };
    } catch (error) {
      note = savingFailedNote(error instanceof Error ? error.message : String(error));
    }
  }
  if (fits) return { modelContent: note ? `${capped}\n${note}` : capped, strategy: 'inline', truncated: true, originalBytes };
  const parts: SpilledText = { head: capped, tail: capped, totalChars: capped.length, totalBytes: capped === text ? originalBytes : utf8Bytes(capped), totalLines: capped === text && measured ? measured.lines : countLines(capped) };
  const truncated = budget.previewDirection
    ? truncateDirectional(parts, limit, budget.previewDirection, originalBytes)
    : truncateMiddleParts(parts, limit);
  return { modelContent: note ? `${truncated}\n${note}` : truncated, strategy: 'truncate', truncated: true, originalBytes };
}

function budgetSpilled(input: BudgetInput, spilled: SpilledText): BudgetOutcome {
  const originalBytes = spilled.totalBytes;
  const limit = budgetLimitBytes(input.budget, input.readOnlySuccess);
  if (spilled.artifact) {
    const { preview, hasMore } = previewOf(capLongLines(spilled.head), PREVIEW_CHARS, spilled.totalChars);
    const info = { originalBytes, originalChars: spilled.totalChars, path: spilled.artifact.path, uri: spilled.artifact.uri, preview, hasMore };
    return { modelContent: persistedEnvelope(input, info), strategy: 'artifact', truncated: true, originalBytes, artifact: spilled.artifact };
  }
  const parts = { ...spilled, head: capLongLines(spilled.head), tail: capLongLines(spilled.tail) };
  const truncated = input.budget.previewDirection
    ? truncateDirectional(parts, limit, input.budget.previewDirection, originalBytes)
    : truncateMiddleParts(parts, limit);
  const note = spilled.artifactError ? `\n${savingFailedNote(spilled.artifactError)}` : '';
  return { modelContent: truncated + note, strategy: 'truncate', truncated: true, originalBytes };
}

function savingFailedNote(reason: string): string {
  return `[The full output could not be saved: ${reason.replace(/\s+/g, ' ').slice(0, 300)}]`;
}

/**
 * Replaces each line longer than `MAX_LINE_CHARS` by a marker. Linear and without a line array:
 * `lastIndexOf` jumps a whole window of short lines at a time (splitting into lines and joining them
 * grew faster than the text).
 */
export function capLongLines(text: string, maxChars = MAX_LINE_CHARS): string {
  if (text.length <= maxChars) return text;
  let pieces: string[] | undefined;
  let copied = 0;
  let lineStart = 0;
  while (text.length - lineStart > maxChars) {
    // A line of at most maxChars chars starting here ends with a newline at or before windowEnd.
    const windowEnd = lineStart + maxChars;
    const newline = text.lastIndexOf('\n', windowEnd);
    if (newline >= lineStart) {
      lineStart = newline + 1;
      continue;
    }
    let lineEnd = text.indexOf('\n', windowEnd);
    if (lineEnd < 0) lineEnd = text.length;
    (pieces ??= []).push(text.slice(copied, lineStart), `[line truncated: ${lineEnd - lineStart} chars]`);
    copied = lineEnd;
    lineStart = lineEnd + 1;
  }
  if (!pieces) return text;
  pieces.push(text.slice(copied));
  return pieces.join('');
}

/** Keeps the head third and the tail third, line aligned, with one line naming what was left out. */
export function truncateMiddle(text: string, limitBytes: number): string {
  const { bytes, lines } = utf8BytesAndLines(text);
  return truncateMiddleParts({ head: text, tail: text, totalChars: text.length, totalBytes: bytes, totalLines: lines }, limitBytes);
}

/**
 * The head third of `head` and the tail third of `tail`, line aligned, around a line such as
 * `...[truncated 5200 chars; showing lines 1-14 and 187-201 of 201 total; use read with offset=15 to see middle]...`.
 */
export function truncateMiddleParts(parts: SpilledText, limitBytes: number): string {
  const third = Math.max(1, Math.floor(limitBytes / 3));
  let head = headWithinBytes(parts.head, third);
  const lastNewline = head.lastIndexOf('\n');
  if (lastNewline > 0) head = head.slice(0, lastNewline + 1);
  // Whole text: the tail comes from what the head left, so the two never overlap.
  const tailSource = parts.head === parts.tail ? parts.tail.slice(head.length) : parts.tail;
  let tail = tailWithinBytes(tailSource, third);
  const firstNewline = tail.indexOf('\n');
  if (firstNewline >= 0 && firstNewline < tail.length - 1) tail = tail.slice(firstNewline + 1);
  const omitted = Math.max(0, parts.totalChars - head.length - tail.length);
  const headLines = head.endsWith('\n') ? countLines(head) - 1 : countLines(head);
  const tailFirstLine = parts.totalLines - countLines(tail) + 1;
  const marker =
    `...[truncated ${omitted} chars; showing lines 1-${headLines} and ${tailFirstLine}-${parts.totalLines} of ${parts.totalLines} total;` +
    ` use read with offset=${headLines + 1} to see middle]...`;
  return `${head}${head.endsWith('\n') || head === '' ? '' : '\n'}${marker}\n${tail}`;
}

/** Keeps only the head or only the tail, then says so (tools that declare `previewDirection`). */
export function truncateDirectional(parts: SpilledText | string, limitBytes: number, direction: 'head' | 'tail', originalBytes: number): string {
  const { head, tail } = typeof parts === 'string' ? { head: parts, tail: parts } : parts;
  const note = `[Tool output truncated by resultBudget: original ${originalBytes} bytes, limit ${limitBytes} bytes, showing the ${direction}]`;
  const room = Math.max(0, limitBytes - utf8Bytes(note) - 1);
  // Spec §7: both end with the note, so the model reads what it saw before it is told what it missed.
  const kept = direction === 'head' ? headWithinBytes(head, room) : tailWithinBytes(tail, room);
  return `${kept}${kept.endsWith('\n') || kept === '' ? '' : '\n'}${note}`;
}

/**
 * The first `PREVIEW_CHARS` chars, cut at the last newline when it lies in the preview's second
 * half. `totalChars` tells whether there is more when `text` is itself only a head.
 */
export function previewOf(text: string, chars = PREVIEW_CHARS, totalChars = text.length): { preview: string; hasMore: boolean } {
  if (text.length <= chars && totalChars <= chars) return { preview: text, hasMore: false };
  let preview = headWithinChars(text, chars);
  const newline = preview.lastIndexOf('\n');
  if (newline >= chars / 2) preview = preview.slice(0, newline);
  return { preview, hasMore: true };
}

function persistedEnvelope(input: BudgetInput, info: PersistedOutputInfo): string {
  if (input.formatPersisted) {
    // A tool's own envelope that throws gets the generic one: the output is saved either way.
    try {
      const text = input.formatPersisted(info);
      if (typeof text === 'string') return text;
    } catch {}
  }
  return [
    '<persisted-output>',
    `Result too large (${info.originalChars} chars, ${formatBytes(info.originalBytes)}). Full output was saved to: ${info.path}`,
    'Use the read tool on this path (with offset and limit) if you need the full content.',
    '',
    `Preview (first ${PREVIEW_CHARS} chars):`,
    info.preview,
    ...(info.hasMore ? ['...'] : []),
    '</persisted-output>',
  ].join('\n');
}
