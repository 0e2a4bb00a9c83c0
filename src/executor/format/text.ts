// Text helpers that never split a UTF-8 character or a surrogate pair, and human-readable sizes.

const encoder = new TextEncoder();

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * `text.slice(start)` as a string of its own. V8 makes a slice of 13 chars or more a view that keeps its
 * whole parent alive: a stream that keeps the short tail of each long piece (the redaction stream's
 * holdback) would keep every piece alive through the next young-generation collection, and
 * that much survival makes V8 double its young generation, which raises the peak RSS of a command with
 * much output. A cons string is flattened by the slice into a new string of the tail's size.
 */
export function detachedSlice(text: string, start: number): string {
  return (' ' + text.slice(start)).slice(1);
}

/** The longest prefix of `text` within `maxBytes` UTF-8 bytes, never splitting a code point. */
export function headWithinBytes(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  // More chars than bytes allowed means more bytes too: no need to count a long text's bytes.
  if (text.length * 3 <= maxBytes || (text.length <= maxBytes && utf8Bytes(text) <= maxBytes)) return text;
  const { read } = encoder.encodeInto(text, new Uint8Array(maxBytes));
  return text.slice(0, read ?? 0);
}

/** The longest suffix of `text` within `maxBytes` UTF-8 bytes, never splitting a code point. */
export function tailWithinBytes(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  let start = Math.max(0, text.length - maxBytes);
  let tail = text.slice(start);
  let excess = utf8Bytes(tail) - maxBytes;
  while (excess > 0) {
    const { read } = encoder.encodeInto(tail, new Uint8Array(excess));
    const drop = Math.max(1, read ?? 0);
    start += drop;
    tail = text.slice(start);
    excess = utf8Bytes(tail) - maxBytes;
  }
  if (isLowSurrogate(text.charCodeAt(start)) && start > 0) {
    tail = text.slice(start + 1);
  }
  return tail;
}

/** A prefix of at most `maxChars` UTF-16 units that does not end inside a surrogate pair. */
export function headWithinChars(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = Math.max(0, maxChars);
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  return text.slice(0, end);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** `text` without a low surrogate at its start: the end of a pair whose high half was cut off. */
export function withoutLeadingLowSurrogate(text: string): string {
  return isLowSurrogate(text.charCodeAt(0)) ? text.slice(1) : text;
}

const SIZE_UNITS = ['KB', 'MB', 'GB', 'TB'];

/** `8 B`, `1.5 KB`, `58.6 KB`, `1.0 GB` (1024-based, one decimal). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${SIZE_UNITS[unit]}`;
}

/** Number of lines as an editor counts them (a trailing newline opens an empty last line). */
export function countLines(text: string): number {
  return countNewlines(text) + 1;
}

/** The `\n`s in `text`, or in its chars `from` to `to`. */
export function countNewlines(text: string, from = 0, to = text.length): number {
  let newlines = 0;
  for (let index = text.indexOf('\n', from); index !== -1 && index < to; index = text.indexOf('\n', index + 1)) newlines++;
  return newlines;
}

/**
 * Chars per block of `utf8BytesAndLines`: small enough that a block the byte count has just read is still
 * in the CPU's cache for the line count (docs/MEASUREMENTS.md, "Text measure").
 */
export const MEASURE_BLOCK_CHARS = 64 * 1024;

/**
 * `utf8Bytes(text)`, `countLines(text)` and the chars of its longest line (without the newline) in one
 * walk over the text, block by block, so a long text is read from memory once instead of two or three
 * times, so truncation scales linearly past the CPU's caches (docs/MEASUREMENTS.md, "Text measure"). A
 * block never ends between the two halves of a surrogate pair (each half alone would count 3 bytes, the
 * pair counts 4).
 */
export function utf8BytesAndLines(text: string): { bytes: number; lines: number; longestLine: number } {
  let bytes = 0;
  let newlines = 0;
  let lineStart = 0;
  let longestLine = 0;
  for (let from = 0; from < text.length; ) {
    let to = Math.min(text.length, from + MEASURE_BLOCK_CHARS);
    if (to < text.length && isHighSurrogate(text.charCodeAt(to - 1))) to++;
    bytes += utf8Bytes(text.slice(from, to));
    for (let index = text.indexOf('\n', from); index !== -1 && index < to; index = text.indexOf('\n', index + 1)) {
      newlines++;
      if (index - lineStart > longestLine) longestLine = index - lineStart;
      lineStart = index + 1;
    }
    from = to;
  }
  if (text.length - lineStart > longestLine) longestLine = text.length - lineStart;
  return { bytes, lines: newlines + 1, longestLine };
}
