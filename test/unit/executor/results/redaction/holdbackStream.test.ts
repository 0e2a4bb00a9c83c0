// What a redaction stream emits and when, and what it still holds: the live output a user sees while a
// command runs (all but a bounded tail, at once), what a peek shows of that tail, and private keys whose
// END has not arrived yet, which are held back whole even when their body is not plain base64.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedactor, STREAM_HOLDBACK_CHARS } from '../../../../../src/executor/results/redaction/patternRedactor';
import { MAX_PEM_CHARS } from '../../../../../src/executor/results/redaction/rules';

const HEADER = '-----BEGIN RSA PRIVATE KEY-----\n';
const END = '-----END RSA PRIVATE KEY-----';

/**
 * A PEM-looking key with exactly `bodyChars` chars between its header and its END line (newlines
 * included); its second line is a comment with a `.`, which the open-key pattern stops at.
 */
function keyWithComment(bodyChars: number, tag: string): { key: string; lines: string[] } {
  const lines = [`Proc-Type: 4,ENCRYPTED ${tag}`, `Comment: exported by keytool v1.2 ${tag}`];
  const size = () => lines.join('\n').length + 2;
  for (let index = 0; size() < bodyChars - 64; index += 1) lines.push(`${tag}${index.toString(36)}`.padEnd(63, 'Q'));
  lines.push('Q'.repeat(bodyChars - size() - 1));
  assert.equal(size(), bodyChars);
  return { key: `${HEADER}${lines.join('\n')}\n${END}-----`, lines };
}

function pushAll(chunks: readonly string[]): { before: string; all: string } {
  const stream = createRedactor().createStream!();
  const before = chunks.map((chunk) => stream.push(chunk)).join('');
  return { before, all: before + stream.end() };
}

function chunked(text: string, sizes: readonly number[]): string[] {
  const chunks: string[] = [];
  for (let index = 0, turn = 0; index < text.length; turn += 1) {
    const size = sizes[turn % sizes.length]!;
    chunks.push(text.slice(index, index + size));
    index += size;
  }
  return chunks;
}

describe('a redaction stream: what it emits and what it holds', () => {
  it('holds at most twice its hold-back, then emits all but the hold-back at once; a peek shows exactly the held text', () => {
    const stream = createRedactor().createStream!();
    const line = 'the quick brown fox jumps over the lazy dog\n';
    const chunk = line.repeat(Math.ceil(1024 / line.length)).slice(0, 1024);
    let pushed = '';
    let emitted = '';
    for (let index = 0; index < 60; index += 1) {
      pushed += chunk;
      const held = pushed.length - emitted.length;
      const expected = held > 2 * STREAM_HOLDBACK_CHARS ? held - STREAM_HOLDBACK_CHARS : 0;
      const piece = stream.push(chunk);
      assert.equal(piece.length, expected, `push ${index + 1}: held ${held}`);
      emitted += piece;
      assert.equal(emitted, pushed.slice(0, emitted.length));
      assert.equal(stream.peek!(), pushed.slice(emitted.length), `push ${index + 1}: the peek is the held text`);
    }
    assert.equal(emitted + stream.end(), pushed);
  });

  it('a peek of held text that is not ASCII shows it whole too', () => {
    const stream = createRedactor().createStream!();
    const chunk = 'café € 😀 '.repeat(300);
    let pushed = '';
    let emitted = '';
    for (let index = 0; index < 20; index += 1) {
      pushed += chunk;
      emitted += stream.push(chunk);
      assert.equal(stream.peek!(), pushed.slice(emitted.length));
    }
    assert.equal(emitted + stream.end(), pushed);
  });
});

describe('a redaction stream: a private key whose END has not arrived', () => {
  const trailer = 'z'.repeat(3 * STREAM_HOLDBACK_CHARS);

  it('holds the key back from its header, so no line of it is ever shown, however it is cut', () => {
    // The longest key a stream can still see close: when it first holds more than twice its hold-back, the header is as far back as the key can reach.
    for (const bodyChars of [3_000, 12_000, MAX_PEM_CHARS]) {
      const { key, lines } = keyWithComment(bodyChars, 'k');
      const text = `${'y'.repeat(2 * STREAM_HOLDBACK_CHARS + 500)}\n${key}\n${trailer}`;
      const whole = createRedactor().redact(text);
      assert.ok(!whole.includes(lines[1]!), 'the whole text masks the key');
      for (const sizes of [[16], [100], [997, 31], [4000]]) {
        const { before, all } = pushAll(chunked(text, sizes));
        assert.equal(all, whole, `body ${bodyChars}, chunks ${sizes}`);
        for (const shown of lines.slice(0, 3)) assert.ok(!before.includes(shown), `body ${bodyChars}, chunks ${sizes}: ${shown} shown`);
      }
    }
  });

  it('a chunk that ends inside the END line does not close the key', () => {
    const { key, lines } = keyWithComment(STREAM_HOLDBACK_CHARS + 1_000, 'e');
    const text = `${'y'.repeat(3 * STREAM_HOLDBACK_CHARS)}\n${key}\n${trailer}`;
    const whole = createRedactor().redact(text);
    const endAt = text.indexOf(END);
    // The second chunk brings the whole key but the last chars of its END line (`-----END RSA PRIVATE KEY---`).
    for (let cut = endAt; cut < endAt + END.length + 5; cut += 1) {
      const { before, all } = pushAll([text.slice(0, 3 * STREAM_HOLDBACK_CHARS), text.slice(3 * STREAM_HOLDBACK_CHARS, cut), text.slice(cut)]);
      assert.equal(all, whole, `cut ${cut - endAt} chars into the END line`);
      for (const shown of lines.slice(0, 3)) assert.ok(!before.includes(shown), `cut ${cut - endAt} chars into the END line: ${shown} shown`);
    }
  });

  it('a closed key before an open one does not close it', () => {
    const closed = keyWithComment(1_000, 'c').key;
    const { key, lines } = keyWithComment(STREAM_HOLDBACK_CHARS + 1_000, 'o');
    const filler = 'y'.repeat(3 * STREAM_HOLDBACK_CHARS);
    const text = `${filler}${closed}\n${'w'.repeat(100)}\n${key}\n${trailer}`;
    const whole = createRedactor().redact(text);
    // The second chunk brings the closed key and the open one up to just before its END line.
    const endAt = text.lastIndexOf(END);
    const { before, all } = pushAll([filler, text.slice(filler.length, endAt), text.slice(endAt)]);
    assert.equal(all, whole);
    for (const shown of lines.slice(0, 3)) assert.ok(!before.includes(shown), `${shown} shown`);
  });

  it('a closed key longer than the hold-back, across the cut, is held whole and nothing after it is lost', () => {
    const { key } = keyWithComment(2 * STREAM_HOLDBACK_CHARS - 1_000, 'l');
    const filler = 'y'.repeat(3 * STREAM_HOLDBACK_CHARS);
    const after = Array.from({ length: 400 }, (_, index) => `line ${index} after the key`).join('\n');
    const text = `${filler}${key}\n${after}\n${trailer}`;
    for (const chunks of [[filler, text.slice(filler.length)], [filler, text.slice(filler.length, filler.length + key.length + 5_000), text.slice(filler.length + key.length + 5_000)]]) {
      assert.equal(pushAll(chunks).all, createRedactor().redact(text));
    }
  });

  it('a key older than any key can be long is let go: what follows it is emitted before the end', () => {
    const text = `${HEADER}Comment: never closed.\n${'x'.repeat(MAX_PEM_CHARS + 8 * STREAM_HOLDBACK_CHARS)}`;
    const { before, all } = pushAll(chunked(text, [1000]));
    assert.ok(all.length - before.length <= 2 * STREAM_HOLDBACK_CHARS, `held ${all.length - before.length} chars at the end`);
    assert.equal(all, createRedactor().redact(text));
  });
});
