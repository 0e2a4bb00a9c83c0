import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyTotalBudget, TOTAL_BUDGET_MARKER_BYTES } from '../../../../src/executor/results/batchBudget';
import type { ToolCallResult } from '../../../../src/executor/contract/result';
import { makeExecutor, tool } from '../fixtures';

describe('applyTotalBudget', () => {
  const result = (callId: string, content: string): ToolCallResult => ({
    callId,
    name: 't',
    isError: false,
    errorKind: null,
    modelContent: content,
    text: content,
    truncated: false,
    strategy: 'inline',
    originalBytes: content.length,
    modelBytes: content.length,
    changes: [],
    stopTurn: false,
    permission: { outcome: 'none' },
    timing: { totalMs: 0, permissionWaitMs: 0, queuedMs: 0, startMs: null, endMs: null },
  });

  it('leaves a batch within its total alone', () => {
    const results = [result('a', 'x'.repeat(100))];
    assert.deepEqual(applyTotalBudget(results, 100), results);
    assert.deepEqual(applyTotalBudget(results, undefined), results);
  });

  it('keeps small results whole and shares the rest among the large ones', () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `row ${i}`).join('\n');
    const results = [result('small', 'ok'), result('big1', lines(2000)), result('big2', lines(3000))];
    const cut = applyTotalBudget(results, 4000);
    assert.equal(cut[0]!.modelContent, 'ok');
    assert.equal(cut[1]!.truncated, true);
    assert.equal(cut[2]!.strategy, 'truncate');
    const total = cut.reduce((sum, r) => sum + r.modelBytes, 0);
    assert.ok(total <= 4000 + 2 * TOTAL_BUDGET_MARKER_BYTES, `total ${total}`);
    assert.match(cut[1]!.modelContent, /\.\.\.\[truncated \d+ chars; showing lines/);
  });

  it('applies through executeBatch with maxTotalResultBytes', async () => {
    const { executor } = makeExecutor([tool('Echo')], { maxTotalResultBytes: 1000 });
    const text = Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n');
    const results = await executor.executeBatch([
      { id: '1', name: 'Echo', input: { text } },
      { id: '2', name: 'Echo', input: { text } },
    ]);
    assert.ok(results.every((r) => r.truncated));
    assert.ok(results.reduce((sum, r) => sum + r.modelBytes, 0) <= 1000 + 2 * TOTAL_BUDGET_MARKER_BYTES);
  });
});
