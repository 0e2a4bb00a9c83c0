// The bridge's framing on a byte stream (`Content-Length: N\r\n\r\n{...}`), strictly: vscode-jsonrpc's reader
// went on after a missing, negative or short Content-Length with the stream out of step (every later request
// unanswered, nothing said), and buffered a body of any announced size. Here:
//   - a frame whose body is no JSON-RPC message (not JSON, a batch, no method, a bad id) is answered with an
//     error (`onBadMessage`) and the stream goes on: its framing is intact;
//   - a header that cannot be read (no Content-Length, not a whole number, over BRIDGE_MAX_FRAME_BYTES, a
//     header section without an end) or a stream that ends inside a frame is fatal: where the next frame
//     starts is unknown, so the reader reports a `FramingError` and stops reading.
// No vscode import: `tool-exec serve` uses it.
import { AbstractMessageReader, AbstractMessageWriter, type DataCallback, type Disposable, type Message, type MessageWriter } from 'vscode-jsonrpc';

/** Largest body a frame may announce: the ACP SDK's limit for one message, so both protocols take the same. */
export const BRIDGE_MAX_FRAME_BYTES = 32 * 1024 * 1024;
/** Longest header section: LSP framing sends one or two short headers. Ours. */
export const BRIDGE_MAX_HEADER_BYTES = 8 * 1024;

const HEADER_END = Buffer.from('\r\n\r\n');

/** The stream broke the framing: nothing after it can be read. */
export class FramingError extends Error {
  override readonly name = 'FramingError';
}

/** A frame whose body is not a JSON-RPC message: answered with this error. */
export interface BadMessage {
  readonly id: string | number | null;
  readonly code: number;
  readonly message: string;
}

/** JSON-RPC's codes for a body that is not JSON, and for JSON that is not a request. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
/** The one notification vscode-jsonrpc reads the params of itself. */
const CANCEL_REQUEST = '$/cancelRequest';

function isId(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}

export class FramedMessageReader extends AbstractMessageReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** The body length of the frame being read; undefined while reading headers. */
  private bodyLength: number | undefined;
  private stopped = false;
  /** Requests (a method and an id) handed on: each is owed an answer. */
  requestsRead = 0;

  constructor(
    private readonly readable: NodeJS.ReadableStream,
    private readonly onBadMessage: (bad: BadMessage) => void,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const onData = (chunk: Buffer | string) => this.read(typeof chunk === 'string' ? Buffer.from(chunk) : chunk, callback);
    const onEnd = () => {
      if (!this.stopped && (this.bodyLength !== undefined || this.buffered > 0)) {
        this.fail(this.bodyLength === undefined ? 'the stream ended inside a frame\'s header' : `the stream ended inside a frame: ${this.buffered} of ${this.bodyLength} bytes`);
      }
      this.fireClose();
    };
    const onError = (error: Error) => this.fireError(error);
    this.readable.on('data', onData);
    this.readable.once('end', onEnd);
    this.readable.once('close', onEnd);
    this.readable.on('error', onError);
    return {
      dispose: () => {
        this.readable.off('data', onData);
        this.readable.off('end', onEnd);
        this.readable.off('close', onEnd);
        this.readable.off('error', onError);
      },
    };
  }

  private read(chunk: Buffer, callback: DataCallback): void {
    if (this.stopped) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (this.bodyLength === undefined) {
        const bytes = this.take(this.buffered);
        const end = bytes.indexOf(HEADER_END);
        if (end < 0) {
          this.keep(bytes);
          if (this.buffered > BRIDGE_MAX_HEADER_BYTES) this.fail(`a header section longer than ${BRIDGE_MAX_HEADER_BYTES} bytes without its end (\\r\\n\\r\\n)`);
          return;
        }
        const length = contentLength(bytes.subarray(0, end).toString('latin1'));
        this.keep(bytes.subarray(end + HEADER_END.length));
        if (typeof length === 'string') return this.fail(length);
        this.bodyLength = length;
      }
      if (this.buffered < this.bodyLength) return;
      const bytes = this.take(this.buffered);
      const body = bytes.subarray(0, this.bodyLength);
      this.keep(bytes.subarray(this.bodyLength));
      this.bodyLength = undefined;
      const message = messageOf(body);
      if (!('jsonrpc' in message)) {
        this.onBadMessage(message);
        continue;
      }
      if ('method' in message && 'id' in message) this.requestsRead++;
      try {
        callback(message);
      } catch (error) {
        this.fireError(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  private take(length: number): Buffer {
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, length);
    this.chunks = [];
    this.buffered = 0;
    return bytes;
  }

  private keep(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.chunks = [bytes];
    this.buffered = bytes.length;
  }

  private fail(why: string): void {
    this.stopped = true;
    this.chunks = [];
    this.buffered = 0;
    this.bodyLength = undefined;
    this.fireError(new FramingError(why));
  }
}

/**
 * Writes each message as one frame in one write, at once, in order. vscode-jsonrpc's writer queues every
 * message behind a lock and writes header and body apart: a batch's events (three or four per call) piled up
 * in that queue, whose shift made the writing quadratic. Here nothing queues: a reader that falls behind
 * blocks the synchronous write instead.
 */
export class FrameWriter extends AbstractMessageWriter implements MessageWriter {
  constructor(private readonly out: { write(text: string): void }) {
    super();
  }

  write(message: Message): Promise<void> {
    const json = JSON.stringify(message);
    this.out.write(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
    return Promise.resolve();
  }

  end(): void {}
}

/** The body length a header section announces, or why it announces none that can be read. */
function contentLength(headers: string): number | string {
  let value: string | undefined;
  for (const line of headers.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) return `a header line that is not "Name: value": ${JSON.stringify(line.slice(0, 80))}`;
    if (line.slice(0, colon).trim().toLowerCase() === 'content-length') value = line.slice(colon + 1).trim();
  }
  if (value === undefined) return 'a frame without a Content-Length header';
  if (!/^\d{1,16}$/.test(value)) return `Content-Length must be a whole number of bytes, got ${JSON.stringify(value.slice(0, 40))}`;
  const length = Number(value);
  if (length > BRIDGE_MAX_FRAME_BYTES) return `a frame of ${length} bytes is over the limit of ${BRIDGE_MAX_FRAME_BYTES} bytes`;
  return length;
}

/** The body as a JSON-RPC message, or the error it is answered with. */
function messageOf(body: Buffer): Message | BadMessage {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (error) {
    return { id: null, code: PARSE_ERROR, message: `parse error: the body is not JSON in UTF-8 (${error instanceof Error ? error.message : String(error)})` };
  }
  if (Array.isArray(value)) return { id: null, code: INVALID_REQUEST, message: 'invalid request: JSON-RPC batches are not supported' };
  if (typeof value !== 'object' || value === null) return { id: null, code: INVALID_REQUEST, message: 'invalid request: a message is a JSON object' };
  const fields = value as Record<string, unknown>;
  const id = isId(fields.id) ? fields.id : null;
  const invalid = (why: string): BadMessage => ({ id, code: INVALID_REQUEST, message: `invalid request: ${why}` });
  if (fields.jsonrpc !== '2.0') return invalid('"jsonrpc" must be "2.0"');
  if ('method' in fields) {
    if (typeof fields.method !== 'string') return invalid('"method" must be a string');
    if ('id' in fields && id === null) return invalid('"id" must be a string or a number');
    if ('params' in fields && (typeof fields.params !== 'object' || fields.params === null)) return invalid('"params" must be an object or an array');
    if (fields.method === CANCEL_REQUEST && !isId((fields.params as { id?: unknown } | undefined)?.id)) return invalid(`${CANCEL_REQUEST} needs params.id, a string or a number`);
    return fields as unknown as Message;
  }
  if (id !== null && ('result' in fields || 'error' in fields)) return fields as unknown as Message;
  return invalid('neither a request (no "method") nor a response');
}
