// A stand-in for the Gemini API on 127.0.0.1, for running the real Gemini CLI offline. It serves what the CLI
// (through @google/genai) asks of `GOOGLE_GEMINI_BASE_URL`:
//   POST /v1beta/models/<model>:streamGenerateContent?alt=sse  → the next scripted model turn, as server-sent events
//   POST /v1beta/models/<model>:countTokens                    → an estimate of the request's tokens
// and answers anything else with the API's own 404 error shape. Every request is recorded, so a test can
// assert on what reached the model (the prompt, a tool's result, that a secret did not).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One part of a model turn, as the Gemini API's `Content.parts` holds it. */
export type ModelPart = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };

/** A scripted model turn, or a function of the request it answers (to answer with what the request carried). */
export type ScriptedTurn = readonly ModelPart[] | ((request: GenerateRequest) => readonly ModelPart[]);

/** The body of a generateContent request, as far as the tests read it. */
export interface GenerateRequest {
  readonly contents: ReadonlyArray<{ role?: string; parts: ReadonlyArray<Record<string, unknown>> }>;
  readonly systemInstruction?: unknown;
  readonly tools?: ReadonlyArray<{ functionDeclarations?: ReadonlyArray<{ name: string }> }>;
}

export interface RecordedRequest {
  readonly method: string;
  /** The path and query, e.g. `/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`. */
  readonly url: string;
  /** `x-goog-api-key`, as the CLI sent it. */
  readonly apiKey: string | undefined;
  /** The parsed JSON body (undefined when there was none). */
  readonly body: GenerateRequest | undefined;
  /** The raw body text, for asserting that a string never reached the model. */
  readonly text: string;
}

/** Characters per token for the estimate in `usageMetadata`: the Gemini API documents about 4 for English text. */
const CHARS_PER_TOKEN = 4;
/** A request body above this is refused: the CLI's largest prompt in these tests is far below it. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** A reply's text is streamed in chunks of this many characters, as the real service streams a long answer. */
const STREAM_CHUNK_CHARS = 24;

const STREAM = /^\/v1beta\/models\/([^/:]+):streamGenerateContent(?:\?|$)/;
const COUNT = /^\/v1beta\/models\/([^/:]+):countTokens(?:\?|$)/;

export class FakeGeminiService {
  readonly requests: RecordedRequest[] = [];
  private readonly turns: ScriptedTurn[];

  private constructor(
    private readonly server: Server,
    turns: readonly ScriptedTurn[],
  ) {
    this.turns = [...turns];
  }

  /** Listens on 127.0.0.1 (a free port); each streamGenerateContent answers the next turn, then a plain text. */
  static async start(turns: readonly ScriptedTurn[]): Promise<FakeGeminiService> {
    let service: FakeGeminiService | undefined;
    const server = createServer((request, response) => void service!.handle(request, response));
    service = new FakeGeminiService(server, turns);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    return service;
  }

  /** What to set `GOOGLE_GEMINI_BASE_URL` to. */
  get baseUrl(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** The model turns the CLI asked for (streamGenerateContent), in order. */
  get generations(): RecordedRequest[] {
    return this.requests.filter((request) => STREAM.test(request.url));
  }

  /** Scripts more turns after those left. */
  script(...turns: ScriptedTurn[]): void {
    this.turns.push(...turns);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await bodyOf(request).catch(() => undefined);
    if (text === undefined) return reply(response, 413, errorBody(413, 'Request payload size exceeds the limit.', 'INVALID_ARGUMENT'));
    let body: GenerateRequest | undefined;
    try {
      body = text === '' ? undefined : (JSON.parse(text) as GenerateRequest);
    } catch {
      return reply(response, 400, errorBody(400, 'Invalid JSON payload received.', 'INVALID_ARGUMENT'));
    }
    const header = request.headers['x-goog-api-key'];
    this.requests.push({ method: request.method ?? '', url: request.url ?? '', apiKey: typeof header === 'string' ? header : undefined, body, text });
    const url = request.url ?? '';
    const stream = STREAM.exec(url);
    if (request.method === 'POST' && stream && body) return this.stream(response, stream[1]!, body, text);
    if (request.method === 'POST' && COUNT.test(url)) return reply(response, 200, { totalTokens: tokensOf(text) });
    return reply(response, 404, errorBody(404, `The fake Gemini service does not serve ${request.method} ${url}.`, 'NOT_FOUND'));
  }

  private stream(response: ServerResponse, model: string, body: GenerateRequest, text: string): void {
    const next = this.turns.shift();
    const parts = next === undefined ? [{ text: 'The scripted turns are over.' }] : typeof next === 'function' ? next(body) : next;
    const promptTokenCount = tokensOf(text);
    const candidatesTokenCount = tokensOf(JSON.stringify(parts));
    // The service streams text in pieces and a function call whole; usage comes with the last piece.
    const pieces: ModelPart[][] = [];
    for (const part of parts) {
      if ('text' in part) for (let at = 0; at < Math.max(part.text.length, 1); at += STREAM_CHUNK_CHARS) pieces.push([{ text: part.text.slice(at, at + STREAM_CHUNK_CHARS) }]);
      else pieces.push([part]);
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    pieces.forEach((piece, index) => {
      const last = index === pieces.length - 1;
      const chunk = {
        candidates: [{ content: { role: 'model', parts: piece }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
        usageMetadata: last
          ? { promptTokenCount, candidatesTokenCount, totalTokenCount: promptTokenCount + candidatesTokenCount, promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokenCount }] }
          : { promptTokenCount, totalTokenCount: promptTokenCount },
        modelVersion: model,
        responseId: `fake-${this.requests.length}`,
      };
      response.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    });
    response.end();
  }
}

/** The text of every part of the request's contents (user prompts, function calls and responses), joined. */
export function contentsText(body: GenerateRequest | undefined): string {
  return JSON.stringify(body?.contents ?? []);
}

/** The function responses the request carries back to the model, in order. */
export function functionResponses(body: GenerateRequest | undefined): Array<{ name: string; response: Record<string, unknown> }> {
  const found: Array<{ name: string; response: Record<string, unknown> }> = [];
  for (const content of body?.contents ?? []) {
    for (const part of content.parts) {
      const response = part.functionResponse as { name: string; response: Record<string, unknown> } | undefined;
      if (response) found.push(response);
    }
  }
  return found;
}

function tokensOf(text: string): number {
  return Math.max(1, Math.ceil(text.length / CHARS_PER_TOKEN));
}

function bodyOf(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('too large'));
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  response.end(JSON.stringify(body));
}

/** The Google APIs' error body. */
function errorBody(code: number, message: string, status: string): unknown {
  return { error: { code, message, status } };
}
