import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallEvent } from '../../../../src/executor/contract/events';
import { LIVE_OUTPUT_MAX_CHARS, LiveCallEvents } from '../../../../src/executor/results/stream/liveEvents';

function outputEvents(pieces: readonly string[]): Array<Extract<CallEvent, { type: 'toolCallOutput' }>> {
  const events: CallEvent[] = [];
  const live = new LiveCallEvents('c', (event) => events.push(event));
  for (const piece of pieces) live.addOutput(piece);
  live.dispose();
  return events.filter((event): event is Extract<CallEvent, { type: 'toolCallOutput' }> => event.type === 'toolCallOutput');
}

describe('LiveCallEvents', () => {
  it('sends the first piece at once, then the newest LIVE_OUTPUT_MAX_CHARS of what came in the interval, counting the rest as skipped', () => {
    const pieces = ['first\n', ...Array.from({ length: 50 }, (_, index) => `line ${index} ${'x'.repeat(index * 40)}\n`)];
    const events = outputEvents(pieces);
    assert.equal(events.length, 2);
    assert.equal(events[0]!.text, 'first\n');
    const rest = pieces.slice(1).join('');
    assert.equal(events[1]!.text, rest.slice(rest.length - LIVE_OUTPUT_MAX_CHARS));
    assert.equal(events[1]!.skippedChars, rest.length - LIVE_OUTPUT_MAX_CHARS);
  });

  it('keeps a short interval whole, and never starts inside a surrogate pair', () => {
    assert.deepEqual(outputEvents(['a', 'b', 'c']).map((event) => [event.text, event.skippedChars]), [['a', 0], ['bc', 0]]);
    // The window would start on the low half of a pair: it is counted as skipped instead.
    const piece = `${'😀'.repeat(LIVE_OUTPUT_MAX_CHARS)}y`;
    const events = outputEvents(['a', piece]);
    const kept = events[1]!.text;
    assert.ok(kept === `${'😀'.repeat(LIVE_OUTPUT_MAX_CHARS / 2 - 1)}y`, `kept ${kept.length} chars`);
    assert.equal(events[1]!.skippedChars, piece.length - kept.length);
  });

  it('sends a long first piece at once as its newest LIVE_OUTPUT_MAX_CHARS, never starting inside a surrogate pair', () => {
    const long = `${'z'.repeat(100)}${'q'.repeat(LIVE_OUTPUT_MAX_CHARS)}`;
    assert.deepEqual(outputEvents([long]).map((event) => [event.text, event.skippedChars]), [['q'.repeat(LIVE_OUTPUT_MAX_CHARS), 100]]);
    const piece = `${'😀'.repeat(LIVE_OUTPUT_MAX_CHARS)}y`;
    const [event] = outputEvents([piece]);
    assert.equal(event!.text, `${'😀'.repeat(LIVE_OUTPUT_MAX_CHARS / 2 - 1)}y`);
    assert.equal(event!.skippedChars, piece.length - event!.text.length);
  });
});
