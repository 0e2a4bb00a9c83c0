// WebFetch: GETs an http(s) URL with a size cap and a 30 s timeout; HTML becomes Markdown. A redirect to
// another host is reported to the model, never followed silently; same-host redirects are followed.
import { z } from 'zod';
import type { MediaPart, ToolContext, ToolDefinition, ToolOutput } from '../../executor';
import { deferredSchema } from '../../executor';
import { projectErrorMessage } from '../../executor';
import { formatGoDuration } from '../../executor';
import { formatBytes } from '../../executor';
import { htmlToMarkdown } from './htmlToMarkdown';
import type { WebFetchOptions } from '../options';

/** A fetch's timeout, body included (the tool's description tells the model). */
export const WEBFETCH_TIMEOUT_MS = 30_000;
/** On top of the fetch's own timeout, so WebFetch reports its timeout before the executor's deadline. */
export const WEBFETCH_CLEANUP_GRACE_MS = 2_000;
/** Bytes of body read when the call gives no `max_bytes`. */
export const WEBFETCH_DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
/** The largest `max_bytes` a call may ask for (10 MB, the MAX_HTTP_CONTENT_LENGTH of the TypeScript executor the spec distils). */
export const WEBFETCH_MAX_BYTES = 10 * 1024 * 1024;
/** Same-host redirects followed before giving up. */
export const WEBFETCH_MAX_REDIRECTS = 5;
/** Model budget of a page (100000 chars, that executor's MAX_MARKDOWN_LENGTH); larger pages are persisted. */
export const WEBFETCH_MAX_MODEL_BYTES = 100_000;

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

const inputSchema = deferredSchema(() =>
  z.object({
    url: z.string().min(1).describe('An http:// or https:// URL.'),
    max_bytes: z.number().int().positive().optional().describe(`Body bytes to read (default ${WEBFETCH_DEFAULT_MAX_BYTES}, max ${WEBFETCH_MAX_BYTES}).`),
  }),
);
export type WebFetchInput = z.infer<ReturnType<typeof inputSchema>>;

export interface WebFetchData {
  readonly url: string;
  readonly status?: number;
  readonly contentType?: string;
  readonly bytes: number;
  readonly truncated: boolean;
  /** Set when the server redirected to another host. */
  readonly redirectTo?: string;
}

export function createWebFetchTool(options: WebFetchOptions = {}): ToolDefinition<WebFetchInput, WebFetchData> {
  const timeoutMs = options.timeoutMs ?? WEBFETCH_TIMEOUT_MS;
  return {
    name: 'WebFetch',
    description:
      `Fetches an http(s) URL (GET) and returns its content; HTML is converted to Markdown. Times out after ${formatGoDuration(timeoutMs)}; ` +
      'reads at most max_bytes. A redirect to another host is reported, not followed: fetch the new URL if you want it.',
    get inputSchema() {
      return inputSchema();
    },
    // A GET only reads; but it reaches beyond the machine (scope external), so it is not read-only to the
    // scheduler or the permission mode, and it is never dispatched early. It is safe to run alongside others.
    readOnly: true,
    concurrentSafe: true,
    sideEffectScope: 'external',
    timeout: { defaultMs: timeoutMs, cleanupGraceMs: WEBFETCH_CLEANUP_GRACE_MS },
    resultBudget: { maxModelBytes: WEBFETCH_MAX_MODEL_BYTES, strategy: 'artifact' },
    permissionSubject: (input) => ({ kind: 'url', url: input.url }),
    prepareApproval: (input) => ({ preview: { title: `Fetch ${hostOf(input.url)}`, detail: input.url } }),
    handler: (input, ctx) => fetchUrl(input, ctx, timeoutMs, options.userAgent ?? 'agent-tool-executor'),
  };
}

async function fetchUrl(input: WebFetchInput, ctx: ToolContext, timeoutMs: number, userAgent: string): Promise<ToolOutput<WebFetchData>> {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return failure(`${JSON.stringify(input.url)} is not a valid URL: give an absolute http:// or https:// URL.`, input.url);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return failure(`WebFetch fetches http and https URLs only, not ${url.protocol.slice(0, -1)}.`, input.url);
  }
  const maxBytes = Math.min(input.max_bytes ?? WEBFETCH_DEFAULT_MAX_BYTES, WEBFETCH_MAX_BYTES);
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new Error('timeout')), timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeout.signal]);
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await fetch(url, {
        redirect: 'manual',
        signal,
        headers: { 'user-agent': userAgent, accept: 'text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.8' },
      });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        const next = new URL(location, url);
        if (!sameHost(url, next)) return redirectReport(url, next, response.status);
        if (redirects >= WEBFETCH_MAX_REDIRECTS) return failure(`${input.url} redirected more than ${WEBFETCH_MAX_REDIRECTS} times; giving up.`, url.href);
        url = next;
        continue;
      }
      const body = await readCapped(response, maxBytes);
      return describe(url, response, body);
    }
  } catch (error) {
    ctx.throwIfAborted();
    if (timeout.signal.aborted) return failure(`WebFetch timed out after ${formatGoDuration(timeoutMs)} fetching ${url.href}.`, url.href);
    return failure(`cannot fetch ${url.href}: ${networkErrorMessage(error)}`, url.href);
  } finally {
    clearTimeout(timer);
  }
}

interface Body {
  readonly bytes: Uint8Array;
  readonly truncated: boolean;
}

/** Reads at most `maxBytes` of the body, then cancels the rest. */
async function readCapped(response: Response, maxBytes: number): Promise<Body> {
  if (!response.body) return { bytes: new Uint8Array(), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.length > maxBytes) {
        chunks.push(value.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(value);
      size += value.length;
    }
  } finally {
    if (truncated) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return { bytes: Buffer.concat(chunks), truncated };
}

function describe(url: URL, response: Response, body: Body): ToolOutput<WebFetchData> {
  const contentType = response.headers.get('content-type') ?? '';
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  const data: WebFetchData = { url: url.href, status: response.status, contentType, bytes: body.bytes.length, truncated: body.truncated };
  const header = [`URL: ${url.href}`, `Status: ${response.status} ${response.statusText}`.trim(), `Content-Type: ${contentType || '(none)'}`];
  const cut = body.truncated ? `\n\n[Content cut at ${formatBytes(body.bytes.length)}; ask for a larger max_bytes (up to ${formatBytes(WEBFETCH_MAX_BYTES)}) to read more.]` : '';
  const isError = response.status >= 400;
  if (IMAGE_TYPES.has(mime) && !body.truncated && !isError) {
    const media: MediaPart = { kind: 'image', mimeType: mime, data: body.bytes };
    return { content: `${header.join('\n')}\n\nImage (${formatBytes(body.bytes.length)}) is attached.`, media: [media], data };
  }
  if (!isTextual(mime) && body.bytes.length > 0) {
    return { content: `${header.join('\n')}\n\n(${formatBytes(body.bytes.length)} of ${mime || 'binary'} content, not shown.)`, isError, data };
  }
  const text = decode(body.bytes, contentType);
  let shown = text;
  if (mime === 'text/html' || mime === 'application/xhtml+xml') {
    const page = htmlToMarkdown(text, url.href);
    if (page.title) header.push(`Title: ${page.title}`);
    shown = page.markdown;
  }
  return { content: `${header.join('\n')}\n\n${shown === '' ? '(empty body)' : shown}${cut}`, isError, data };
}

function redirectReport(from: URL, to: URL, status: number): ToolOutput<WebFetchData> {
  return {
    content:
      `REDIRECT: ${from.href} redirects (HTTP ${status}) to another host: ${to.href}\n` +
      'It was not followed. To fetch it, call WebFetch again with that URL.',
    data: { url: from.href, status, bytes: 0, truncated: false, redirectTo: to.href },
  };
}

/** Same host name and port; an upgrade from http to https on the same host counts as the same. */
function sameHost(from: URL, to: URL): boolean {
  if (to.protocol !== 'http:' && to.protocol !== 'https:') return false;
  if (from.hostname !== to.hostname) return false;
  return from.port === to.port || (from.protocol === 'http:' && to.protocol === 'https:' && from.port === '' && to.port === '');
}

function isTextual(mime: string): boolean {
  return (
    mime === '' ||
    mime.startsWith('text/') ||
    /^application\/(json|xml|javascript|ecmascript|x-javascript|xhtml\+xml|x-yaml|yaml|toml|x-sh|graphql|ld\+json)$/.test(mime) ||
    mime.endsWith('+json') ||
    mime.endsWith('+xml')
  );
}

function decode(bytes: Uint8Array, contentType: string): string {
  const charset = /charset=["']?([\w.:-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** undici says only `fetch failed`; the reason (`ECONNREFUSED`, a DNS failure, a TLS error) is in its cause. */
function networkErrorMessage(error: unknown): string {
  let deepest: unknown = error;
  for (let cause = (error as { cause?: unknown })?.cause, depth = 0; cause !== undefined && depth < 12; depth++) {
    deepest = cause;
    cause = (cause as { cause?: unknown })?.cause;
  }
  return projectErrorMessage(deepest === error ? error : deepest);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function failure(message: string, url: string): ToolOutput<WebFetchData> {
  return { content: message, isError: true, data: { url, bytes: 0, truncated: false } };
}
