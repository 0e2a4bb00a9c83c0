// Approval previews: what a call will do, from its input alone (the preview never touches the disk).
import { headWithinChars } from '../../executor/format/text';

/** Lines of content an approval dialog shows. */
export const PREVIEW_MAX_LINES = 40;
/** Characters per previewed line. */
export const PREVIEW_MAX_LINE_CHARS = 200;

/** The first lines of `text`, each line bounded, with a note of what was left out. */
export function previewLines(text: string, prefix = ''): string {
  const lines = text.split(/\r?\n/);
  const shown = lines.slice(0, PREVIEW_MAX_LINES).map((line) => prefix + headWithinChars(line, PREVIEW_MAX_LINE_CHARS));
  if (lines.length > PREVIEW_MAX_LINES) shown.push(`… (${lines.length - PREVIEW_MAX_LINES} more lines)`);
  return shown.join('\n');
}

export function countTextLines(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}
