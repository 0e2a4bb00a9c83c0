// A redaction stream's peek: what it holds back, redacted as it stands, without changing what it emits later
// (an ACP terminal shows output still arriving).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactionStreamOf } from '../../../../../src/executor/results/redaction/lineStream';
import { createRedactor } from '../../../../../src/executor/results/redaction/patternRedactor';
import { noRedaction } from '../../../../../src/executor/ports/redactor';
import { PLANTED, pemKey, plantedText } from '../secrets';

describe('RedactionStream.peek', () => {
  const redactor = createRedactor({ env: {} });
  const lineOnly = { redact: (text: string) => redactor.redact(text) };

  for (const [name, make] of [
    ['the holdback stream', () => redactor.createStream!()],
    ['the line stream', () => redactionStreamOf(lineOnly)],
  ] as const) {
    it(`${name}: emitted text and a peek hold no whole secret, and peeking changes nothing emitted`, () => {
      const text = `${plantedText()}\n${pemKey()}\n${'x'.repeat(30_000)}\n${plantedText()}`;
      const peeked = make();
      const plain = make();
      let emitted = '';
      let plainEmitted = '';
      for (let index = 0; index < text.length; index += 1013) {
        const chunk = text.slice(index, index + 1013);
        emitted += peeked.push(chunk);
        plainEmitted += plain.push(chunk);
        const shown = emitted + peeked.peek!();
        for (const planted of PLANTED) {
          // A secret that has arrived whole is never shown.
          if (text.slice(0, index + 1013).includes(planted.secret)) assert.ok(!shown.includes(planted.secret), `${planted.rule} shown at ${index}`);
        }
      }
      assert.equal(emitted + peeked.end(), plainEmitted + plain.end());
      assert.equal(peeked.peek!(), '', 'nothing is held after the end');
    });
  }

  it('the identity stream holds nothing back', () => {
    const stream = noRedaction.createStream!();
    assert.equal(stream.push('abc'), 'abc');
    assert.equal(stream.peek!(), '');
  });
});
