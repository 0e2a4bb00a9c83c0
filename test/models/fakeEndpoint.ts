// A fake model endpoint on 127.0.0.1 that speaks either wire format (OpenAI chat completions or
// Anthropic Messages) over real HTTP, for the unit, host and browser tests. It plays a small agent:
// asked to "write NAME", it calls Write (its input streamed in pieces) and, once the result is back,
// answers in one sentence; asked to "wait", it streams a few words and then holds the answer open until
// the client closes the connection, which it records. Every request is recorded with its headers.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeFormat = 'openai' | 'anthropic';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: any;
}

/** What the fake answers a chat request with, instead of its agent (an error, say). */
export type FakeAnswer = { readonly status: number; readonly headers?: Record<string, string>; readonly body: string } | { readonly sse: string };

export interface FakeEndpoint {
  /** `http://127.0.0.1:PORT/v1`: what the setting's baseUrl names. */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Chat requests whose connection the client closed before the answer ended. */
  readonly closedEarly: RecordedRequest[];
  /** The next chat requests get these answers, in order, instead of the agent's. */
  readonly answers: FakeAnswer[];
  /** Resolves once a held answer's connection has been closed by the client. */
  closed(): Promise<RecordedRequest>;
  stop(): Promise<void>;
}

/** The only model the fake lists and serves. */
export const FAKE_MODEL = 'fake-agent-1';
/** What its final answer says, so a test can find it in the reply. */
export const FAKE_DONE_TEXT = 'The endpoint model saw the tool result';
/** Tokens the fake reports as the prompt's, so a test can tell real counts from estimates. */
export const FAKE_PROMPT_TOKENS = 1234;

export async function startFakeEndpoint(format: FakeFormat): Promise<FakeEndpoint> {
  const requests: RecordedRequest[] = [];
  const closedEarly: RecordedRequest[] = [];
  const answers: FakeAnswer[] = [];
  let waiters: ((request: RecordedRequest) => void)[] = [];
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    readBody(req, (body) => {
      const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      if (req.method === 'GET' && req.url === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: [{ id: FAKE_MODEL, object: 'model', created: 1700000000, owned_by: 'fake', type: 'model', display_name: 'Fake Agent 1' }] }));
        return;
      }
      const chatPath = format === 'openai' ? '/v1/chat/completions' : '/v1/messages';
      if (req.method !== 'POST' || req.url !== chatPath) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const answer = answers.shift();
      if (answer && 'status' in answer) {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(answer.body);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if (answer) {
        res.end(answer.sse);
        return;
      }
      const plan = agentPlan(format, body);
      const encode = format === 'openai' ? openaiSse : anthropicSse;
      if (plan.kind === 'hold') {
        held.add(res);
        res.write(encode({ text: plan.text, calls: [], end: false }));
        // The client's Stop closes the connection; a normal end never comes.
        res.on('close', () => {
          held.delete(res);
          closedEarly.push(recorded);
          for (const waiter of waiters) waiter(recorded);
          waiters = [];
        });
        return;
      }
      res.end(encode({ text: plan.text, calls: plan.calls, end: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    closedEarly,
    answers,
    closed: () => (closedEarly.length > 0 ? Promise.resolve(closedEarly[closedEarly.length - 1]!) : new Promise((resolve) => waiters.push(resolve))),
    stop: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Reads a request's whole body, then hands it on as JSON (its text when it is not JSON, undefined when empty). */
export function readBody(req: http.IncomingMessage, then: (body: any) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    then(body);
  });
}

type Plan = { kind: 'hold'; text: string } | { kind: 'answer'; text: string; calls: { id: string; name: string; input: object }[] };

/** What the fake agent does next, from the request in either format. */
function agentPlan(format: FakeFormat, body: any): Plan {
  const messages: any[] = body?.messages ?? [];
  const last = messages[messages.length - 1];
  const hasResult = format === 'openai' ? last?.role === 'tool' : Array.isArray(last?.content) && last.content.some((block: any) => block.type === 'tool_result');
  if (hasResult) return { kind: 'answer', text: `${FAKE_DONE_TEXT}: ${resultText(format, last).slice(0, 80)}`, calls: [] };
  const prompt = textOf(last);
  if (/\bwait\b/i.test(prompt)) return { kind: 'hold', text: 'Thinking about it' };
  const asked = /\bwrite\s+([\w.-]+)/i.exec(prompt);
  const offered: string[] = (body?.tools ?? []).map((tool: any) => tool.name ?? tool.function?.name);
  if (asked && offered.includes('Write')) {
    return { kind: 'answer', text: `I'll write ${asked[1]}.`, calls: [{ id: format === 'openai' ? 'call_fake_write_1' : 'toolu_fake_write_1', name: 'Write', input: { file_path: asked[1], content: 'written by the endpoint model\n' } }] };
  }
  return { kind: 'answer', text: `No write asked (tools offered: ${offered.length}).`, calls: [] };
}

function textOf(message: any): string {
  if (typeof message?.content === 'string') return message.content;
  return (message?.content ?? []).map((part: any) => (typeof part?.text === 'string' ? part.text : '')).join('');
}

function resultText(format: FakeFormat, message: any): string {
  if (format === 'openai') return String(message.content);
  const block = message.content.find((item: any) => item.type === 'tool_result');
  return typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
}

interface Reply {
  readonly text: string;
  readonly calls: readonly { id: string; name: string; input: object }[];
  /** False: the stream stays open after the text (no end markers). */
  readonly end: boolean;
}

/** Cuts JSON text into pieces of about this many characters, as endpoints stream tool input. */
const PIECE_CHARS = 7;

function pieces(text: string): string[] {
  const out: string[] = [];
  for (let start = 0; start < text.length; start += PIECE_CHARS) out.push(text.slice(start, start + PIECE_CHARS));
  return out;
}

export function openaiSse(reply: Reply): string {
  const chunk = (delta: object, finish: string | null = null, usage?: object) => `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1700000000, model: FAKE_MODEL, choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
  let out = chunk({ role: 'assistant', content: '' });
  for (const word of reply.text.split(/(?<= )/)) out += chunk({ content: word });
  reply.calls.forEach((call, index) => {
    out += chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of pieces(JSON.stringify(call.input))) out += chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  if (!reply.end) return out;
  out += chunk({}, reply.calls.length > 0 ? 'tool_calls' : 'stop');
  out += chunk({}, null, { prompt_tokens: FAKE_PROMPT_TOKENS, completion_tokens: 42, total_tokens: FAKE_PROMPT_TOKENS + 42 });
  return `${out}data: [DONE]\n\n`;
}

export function anthropicSse(reply: Reply): string {
  const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  let out = event('message_start', { message: { id: 'msg_fake', type: 'message', role: 'assistant', content: [], model: FAKE_MODEL, stop_reason: null, usage: { input_tokens: FAKE_PROMPT_TOKENS, output_tokens: 1 } } });
  out += event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  for (const word of reply.text.split(/(?<= )/)) out += event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: word } });
  if (!reply.end) return out;
  out += event('content_block_stop', { index: 0 });
  reply.calls.forEach((call, offset) => {
    const index = offset + 1;
    out += event('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } });
    for (const piece of pieces(JSON.stringify(call.input))) out += event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    out += event('content_block_stop', { index });
  });
  out += event('message_delta', { delta: { stop_reason: reply.calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 42 } });
  return out + event('message_stop', {});
}
