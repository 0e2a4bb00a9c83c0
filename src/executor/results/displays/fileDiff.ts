// The `file_diff` display (spec §9), built with the `diff` package: at most 8 hunks and 160
// lines of unified diff, marked when cut. Tools that edit files call `buildFileDiffDisplay`.
import { structuredPatch } from 'diff';
import type { FileDiffDisplay } from '../../contract/contract';
import { headWithinBytes, utf8Bytes } from '../../format/text';

/** Spec §9. */
export const FILE_DIFF_MAX_HUNKS = 8;
export const FILE_DIFF_MAX_LINES = 160;
/** Lines of context around each change (git's default). */
export const FILE_DIFF_CONTEXT_LINES = 3;
/** `before`/`after` larger than this are not carried in the display (the diff editor reads the file instead). */
export const FILE_DIFF_MAX_CONTENT_BYTES = 1024 * 1024;
/** Bounds the diff computation on large rewrites (jsdiff's `maxEditLength`): past it, no hunks, marked cut. */
export const FILE_DIFF_MAX_EDIT_LENGTH = 20_000;
/**
 * A diff line longer than this is cut, with a marker (a minified file is one line): 160 lines of at most
 * this many chars keep the diff text near 100 KB however large the file.
 */
export const FILE_DIFF_MAX_LINE_CHARS = 600;

/** The display of one file change. `before` is '' for a new file, `after` '' for a deleted one. */
export function buildFileDiffDisplay(path: string, before: string, after: string): FileDiffDisplay {
  const patch = structuredPatch(path, path, before, after, undefined, undefined, {
    context: FILE_DIFF_CONTEXT_LINES,
    maxEditLength: FILE_DIFF_MAX_EDIT_LENGTH,
  });
  const lines = [`--- ${path}`, `+++ ${path}`];
  let truncated = patch === undefined;
  const hunks = patch?.hunks ?? [];
  if (hunks.length > FILE_DIFF_MAX_HUNKS) truncated = true;
  outer: for (const hunk of hunks.slice(0, FILE_DIFF_MAX_HUNKS)) {
    const header = `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;
    for (const line of [header, ...hunk.lines]) {
      if (lines.length >= FILE_DIFF_MAX_LINES) {
        truncated = true;
        break outer;
      }
      lines.push(line.length > FILE_DIFF_MAX_LINE_CHARS ? cutLine(line) : line);
      if (line.length > FILE_DIFF_MAX_LINE_CHARS) truncated = true;
    }
  }
  if (truncated) lines.push('… diff truncated');
  const large = utf8Bytes(before) > FILE_DIFF_MAX_CONTENT_BYTES || utf8Bytes(after) > FILE_DIFF_MAX_CONTENT_BYTES;
  return {
    kind: 'file_diff',
    path,
    before: large ? headWithinBytes(before, FILE_DIFF_MAX_CONTENT_BYTES) : before,
    after: large ? headWithinBytes(after, FILE_DIFF_MAX_CONTENT_BYTES) : after,
    diff: lines.join('\n'),
    truncated: truncated || large,
  };
}

/** The line's start, within the limit, and how much of it is not shown; never splits a surrogate pair. */
function cutLine(line: string): string {
  let end = FILE_DIFF_MAX_LINE_CHARS;
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${line.slice(0, end)}… [${line.length - end} more chars on this line]`;
}
