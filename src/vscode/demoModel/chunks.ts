// How the scripted demo model streams text: a few chunks cut at word boundaries, like a real model.

/** Chunks per text part: enough to see streaming in the chat view, few enough to stay quick. */
export const TEXT_CHUNKS = 3;

/** Splits `text` into at most `chunks` pieces at spaces; joined, they give `text` back. */
export function chunkText(text: string, chunks = TEXT_CHUNKS): string[] {
  const target = Math.ceil(text.length / chunks);
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    if (pieces.length === chunks - 1) {
      pieces.push(text.slice(start));
      break;
    }
    const space = text.indexOf(' ', start + target);
    const end = space === -1 ? text.length : space + 1;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}
