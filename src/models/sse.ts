// Server-sent events (the WHATWG HTML "event stream" format) from a response body's byte chunks: both
// wire formats stream their answers this way. A line may be split across chunks, and a chunk may end
// inside a multi-byte character; both are put back together here.

export interface SseEvent {
  /** The `event:` field; undefined when the event named none (OpenAI's chunks). */
  readonly event: string | undefined;
  /** The `data:` lines, joined with newlines. */
  readonly data: string;
}

/** A line longer than this is not an event stream (a runaway body): it fails instead of filling memory. */
export const SSE_MAX_LINE_CHARS = 8 * 1024 * 1024;

/** The events of `chunks`, each as soon as its blank line has arrived. */
export async function* sseEvents(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let event: string | undefined;
  let data: string[] = [];
  let first = true;
  const take = function* (line: string): Generator<SseEvent> {
    if (line === '') {
      if (data.length > 0) yield { event, data: data.join('\n') };
      event = undefined;
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  };
  for await (const chunk of chunks) {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (first && pending.length > 0) {
      if (pending.charCodeAt(0) === 0xfeff) pending = pending.slice(1);
      first = false;
    }
    let end: number;
    while ((end = lineEnd(pending)) !== -1) {
      const line = pending.slice(0, end);
      // A CR at the very end may be the first half of a CRLF still to come.
      if (pending[end] === '\r' && end + 1 === pending.length) break;
      pending = pending.slice(end + (pending[end] === '\r' && pending[end + 1] === '\n' ? 2 : 1));
      yield* take(line);
    }
    if (pending.length > SSE_MAX_LINE_CHARS) throw new Error(`an event stream line is longer than ${SSE_MAX_LINE_CHARS} characters`);
  }
  // As the format says, an event without its closing blank line when the stream ends is dropped: a
  // truncated body then shows as a missing end marker in the format's parser.
}

function lineEnd(text: string): number {
  const lf = text.indexOf('\n');
  const cr = text.indexOf('\r');
  if (lf === -1) return cr;
  if (cr === -1) return lf;
  return Math.min(lf, cr);
}
