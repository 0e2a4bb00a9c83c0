import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatGoDuration } from '../../../src/executor/format/duration';

describe('formatGoDuration', () => {
  it('prints durations the way Go does', () => {
    assert.equal(formatGoDuration(300_000), '5m0s');
    assert.equal(formatGoDuration(90_000), '1m30s');
    assert.equal(formatGoDuration(45_000), '45s');
    assert.equal(formatGoDuration(1_500), '1.5s');
    assert.equal(formatGoDuration(60_000), '1m0s');
    assert.equal(formatGoDuration(3_600_000), '1h0m0s');
    assert.equal(formatGoDuration(126_000), '2m6s');
    assert.equal(formatGoDuration(1_250), '1.25s');
    assert.equal(formatGoDuration(250), '250ms');
    assert.equal(formatGoDuration(0), '0s');
  });
});
