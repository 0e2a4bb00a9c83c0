// A chat request over real HTTP to the fake endpoint on 127.0.0.1 (test/models/fakeEndpoint.ts), in
// each format: the body it sends (tools, tool results back, the key in its header), the stream it
// reads, each failure as one sentence without the key, the model list, and cancellation closing the
// connection.
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { listModels, streamChat } from '../../../src/models/client';
import { ModelError } from '../../../src/models/errors';
import type { ChatEvent, ChatRequest, EndpointModel } from '../../../src/models/types';
import { FAKE_DONE_TEXT, FAKE_MODEL, FAKE_PROMPT_TOKENS, startFakeEndpoint, type FakeEndpoint } from '../../models/fakeEndpoint';

const KEY = 'sk-unit-KEY-9f8e7d6c5b4a3210';
const WRITE_TOOL = { name: 'Write', description: 'Writes a file.', inputSchema: { type: 'object', properties: { file_path: { type: 'string' }, content: { type: 'string' } } } };

function entry(endpoint: FakeEndpoint, format: 'openai' | 'anthropic'): EndpointModel {
  return { name: `Fake ${format}`, format, baseUrl: endpoint.baseUrl, model: FAKE_MODEL, maxInputTokens: 32000, maxOutputTokens: 1000, toolCalling: true, imageInput: false };
}

function ask(text: string): ChatRequest {
  return { model: FAKE_MODEL, messages: [{ role: 'system', parts: [{ kind: 'text', text: 'You are a test.' }] }, { role: 'user', parts: [{ kind: 'text', text }] }], tools: [WRITE_TOOL], toolMode: 'auto', maxOutputTokens: 1000 };
}

async function run(model: EndpointModel, request: ChatRequest, signal = new AbortController().signal): Promise<ChatEvent[]> {
  const events: ChatEvent[] = [];
  for await (const event of streamChat(model, KEY, request, signal)) events.push(event);
  return events;
}

async function failure(model: EndpointModel, request: ChatRequest): Promise<ModelError> {
  try {
    await run(model, request);
  } catch (error) {
    assert.ok(error instanceof ModelError, `a ModelError, not ${String(error)}`);
    assert.doesNotMatch(error.message, /KEY-9f8e|9f8e7d6c|5b4a3210/, 'the key is not in the message');
    assert.doesNotMatch(error.message, /\n/, 'one line');
    return error;
  }
  assert.fail('the request did not fail');
}

for (const format of ['openai', 'anthropic'] as const) {
  describe(`${format} format over HTTP`, () => {
    let endpoint: FakeEndpoint;
    before(async () => {
      endpoint = await startFakeEndpoint(format);
    });
    after(() => endpoint.stop());

    it('a tool round trip: the call streams in, its result goes back, the answer quotes it, and usage is the real count', async () => {
      const model = entry(endpoint, format);
      const first = await run(model, ask('please write notes.txt'));
      const call = first.find((event) => event.kind === 'toolCall');
      assert.deepEqual(call && { ...call, callId: undefined }, { kind: 'toolCall', callId: undefined, name: 'Write', input: { file_path: 'notes.txt', content: 'written by the endpoint model\n' } });
      assert.deepEqual(first.at(-1), { kind: 'usage', inputTokens: FAKE_PROMPT_TOKENS, outputTokens: 42 });
      const sent = endpoint.requests.at(-1)!;
      if (format === 'openai') {
        assert.equal(sent.headers.authorization, `Bearer ${KEY}`);
        assert.deepEqual(sent.body.tools[0], { type: 'function', function: { name: 'Write', description: 'Writes a file.', parameters: WRITE_TOOL.inputSchema } });
        assert.equal(sent.body.messages[0].role, 'system');
        assert.equal(sent.body.stream, true);
      } else {
        assert.equal(sent.headers['x-api-key'], KEY);
        assert.equal(sent.headers['anthropic-version'], '2023-06-01');
        assert.equal(sent.body.system, 'You are a test.');
        assert.equal(sent.body.max_tokens, 1000);
        assert.deepEqual(sent.body.tools[0], { name: 'Write', description: 'Writes a file.', input_schema: WRITE_TOOL.inputSchema });
      }
      assert.ok(call?.kind === 'toolCall');
      const second: ChatRequest = {
        ...ask('please write notes.txt'),
        messages: [
          ...ask('please write notes.txt').messages,
          { role: 'assistant', parts: [{ kind: 'text', text: "I'll write notes.txt." }, { kind: 'toolCall', callId: call.callId, name: call.name, input: call.input }] },
          { role: 'user', parts: [{ kind: 'toolResult', callId: call.callId, text: 'Wrote 30 bytes to notes.txt' }] },
        ],
      };
      const answer = await run(model, second);
      assert.match(answer.filter((event) => event.kind === 'text').map((event) => (event.kind === 'text' ? event.text : '')).join(''), new RegExp(`${FAKE_DONE_TEXT}: Wrote 30 bytes`));
      const back = endpoint.requests.at(-1)!.body;
      if (format === 'openai') {
        assert.deepEqual(back.messages.slice(2), [
          { role: 'assistant', content: "I'll write notes.txt.", tool_calls: [{ id: call.callId, type: 'function', function: { name: 'Write', arguments: JSON.stringify(call.input) } }] },
          { role: 'tool', tool_call_id: call.callId, content: 'Wrote 30 bytes to notes.txt' },
        ]);
      } else {
        assert.deepEqual(back.messages.slice(1), [
          { role: 'assistant', content: [{ type: 'text', text: "I'll write notes.txt." }, { type: 'tool_use', id: call.callId, name: 'Write', input: call.input }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.callId, content: 'Wrote 30 bytes to notes.txt' }] },
        ]);
      }
    });

    it('cancelling mid-answer closes the connection: the endpoint sees it close', async () => {
      const controller = new AbortController();
      const seen: ChatEvent[] = [];
      const closedBefore = endpoint.closedEarly.length;
      await assert.rejects(async () => {
        for await (const event of streamChat(entry(endpoint, format), KEY, ask('wait for me'), controller.signal)) {
          seen.push(event);
          controller.abort();
        }
      }, { name: 'AbortError' });
      assert.equal(seen[0]?.kind, 'text');
      await endpoint.closed();
      assert.equal(endpoint.closedEarly.length, closedBefore + 1);
    });

    it('lists the endpoint models', async () => {
      assert.deepEqual(await listModels(format, endpoint.baseUrl, KEY, new AbortController().signal), [FAKE_MODEL]);
    });

    const cases: [string, { status: number; headers?: Record<string, string>; body: string }, ModelError['kind'], RegExp][] = [
      ['a wrong key', { status: 401, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY.slice(0, 10)}********3210.`, type: 'invalid_request_error' } }) }, 'auth', /refused the API key \(HTTP 401\); set the right one with "Agent Tool Executor: Set API Key…"\.$/],
      ['a model the endpoint does not have', { status: 404, body: JSON.stringify({ error: { message: `model "${FAKE_MODEL}" not found, try pulling it first` } }) }, 'notFound', /has no model "fake-agent-1" \(model "fake-agent-1" not found, try pulling it first\); list its models with/],
      ['rate limiting, with the retry time', { status: 429, headers: { 'retry-after': '17' }, body: JSON.stringify({ error: { type: 'rate_limit_error', message: 'slow down' } }) }, 'rateLimited', /is rate limiting requests \(HTTP 429\); try again in 17 s\.$/],
      ['a context too long', { status: 400, body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' } }) }, 'contextTooLong', /^The conversation is too long for fake-agent-1 at .*; start a new chat or lower maxInputTokens for this model\.$/],
      ['a model without tool calling', { status: 400, body: JSON.stringify({ error: 'registry.ollama.ai/library/gemma:2b does not support tools' }) }, 'noToolCalling', /does not support tool calling \(registry\.ollama\.ai\/library\/gemma:2b does not support tools\); pick a model that does, or set toolCalling to false/],
    ];
    for (const [what, answer, kind, sentence] of cases) {
      it(`${what} is one sentence`, async () => {
        endpoint.answers.push(answer);
        const error = await failure(entry(endpoint, format), ask('hello'));
        assert.equal(error.kind, kind);
        assert.match(error.message, sentence);
        if (kind === 'rateLimited') assert.equal(error.retryAfterSeconds, 17);
      });
    }
  });
}

describe('an endpoint that is down', () => {
  it('is one sentence naming the address, without the key', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const model: EndpointModel = { name: 'Gone', format: 'openai', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', maxInputTokens: 1000, maxOutputTokens: 100, toolCalling: true, imageInput: false };
    const error = await failure(model, ask('hello'));
    assert.equal(error.kind, 'unreachable');
    assert.equal(error.message, `Gone could not be reached at http://127.0.0.1:${port}/v1 (ECONNREFUSED: nothing is listening there); is the server running?`);
  });
});
