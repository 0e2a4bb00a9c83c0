import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASH_OUTPUT_MAX_BYTES, buildBashOutputDisplay } from '../../../../../src/executor/results/displays/commandOutput';

describe('buildBashOutputDisplay', () => {
  it('is produced only when the output was truncated or persisted', () => {
    assert.equal(buildBashOutputDisplay({ head: 'ok', tail: 'ok', totalBytes: 2, truncatedOrPersisted: false }), undefined);
    const display = buildBashOutputDisplay({ head: 'ok', tail: 'ok', totalBytes: 2, truncatedOrPersisted: true, end: { exitCode: 3 } });
    assert.deepEqual(display, { kind: 'bash_output', output: 'ok', truncated: false, exitCode: 3, signal: undefined });
  });

  it('stays within 150000 bytes, keeping the start and the end, and never splits a character', () => {
    const text = '😀 log line\n'.repeat(40_000);
    const display = buildBashOutputDisplay({ head: text, tail: text, totalBytes: Buffer.byteLength(text), truncatedOrPersisted: true })!;
    assert.ok(Buffer.byteLength(display.output) <= BASH_OUTPUT_MAX_BYTES);
    assert.equal(display.truncated, true);
    assert.ok(display.output.startsWith('😀 log line\n'));
    assert.ok(display.output.endsWith('😀 log line\n'));
    assert.match(display.output, /… \[[\d.]+ KB in all; the middle is not shown\] …/);
    assert.equal(Buffer.from(display.output).toString(), display.output);
  });
});
