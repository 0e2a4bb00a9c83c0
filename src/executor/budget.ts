// Result budgets (spec §7): inline, spill to an artifact, or keep the head and tail thirds.
import type { PersistedOutputInfo, ResultBudget } from './contract';
import { projectErrorMessage } from './errors';
import type { ArtifactRef, BudgetStrategy } from './result';
import { countLines, formatBytes, headWithinBytes, tailWithinBytes, utf8Bytes } from './text';

/** A line longer than this is replaced by `[line truncated: N chars]` in model content (our choice; W names none). */
export const MAX_LINE_CHARS = 10_000;
/** Spec §7: successful read-only results get three times the budget. */
export const READ_ONLY_BUDGET_FACTOR = 3;
/** Spec §7: spill to an artifact only past max(20000 chars, 3 × budget). */
export const SPILL_MIN_CHARS = 20_000;
export const SPILL_BUDGET_FACTOR = 3;
/** Spec §7: the artifact envelope previews the first 2000 chars. */
export const PREVIEW_CHARS = 2000;
/** Z's default budget for tools that declare none (result-serialization.ts: 256 KiB). */
export const DEFAULT_MAX_MODEL_BYTES = 256 * 1024;

export interface BudgetInput {
  readonly toolName: string;
  readonly text: string;
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

/** Sizes one result for the model. A failed artifact write falls back to truncation and never fails the call. */
export async function applyBudget(input: BudgetInput): Promise<BudgetOutcome> {
  const { text, budget } = input;
  const originalBytes = utf8Bytes(text);
  const capped = capLongLines(text);
  const factor = input.readOnlySuccess ? READ_ONLY_BUDGET_FACTOR : 1;
  const limit = Math.min(budget.maxModelBytes, budget.maxInlineBytes ?? Number.POSITIVE_INFINITY) * factor;
  if (utf8Bytes(capped) <= limit) {
    return { modelContent: capped, strategy: 'inline', truncated: capped !== text, originalBytes };
  }
  let note: string | undefined;
  const spillAt = Math.max(SPILL_MIN_CHARS, SPILL_BUDGET_FACTOR * limit);
  if (budget.strategy === 'artifact' && text.length > spillAt && input.persist) {
    try {
      const artifact = await input.persist(text);
      const modelContent = persistedEnvelope(input, text, originalBytes, artifact);
      return { modelContent, strategy: 'artifact', truncated: true, originalBytes, artifact };
    } catch (error) {
      note = `[The full output could not be saved: ${projectErrorMessage(error)}]`;
    }
  }
  const truncated = budget.previewDirection
    ? truncateDirectional(capped, limit, budget.previewDirection, originalBytes)
    : truncateMiddle(capped, limit);
  return { modelContent: note ? `${truncated}\n${note}` : truncated, strategy: 'truncate', truncated: true, originalBytes };
}

/** Replaces each line longer than `MAX_LINE_CHARS` by a marker. */
export function capLongLines(text: string, maxChars = MAX_LINE_CHARS): string {
  if (text.length <= maxChars) return text;
  return text
    .split('\n')
    .map((line) => (line.length > maxChars ? `[line truncated: ${line.length} chars]` : line))
    .join('\n');
}

/** Keeps the head third and the tail third, line aligned, with one line naming what was left out. */
export function truncateMiddle(text: string, limitBytes: number): string {
  const third = Math.max(1, Math.floor(limitBytes / 3));
  let head = headWithinBytes(text, third);
  const lastNewline = head.lastIndexOf('\n');
  if (lastNewline > 0) head = head.slice(0, lastNewline + 1);
  let tail = tailWithinBytes(text.slice(head.length), third);
  const firstNewline = tail.indexOf('\n');
  if (firstNewline >= 0 && firstNewline < tail.length - 1) tail = tail.slice(firstNewline + 1);
  const omitted = text.length - head.length - tail.length;
  const totalLines = countLines(text);
  const headLines = head.endsWith('\n') ? countLines(head) - 1 : countLines(head);
  const tailFirstLine = totalLines - countLines(tail) + 1;
  const marker =
    `...[truncated ${omitted} chars; showing lines 1-${headLines} and ${tailFirstLine}-${totalLines} of ${totalLines} total;` +
    ` use read with offset=${headLines + 1} to see middle]...`;
  return `${head}${head.endsWith('\n') ? '' : '\n'}${marker}\n${tail}`;
}

/** Keeps only the head or only the tail, then says so (tools that declare `previewDirection`). */
export function truncateDirectional(text: string, limitBytes: number, direction: 'head' | 'tail', originalBytes: number): string {
  const note = `[Tool output truncated by resultBudget: original ${originalBytes} bytes, limit ${limitBytes} bytes, showing the ${direction}]`;
  const room = Math.max(0, limitBytes - utf8Bytes(note) - 1);
  return direction === 'head' ? `${headWithinBytes(text, room)}\n${note}` : `${note}\n${tailWithinBytes(text, room)}`;
}

/** The first `PREVIEW_CHARS` chars, cut at the last newline when it lies in the preview's second half. */
export function previewOf(text: string, chars = PREVIEW_CHARS): { preview: string; hasMore: boolean } {
  if (text.length <= chars) return { preview: text, hasMore: false };
  let preview = text.slice(0, chars);
  if (/[\ud800-\udbff]$/.test(preview)) preview = preview.slice(0, -1);
  const newline = preview.lastIndexOf('\n');
  if (newline >= chars / 2) preview = preview.slice(0, newline);
  return { preview, hasMore: true };
}

function persistedEnvelope(input: BudgetInput, text: string, originalBytes: number, artifact: ArtifactRef): string {
  const { preview, hasMore } = previewOf(capLongLines(text));
  const info: PersistedOutputInfo = { originalBytes, originalChars: text.length, path: artifact.path, uri: artifact.uri, preview, hasMore };
  if (input.formatPersisted) return input.formatPersisted(info);
  return [
    '<persisted-output>',
    `Output too large (${text.length} chars, ${formatBytes(originalBytes)}). Full output saved to: ${artifact.path}`,
    `Use the Read tool on this path (with offset and limit) if you need the full content.`,
    '',
    `Preview (first ${PREVIEW_CHARS} chars):`,
    preview,
    ...(hasMore ? ['...'] : []),
    '</persisted-output>',
  ].join('\n');
}
