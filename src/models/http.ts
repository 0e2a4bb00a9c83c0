// One HTTP request to a model endpoint with node:http(s), which VS Code's extension host routes through
// the user's proxy settings. Aborting the signal destroys the socket, so the endpoint sees the
// connection close and stops generating.
import * as http from 'node:http';
import * as https from 'node:https';

export interface HttpResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  /** The body's chunks as they arrive; ends with the body, or throws when the connection breaks. */
  readonly body: AsyncIterable<Buffer>;
}

/** An error body is read up to this for its reason; the rest is dropped. */
export const ERROR_BODY_MAX_BYTES = 64 * 1024;

/**
 * Sends `body` (JSON) or a GET to `url`; resolves once the response headers are in. Rejects with the
 * socket's error (its `code`: ECONNREFUSED, …), or with an AbortError when `signal` aborts first.
 */
export function request(url: URL, options: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown }, signal: AbortSignal): Promise<HttpResponse> {
  if (signal.aborted) return Promise.reject(abortError());
  const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body), 'utf8');
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: options.method,
      headers: { accept: 'application/json, text/event-stream', ...options.headers, ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}) },
      // A fresh connection per request: a stopped answer closes its socket, which must not be reused.
      agent: false,
    });
    const onAbort = () => req.destroy(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    req.on('response', (res) => {
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bodyOf(res, req, signal, onAbort) });
    });
    req.end(payload);
  });
}

async function* bodyOf(res: http.IncomingMessage, req: http.ClientRequest, signal: AbortSignal, onAbort: () => void): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of res) {
      if (signal.aborted) throw abortError();
      yield chunk as Buffer;
    }
    if (signal.aborted) throw abortError();
    if (!res.complete) throw Object.assign(new Error('the connection closed before the answer ended'), { code: 'ECONNRESET' });
  } catch (error) {
    // Destroying the request breaks the body with "aborted": that was us, so it is a cancellation.
    throw signal.aborted ? abortError() : error;
  } finally {
    signal.removeEventListener('abort', onAbort);
    // A consumer that stops early (an error in the stream, a cancelled answer) ends the request too.
    if (!res.complete) req.destroy();
  }
}

/** The first `ERROR_BODY_MAX_BYTES` of a body as text. */
export async function readText(body: AsyncIterable<Buffer>, maxBytes = ERROR_BODY_MAX_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= maxBytes) break;
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
}

export function abortError(): Error {
  return Object.assign(new Error('The request was cancelled.'), { name: 'AbortError' });
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
