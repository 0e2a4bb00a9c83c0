import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedactor } from '../../../src/executor/results/redaction/patternRedactor';
import { LiveRedactor } from '../../../src/vscode/results/liveRedactor';

describe('LiveRedactor', () => {
  it('applies changed patterns from the next text on', () => {
    let patterns: string[] = [];
    const redactor = new LiveRedactor(() => createRedactor({ env: {}, patterns }));
    assert.equal(redactor.redact('code PLANT-123'), 'code PLANT-123');
    patterns = ['PLANT-\\d+'];
    redactor.reload();
    assert.match(redactor.redact('code PLANT-123'), /^code \[REDACTED:user-pattern\]$/);
  });

  it('a stream keeps the rules it started with', () => {
    let patterns: string[] = ['PLANT-\\d+'];
    const redactor = new LiveRedactor(() => createRedactor({ env: {}, patterns }));
    const stream = redactor.createStream();
    patterns = [];
    redactor.reload();
    const text = stream.push('a PLANT-1\n') + stream.end();
    assert.match(text, /REDACTED/);
    assert.equal(redactor.redact('a PLANT-1'), 'a PLANT-1');
  });

  it('builds the rules on first use, and again at once on reload (a broken pattern is reported as it is saved)', () => {
    let builds = 0;
    const redactor = new LiveRedactor(() => {
      builds++;
      return createRedactor({ env: {}, patterns: ['PLANT-\\d+'] });
    });
    assert.equal(builds, 0);
    assert.match(redactor.redact('a PLANT-1'), /REDACTED/);
    redactor.createStream();
    assert.equal(builds, 1);
    redactor.reload();
    assert.equal(builds, 2);
  });
});
