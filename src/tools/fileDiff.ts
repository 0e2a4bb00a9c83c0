// The `file_diff` display of Write and Edit (spec §9): a unified diff limited to 8 hunks and 160 lines.
import { structuredPatch } from 'diff';
import type { FileDiffDisplay } from '../executor/contract';

/** Spec §9: a `file_diff` display shows at most 8 hunks. */
export const FILE_DIFF_MAX_HUNKS = 8;
/** Spec §9: ... and at most 160 lines. */
export const FILE_DIFF_MAX_LINES = 160;
/** Context lines around each change (the unified-diff default). */
export const FILE_DIFF_CONTEXT_LINES = 3;

/** Builds the display; `truncated` says when hunks or lines were left out. */
export function buildFileDiffDisplay(displayPath: string, before: string, after: string): FileDiffDisplay {
  const patch = structuredPatch(displayPath, displayPath, before, after, '', '', { context: FILE_DIFF_CONTEXT_LINES });
  const lines: string[] = [`--- ${before === '' ? '/dev/null' : `a/${displayPath}`}`, `+++ b/${displayPath}`];
  let truncated = patch.hunks.length > FILE_DIFF_MAX_HUNKS;
  for (const hunk of patch.hunks.slice(0, FILE_DIFF_MAX_HUNKS)) {
    const header = `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;
    if (lines.length + 1 >= FILE_DIFF_MAX_LINES) {
      truncated = true;
      break;
    }
    lines.push(header);
    for (const line of hunk.lines) {
      if (lines.length >= FILE_DIFF_MAX_LINES) {
        truncated = true;
        break;
      }
      lines.push(line);
    }
    if (truncated) break;
  }
  return { kind: 'file_diff', path: displayPath, before, after, diff: lines.join('\n'), truncated };
}
