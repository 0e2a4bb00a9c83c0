// Raw LSP framing for the bridge's framing tests: frames written byte for byte, and the answers read back.

/** One frame: `Content-Length` and the body, as bytes. */
export function frame(body: string | object, headers?: string): Buffer {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from(headers ?? `Content-Length: ${bytes.length}\r\n\r\n`, 'latin1'), bytes]);
}

export const request = (id: number, method = 'executor/listTools', params: object = {}) => ({ jsonrpc: '2.0', id, method, params });

export interface Answer {
  readonly id: string | number | null;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string };
  readonly method?: string;
}

/** Reads whole frames from a byte stream as they come. */
export class FrameParser {
  readonly messages: Answer[] = [];
  private pending = Buffer.alloc(0);

  push(chunk: Buffer | string): void {
    this.pending = Buffer.concat([this.pending, typeof chunk === 'string' ? Buffer.from(chunk) : chunk]);
    for (;;) {
      const end = this.pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.pending.subarray(0, end).toString('latin1'))?.[1]);
      if (this.pending.length < end + 4 + length) return;
      this.messages.push(JSON.parse(this.pending.subarray(end + 4, end + 4 + length).toString('utf8')) as Answer);
      this.pending = this.pending.subarray(end + 4 + length);
    }
  }

  /** The answers (not notifications). */
  get answers(): Answer[] {
    return this.messages.filter((message) => message.method === undefined);
  }
}

/** Rejects when `promise` has not settled within `ms`: a hang guard, not a speed check. */
export function hangGuard<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`hung: ${what}`)), ms)));
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}
