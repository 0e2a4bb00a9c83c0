// Where a redaction stream keeps its held-back text: ASCII waits in a buffer outside the JS heap, so the
// young generation does not copy it at every collection while a long output streams (peak RSS).
// Its own file: a fresh process, so no other test's buffers are freed while it measures.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedactor, STREAM_HOLDBACK_CHARS } from '../../../../../src/executor/results/redaction/patternRedactor';

/** Streams held at once: their parked buffers must show in `arrayBuffers` well above any noise. */
const STREAMS = 200;

describe('a redaction stream: where the held-back text lives', () => {
  it('held-back ASCII is parked in array buffers outside the heap, and read back whole', () => {
    const redactor = createRedactor();
    const text = 'the quick brown fox jumps over the lazy dog\n'.repeat(1_000);
    const streams = Array.from({ length: STREAMS }, () => redactor.createStream!());
    const before = process.memoryUsage().arrayBuffers;
    const emitted = streams.map((stream) => stream.push(text));
    const grown = process.memoryUsage().arrayBuffers - before;
    assert.ok(grown >= (STREAMS / 2) * STREAM_HOLDBACK_CHARS, `array buffers grew by ${grown} bytes for ${STREAMS} streams`);
    for (const [index, stream] of streams.entries()) assert.equal(emitted[index]! + stream.end(), text);
  });
});
