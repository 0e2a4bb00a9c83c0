import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildFileDiffDisplay, FILE_DIFF_MAX_HUNKS, FILE_DIFF_MAX_LINE_CHARS, FILE_DIFF_MAX_LINES } from '../../../../../src/executor/results/displays/fileDiff';

describe('buildFileDiffDisplay', () => {
  it('builds a unified diff with the diff package', () => {
    const display = buildFileDiffDisplay('src/a.ts', 'one\ntwo\nthree\n', 'one\n2\nthree\n');
    assert.equal(display.kind, 'file_diff');
    assert.equal(display.truncated, false);
    assert.equal(display.diff, ['--- src/a.ts', '+++ src/a.ts', '@@ -1,3 +1,3 @@', ' one', '-two', '+2', ' three'].join('\n'));
    assert.equal(display.before, 'one\ntwo\nthree\n');
    assert.equal(display.after, 'one\n2\nthree\n');
  });

  it('keeps at most 8 hunks and marks the cut', () => {
    const before = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n');
    const after = before.split('\n').map((line, i) => (i % 20 === 0 ? `${line} changed` : line)).join('\n');
    const display = buildFileDiffDisplay('f', before, after);
    assert.equal(display.truncated, true);
    assert.equal(display.diff.split('\n').filter((line) => line.startsWith('@@')).length, FILE_DIFF_MAX_HUNKS);
    assert.ok(display.diff.endsWith('… diff truncated'));
  });

  it('keeps at most 160 lines and marks the cut', () => {
    const after = Array.from({ length: 500 }, (_, i) => `new ${i}`).join('\n');
    const display = buildFileDiffDisplay('new.txt', '', after);
    assert.equal(display.truncated, true);
    assert.equal(display.diff.split('\n').length, FILE_DIFF_MAX_LINES + 1);
  });
});

describe('buildFileDiffDisplay bounds', () => {
  it('cuts each diff line at FILE_DIFF_MAX_LINE_CHARS, so one huge line keeps the display small', () => {
    const display = buildFileDiffDisplay('min.js', '', 'x'.repeat(5_000_000));
    assert.equal(display.truncated, true);
    assert.ok(display.diff.split('\n').every((line) => line.length <= FILE_DIFF_MAX_LINE_CHARS + 60));
    assert.match(display.diff, /… \[\d+ more chars on this line\]/);
    assert.ok(display.diff.length < FILE_DIFF_MAX_LINES * (FILE_DIFF_MAX_LINE_CHARS + 60));
  });
});
