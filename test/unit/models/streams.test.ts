// Both wire formats against recorded streams (test/fixtures/models/): text, parallel tool calls, usage,
// errors mid-stream, and every stream cut into pieces of each size from 1 byte up, so lines, JSON and
// multi-byte characters split across chunks.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { anthropicEvents } from '../../../src/models/anthropic';
import { ModelError, type ErrorContext } from '../../../src/models/errors';
import { openaiEvents } from '../../../src/models/openai';
import { sseEvents } from '../../../src/models/sse';
import type { ChatEvent } from '../../../src/models/types';

const FIXTURES = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'models');
const CONTEXT: ErrorContext = { name: 'Recorded', baseUrl: 'http://127.0.0.1:1/v1', model: 'recorded-model', apiKey: 'sk-test-SECRET-0123456789' };

type Parse = typeof openaiEvents;

async function* inPieces(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

async function collect(parse: Parse, file: string, size = Number.MAX_SAFE_INTEGER): Promise<{ events: ChatEvent[]; error?: unknown }> {
  const events: ChatEvent[] = [];
  try {
    for await (const event of parse(sseEvents(inPieces(fs.readFileSync(path.join(FIXTURES, file)), size)), CONTEXT)) events.push(event);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

/** The same events whatever the chunk sizes: every size from 1 to 40 bytes, and a few larger. */
async function sameAtEverySize(parse: Parse, file: string): Promise<{ events: ChatEvent[]; error?: unknown }> {
  const whole = await collect(parse, file);
  for (const size of [...Array.from({ length: 40 }, (_, index) => index + 1), 97, 256, 1024]) {
    const cut = await collect(parse, file, size);
    assert.deepEqual(cut.events, whole.events, `${file} in ${size}-byte pieces`);
    assert.equal(String((cut.error as Error | undefined)?.message), String((whole.error as Error | undefined)?.message), `${file} in ${size}-byte pieces: same error`);
  }
  return whole;
}

const text = (events: readonly ChatEvent[]) => events.flatMap((event) => (event.kind === 'text' ? [event.text] : [])).join('');

describe('OpenAI chat completions streams', () => {
  it('text deltas join into the answer (a multi-byte character included), then the usage chunk', async () => {
    const { events, error } = await sameAtEverySize(openaiEvents, 'openai-text.sse');
    assert.equal(error, undefined);
    assert.equal(text(events), 'Hello there, café ☕!');
    assert.deepEqual(events.at(-1), { kind: 'usage', inputTokens: 19, outputTokens: 10 });
  });

  it('parallel tool calls, their arguments split and interleaved by index, come whole and in index order', async () => {
    const { events, error } = await sameAtEverySize(openaiEvents, 'openai-parallel-tools.sse');
    assert.equal(error, undefined);
    assert.deepEqual(events, [
      { kind: 'text', text: 'Reading both.' },
      { kind: 'toolCall', callId: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', name: 'Read', input: { file_path: 'src/a.ts' } },
      { kind: 'toolCall', callId: 'call_ABCDEFGH12345678abcdefgh', name: 'Grep', input: { pattern: 'TODO', output_mode: 'content' } },
      { kind: 'usage', inputTokens: 812, outputTokens: 64 },
    ]);
  });

  it('an error mid-stream ends it with one sentence, after the text that came before', async () => {
    const { events, error } = await sameAtEverySize(openaiEvents, 'openai-error-mid-stream.sse');
    assert.equal(text(events), 'Let me think');
    assert.ok(error instanceof ModelError);
    assert.equal(error.kind, 'contextTooLong');
    assert.match(error.message, /^The conversation is too long for recorded-model at Recorded \(http:\/\/127\.0\.0\.1:1\/v1\) \(This model's maximum context length is 8192 tokens/);
  });

  it('a stream cut before [DONE] is an error, not a short answer', async () => {
    const { events, error } = await sameAtEverySize(openaiEvents, 'openai-truncated.sse');
    assert.equal(text(events), 'Half an answer');
    assert.ok(error instanceof ModelError);
    assert.equal(error.kind, 'badResponse');
    assert.match(error.message, /ended before its \[DONE\]/);
  });
});

describe('Anthropic Messages streams', () => {
  it('text blocks join into the answer; usage has the input tokens of message_start and the output of message_delta', async () => {
    const { events, error } = await sameAtEverySize(anthropicEvents, 'anthropic-text.sse');
    assert.equal(error, undefined);
    assert.equal(text(events), 'Hello! café ☕');
    assert.deepEqual(events.at(-1), { kind: 'usage', inputTokens: 25, outputTokens: 15 });
  });

  it('parallel tool_use blocks (CRLF lines, pings between pieces) come whole; cached input counts as input', async () => {
    const { events, error } = await sameAtEverySize(anthropicEvents, 'anthropic-parallel-tools.sse');
    assert.equal(error, undefined);
    assert.deepEqual(events, [
      { kind: 'text', text: 'Reading both.' },
      { kind: 'toolCall', callId: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'Read', input: { file_path: 'src/a.ts' } },
      { kind: 'toolCall', callId: 'toolu_01GrepXyz9Abc8Def7Ghi6Jkl', name: 'Grep', input: { pattern: 'TODO', output_mode: 'content' } },
      { kind: 'usage', inputTokens: 572, outputTokens: 89 },
    ]);
  });

  it('an error event mid-stream (overloaded) is one sentence that says to try again', async () => {
    const { events, error } = await sameAtEverySize(anthropicEvents, 'anthropic-error-mid-stream.sse');
    assert.equal(text(events), 'Let me');
    assert.ok(error instanceof ModelError);
    assert.equal(error.kind, 'rateLimited');
    assert.equal(error.message, 'Recorded (http://127.0.0.1:1/v1) stopped the answer: it is overloaded (Overloaded); try again in a minute.');
  });

  it('a tool input that is not JSON is an error naming the tool', async () => {
    const sse = [
      'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3,"output_tokens":1}}}\n\n',
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"Bash","input":{}}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"command\\": "}}\n\n',
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
    ].join('');
    const events: ChatEvent[] = [];
    await assert.rejects(async () => {
      for await (const event of anthropicEvents(sseEvents(inPieces(Buffer.from(sse), 5)), CONTEXT)) events.push(event);
    }, /is not JSON in the input of its call of Bash/);
  });
});

describe('server-sent events', () => {
  it('joins multi-line data, skips comments, keeps the event name, and drops an event the stream cut off', async () => {
    const body = ': keep-alive\n\nevent: a\ndata: one\ndata: two\n\nid: 3\ndata:x\r\n\r\ndata: cut';
    const events = [];
    for await (const event of sseEvents(inPieces(Buffer.from(body), 3))) events.push(event);
    assert.deepEqual(events, [
      { event: 'a', data: 'one\ntwo' },
      { event: undefined, data: 'x' },
    ]);
  });
});
