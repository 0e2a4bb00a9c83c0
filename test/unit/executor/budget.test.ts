import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyBudget,
  capLongLines,
  MAX_ENVELOPE_BYTES,
  previewOf,
  truncateDirectional,
  truncateMiddle,
} from '../../../src/executor/results/budget';
import type { ArtifactRef } from '../../../src/executor/contract/result';
import { random } from './random';

const printLines = (n: number) => Array.from({ length: n }, (_, i) => `line ${String(i + 1).padStart(4, '0')} of a long build log\n`).join('');
const ref: ArtifactRef = { uri: 'executor-artifact://s/a.txt', path: '/artifacts/s/a.txt' };

function hasLoneSurrogate(text: string): boolean {
  return Buffer.from(text, 'utf8').toString('utf8') !== text;
}

describe('applyBudget (spec §7)', () => {
  it("W's case 4: 200 lines of a read-only tool at budget 400 get 3× and keep head and tail thirds, line aligned", async () => {
    const outcome = await applyBudget({ toolName: 'print_lines', text: printLines(200), budget: { maxModelBytes: 400, strategy: 'artifact' }, readOnlySuccess: true });
    assert.equal(outcome.strategy, 'truncate');
    assert.equal(outcome.originalBytes, 6000);
    const lines = outcome.modelContent.split('\n');
    assert.equal(lines[0], 'line 0001 of a long build log');
    assert.equal(lines[12], 'line 0013 of a long build log');
    assert.equal(lines[13], '...[truncated 5220 chars; showing lines 1-13 and 188-201 of 201 total; use read with offset=14 to see middle]...');
    assert.equal(lines[14], 'line 0188 of a long build log');
    assert.equal(lines.at(-2), 'line 0200 of a long build log');
  });

  it("W's case 5: 60000 chars spill to an artifact with the 2000-char preview", async () => {
    const text = printLines(2000);
    const outcome = await applyBudget({
      toolName: 'print_lines',
      text,
      budget: { maxModelBytes: 400, strategy: 'artifact' },
      readOnlySuccess: true,
      persist: async (full) => {
        assert.equal(full, text);
        return ref;
      },
    });
    assert.equal(outcome.strategy, 'artifact');
    assert.equal(outcome.artifact, ref);
    assert.ok(outcome.modelContent.includes('Result too large (60000 chars, 58.6 KB). Full output was saved to: /artifacts/s/a.txt'));
    assert.ok(outcome.modelContent.includes('Use the read tool on this path'));
    const preview = outcome.modelContent.split('Preview (first 2000 chars):\n')[1]!;
    // 2000 chars end inside line 67; the last newline (in the second half) cuts there.
    assert.ok(preview.startsWith('line 0001'));
    assert.ok(preview.includes('line 0066 of a long build log\n...'));
    assert.ok(!preview.includes('line 0067'));
  });

  it('spills only past max(20000 chars, 3 × budget): between budget and that it truncates', async () => {
    let persisted = false;
    const persist = async () => {
      persisted = true;
      return ref;
    };
    const budget = { maxModelBytes: 400, strategy: 'artifact' as const };
    const medium = await applyBudget({ toolName: 't', text: 'x\n'.repeat(9000), budget, readOnlySuccess: false, persist });
    assert.equal(medium.strategy, 'truncate');
    assert.equal(persisted, false);
    const large = await applyBudget({ toolName: 't', text: 'x\n'.repeat(10_001), budget, readOnlySuccess: false, persist });
    assert.equal(large.strategy, 'artifact');
    const big = { maxModelBytes: 10_000, strategy: 'artifact' as const };
    const belowThree = await applyBudget({ toolName: 't', text: 'y\n'.repeat(14_000), budget: big, readOnlySuccess: false, persist });
    assert.equal(belowThree.strategy, 'truncate');
  });

  it('inlines within min(maxModelBytes, maxInlineBytes), and 3× for read-only successes', async () => {
    const text = 'a'.repeat(900);
    const budget = { maxModelBytes: 1000, maxInlineBytes: 500, strategy: 'truncate' as const };
    assert.equal((await applyBudget({ toolName: 't', text, budget, readOnlySuccess: false })).strategy, 'truncate');
    assert.equal((await applyBudget({ toolName: 't', text, budget, readOnlySuccess: true })).strategy, 'inline');
  });

  it('truncates, with a note, when the artifact write fails', async () => {
    const outcome = await applyBudget({
      toolName: 't',
      text: 'z\n'.repeat(50_000),
      budget: { maxModelBytes: 400, strategy: 'artifact' },
      readOnlySuccess: false,
      persist: () => Promise.reject(new Error('EACCES: permission denied')),
    });
    assert.equal(outcome.strategy, 'truncate');
    assert.match(outcome.modelContent, /\[The full output could not be saved: EACCES: permission denied\]$/);
  });

  it('replaces a line longer than the line limit by [line truncated: N chars]', () => {
    assert.equal(capLongLines(`short\n${'q'.repeat(10_001)}\nend`), 'short\n[line truncated: 10001 chars]\nend');
  });

  it('keeps only the head or the tail for tools that declare previewDirection', async () => {
    const head = await applyBudget({ toolName: 't', text: printLines(100), budget: { maxModelBytes: 300, strategy: 'truncate', previewDirection: 'head' }, readOnlySuccess: false });
    assert.ok(head.modelContent.startsWith('line 0001'));
    assert.match(head.modelContent, /\n\[Tool output truncated by resultBudget: original 3000 bytes, limit 300 bytes, showing the head\]$/);
    assert.ok(Buffer.byteLength(head.modelContent) <= 300);
    const tail = truncateDirectional(printLines(100), 300, 'tail', 3000);
    assert.ok(tail.endsWith('line 0100 of a long build log\n[Tool output truncated by resultBudget: original 3000 bytes, limit 300 bytes, showing the tail]'));
    assert.ok(Buffer.byteLength(tail) <= 300);
  });

  it('previews the first 2000 chars, cut at the last newline only when it lies in the second half', () => {
    assert.equal(previewOf(`${'a'.repeat(1500)}\n${'b'.repeat(1000)}`).preview, 'a'.repeat(1500));
    assert.equal(previewOf(`${'a'.repeat(500)}\n${'b'.repeat(2000)}`).preview.length, 2000);
    assert.equal(previewOf('short').hasMore, false);
  });

  it('never splits a UTF-8 character or a surrogate pair, and stays within budget + envelope (property)', async () => {
    const next = random(42);
    const alphabet = ['a', 'é', '中', '😀', '\n', ' ', '𝄞', 'Z'];
    for (let run = 0; run < 300; run++) {
      const length = Math.floor(next() * 30_000);
      let text = '';
      for (let index = 0; index < length; index++) text += alphabet[Math.floor(next() * alphabet.length)];
      const maxModelBytes = 10 + Math.floor(next() * 4000);
      const direction = next() < 0.3 ? (next() < 0.5 ? 'head' : 'tail') : undefined;
      const readOnlySuccess = next() < 0.5;
      const outcome = await applyBudget({
        toolName: 't',
        text,
        budget: { maxModelBytes, strategy: next() < 0.5 ? 'artifact' : 'truncate', previewDirection: direction },
        readOnlySuccess,
        persist: async () => ref,
      });
      const limit = maxModelBytes * (readOnlySuccess ? 3 : 1);
      assert.ok(Buffer.byteLength(outcome.modelContent) <= limit + MAX_ENVELOPE_BYTES, `run ${run}: ${Buffer.byteLength(outcome.modelContent)} > ${limit}`);
      assert.ok(!hasLoneSurrogate(outcome.modelContent), `run ${run} split a character`);
    }
  });

  it('truncateMiddle counts lines as an editor does', () => {
    const out = truncateMiddle(printLines(30), 200);
    assert.match(out, /showing lines 1-2 and 29-31 of 31 total; use read with offset=3 to see middle/);
  });
});
