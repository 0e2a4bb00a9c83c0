// Where Edit's `old_string` is in a file: exact first, then with the file's CRLF line endings, then with
// curly quotes taken as straight ones; and, when nothing matches, the nearby lines the model may have meant.
import { headWithinChars } from '../../executor/format/text';

/** Lines shown as "closest" when `old_string` is not found. */
export const EDIT_MAX_CANDIDATES = 3;
/** Similarity (bigram Dice, 0..1) a line needs to be offered as a candidate. */
export const EDIT_CANDIDATE_MIN_SIMILARITY = 0.5;
/** Lines of a file scanned for candidates (bounds the cost on huge files). */
export const EDIT_CANDIDATE_SCAN_LINES = 50_000;

export interface EditMatch {
  /** Start offsets in the file text, ascending, not overlapping. */
  readonly positions: readonly number[];
  /** Length of each matched span in the file text. */
  readonly length: number;
  /** The text put in place of each span. */
  readonly replacement: string;
  readonly how: 'exact' | 'line-endings' | 'quotes';
}

/** Finds `oldString`; `undefined` when it is nowhere, even after the line-ending and quote fallbacks. */
export function findEdit(text: string, oldString: string, newString: string): EditMatch | undefined {
  const exact = positionsOf(text, oldString);
  if (exact.length > 0) return { positions: exact, length: oldString.length, replacement: newString, how: 'exact' };
  if (text.includes('\r\n') && oldString.includes('\n')) {
    const crlfOld = toCrlf(oldString);
    const crlf = positionsOf(text, crlfOld);
    if (crlf.length > 0) return { positions: crlf, length: crlfOld.length, replacement: toCrlf(newString), how: 'line-endings' };
  }
  const straightOld = straightenQuotes(oldString);
  const quoted = positionsOf(straightenQuotes(text), straightOld);
  if (quoted.length > 0) return { positions: quoted, length: oldString.length, replacement: newString, how: 'quotes' };
  return undefined;
}

/** Replaces the first span (or all, when `all`) and returns the new text. */
export function applyEdit(text: string, match: EditMatch, all: boolean): string {
  const positions = all ? match.positions : match.positions.slice(0, 1);
  let out = '';
  let last = 0;
  for (const position of positions) {
    out += text.slice(last, position) + match.replacement;
    last = position + match.length;
  }
  return out + text.slice(last);
}

/** 1-based line of an offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) line++;
  return line;
}

/** Lines of the file close to the first line of `oldString`, as `  N: text`. */
export function closestLines(text: string, oldString: string): string[] {
  const target = oldString.split(/\r?\n/).find((line) => line.trim() !== '')?.trim();
  if (!target) return [];
  const lines = text.split(/\r?\n/, EDIT_CANDIDATE_SCAN_LINES);
  const scored: Array<{ line: number; score: number; text: string }> = [];
  lines.forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === '') return;
    const score = trimmed === target ? 1 : similarity(trimmed, target);
    if (score >= EDIT_CANDIDATE_MIN_SIMILARITY) scored.push({ line: index + 1, score, text: line });
  });
  return scored
    .sort((a, b) => b.score - a.score || a.line - b.line)
    .slice(0, EDIT_MAX_CANDIDATES)
    .map((entry) => `  ${entry.line}: ${headWithinChars(entry.text, 200)}`);
}

function positionsOf(text: string, search: string): number[] {
  const positions: number[] = [];
  if (search === '') return positions;
  for (let index = text.indexOf(search); index !== -1; index = text.indexOf(search, index + search.length)) positions.push(index);
  return positions;
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** One UTF-16 unit for one, so offsets in the straightened text are offsets in the original. */
function straightenQuotes(text: string): string {
  return text.replace(/[\u2018\u2019\u201A\u201B]/g, "'").replace(/[\u201C\u201D\u201E\u201F]/g, '"');
}

/** Dice coefficient of character bigrams. */
function similarity(a: string, b: string): number {
  if (a.length < 2 || b.length < 2) return a === b ? 1 : 0;
  const counts = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const gram = a.slice(i, i + 2);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const gram = b.slice(i, i + 2);
    const count = counts.get(gram) ?? 0;
    if (count > 0) {
      counts.set(gram, count - 1);
      shared++;
    }
  }
  return (2 * shared) / (a.length - 1 + b.length - 1);
}
