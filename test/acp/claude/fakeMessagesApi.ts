// A fake of Anthropic's Messages API on 127.0.0.1 for Claude's real ACP agent: real HTTP, answers streamed as
// server-sent events as the API streams them (test/models/fakeEndpoint.ts `anthropicSse`: message_start with
// usage, a text block, a tool_use block whose input arrives as input_json_delta pieces, message_delta with
// stop_reason and usage, message_stop). It plays a script: a request's step is how many of the script's own
// tool calls it answers, and a step is a tool call of the agent's (Write, Edit, Read) or closing text.
// Requests without tools (the session's title) and Claude Code's requests for a suggested next prompt get a
// short text. It is also the agent's HTTP(S) proxy, so a request to any other host is recorded here (and
// refused) instead of leaving the machine. Every request is recorded.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicSse, readBody } from '../../models/fakeEndpoint';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: any;
}

/** One answer of the scripted model: a tool call of the agent's own tools, or its closing words. */
export type ScriptStep = { readonly text: string; readonly tool: string; readonly input: Record<string, unknown> } | { readonly text: string };

export interface FakeMessagesApi {
  /** `http://127.0.0.1:PORT`: ANTHROPIC_BASE_URL (the agent adds /v1/messages). */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** What the model does; set per test, before the prompt. */
  script: readonly ScriptStep[];
  /** The model's turns: requests that offered tools (not the session's title). */
  modelRequests(): RecordedRequest[];
  /** Requests for anything but the Messages API on this server: another host through the proxy, another path. */
  strayRequests(): RecordedRequest[];
  stop(): Promise<void>;
}

/** How Claude Code's request for a suggested next prompt begins. */
const SUGGESTION_MARK = '[SUGGESTION MODE';

/** What a step-less turn and the title request answer. */
export const FAKE_TITLE = 'Scripted session';

export async function startFakeMessagesApi(): Promise<FakeMessagesApi> {
  const requests: RecordedRequest[] = [];
  const api: { script: readonly ScriptStep[] } = { script: [] };
  /** The tool calls the current script asked for, in order: a request's step is how many of them it answers. */
  let issued: string[] = [];
  let calls = 0;
  const server = http.createServer((req, res) => {
    readBody(req, (body) => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      if (req.method !== 'POST' || !/^\/v1\/messages(\?|$)/.test(req.url ?? '')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const tools: unknown[] = Array.isArray(body?.tools) ? body.tools : [];
      if (tools.length === 0 || isSuggestion(body)) {
        res.end(anthropicSse({ text: FAKE_TITLE, calls: [], end: true }));
        return;
      }
      const answered = answeredIds(body);
      const step = api.script[issued.filter((id) => answered.has(id)).length] ?? { text: FAKE_TITLE };
      if (!('tool' in step)) {
        res.end(anthropicSse({ text: step.text, calls: [], end: true }));
        return;
      }
      const id = `toolu_fake_${++calls}`;
      issued.push(id);
      res.end(anthropicSse({ text: step.text, calls: [{ id, name: step.tool, input: step.input }], end: true }));
    });
  });
  // A proxied https request: recorded as a stray and refused, so nothing leaves the machine.
  server.on('connect', (req: http.IncomingMessage, socket: import('node:stream').Duplex) => {
    requests.push({ method: 'CONNECT', path: req.url ?? '', headers: req.headers, body: undefined });
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    get script() {
      return api.script;
    },
    set script(steps) {
      api.script = steps;
      issued = [];
    },
    modelRequests: () => requests.filter((request) => request.method === 'POST' && Array.isArray(request.body?.tools) && request.body.tools.length > 0 && !isSuggestion(request.body)),
    strayRequests: () => requests.filter((request) => request.method !== 'POST' || !/^\/v1\/messages(\?|$)/.test(request.path)),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The ids of the tool results a request carries. */
function answeredIds(body: any): Set<string> {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  return new Set(messages.flatMap((message) => (Array.isArray(message?.content) ? message.content : []).filter((block: any) => block?.type === 'tool_result').map((block: any) => String(block.tool_use_id))));
}

/** Claude Code's side request for a suggested next prompt (its last user text says so): not a turn of the script. */
function isSuggestion(body: any): boolean {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const last = messages[messages.length - 1];
  const texts = (Array.isArray(last?.content) ? last.content : []).filter((block: any) => block?.type === 'text').map((block: any) => String(block.text));
  return texts.some((text: string) => text.startsWith(SUGGESTION_MARK));
}

/** The tool results the model was sent in a request, as text (what reached the model). */
export function toolResultTexts(request: RecordedRequest): string[] {
  const messages: any[] = Array.isArray(request.body?.messages) ? request.body.messages : [];
  return messages.flatMap((message) =>
    (Array.isArray(message?.content) ? message.content : [])
      .filter((block: any) => block?.type === 'tool_result')
      .map((block: any) => (typeof block.content === 'string' ? block.content : JSON.stringify(block.content))),
  );
}
