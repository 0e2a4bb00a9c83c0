import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExecutorEvent } from '../../../src/executor/contract/events';
import type { ToolCallResult } from '../../../src/executor/contract/result';
import { MAX_TURNS, ToolCallsModel } from '../../../src/vscode/toolCalls/model';
import { barsOf, timelineSvg } from '../../../src/vscode/toolCalls/timeline';

function result(callId: string, name: string, overrides: Partial<ToolCallResult> = {}): ToolCallResult {
  return {
    callId, name, isError: false, errorKind: null, modelContent: 'ok', text: 'ok', truncated: false, strategy: 'inline',
    originalBytes: 2, modelBytes: 2, changes: [], stopTurn: false, permission: { outcome: 'none' },
    timing: { totalMs: 1, permissionWaitMs: 0, queuedMs: 0, startMs: 0, endMs: 1 }, ...overrides,
  };
}

/** A model on a clock the test moves. */
function clocked() {
  let now = 1000;
  const model = new ToolCallsModel(() => now, () => 0);
  return { model, at: (ms: number) => (now = 1000 + ms), apply: (event: ExecutorEvent) => model.apply(event) };
}

describe('Tool Calls model', () => {
  it('follows each call through queued, approval, running and its end, with times from the turn start', () => {
    const { model, at, apply } = clocked();
    apply({ type: 'turnStarted', turnId: 't', label: '@executor tour' });
    at(5);
    apply({ type: 'toolCallQueued', turnId: 't', callId: 'w', name: 'Write', group: 1 });
    at(10);
    apply({ type: 'permissionRequested', turnId: 't', callId: 'w', name: 'Write', input: {}, reason: 'asks' });
    assert.deepEqual(model.counts(), { running: 0, queued: 0, awaitingApproval: 1 });
    at(300);
    apply({ type: 'permissionResolved', turnId: 't', callId: 'w', outcome: 'approved', by: 'user', waitMs: 290 });
    apply({ type: 'toolCallStarted', turnId: 't', callId: 'w', name: 'Write', input: {}, flags: { readOnly: false, destructive: false, concurrentSafe: false, sideEffectScope: 'workspace', alwaysAsk: false } });
    assert.deepEqual(model.counts(), { running: 1, queued: 0, awaitingApproval: 0 });
    at(350);
    apply({ type: 'toolCallResult', turnId: 't', result: result('w', 'Write') });
    apply({ type: 'turnEnded', turnId: 't', calls: 1, errors: 0 });
    const [turn] = model.list();
    assert.equal(turn!.label, '@executor tour');
    assert.equal(turn!.endedAt, 350);
    assert.deepEqual(
      { ...turn!.calls[0]!, result: undefined },
      { callId: 'w', name: 'Write', group: 1, status: 'done', queuedAt: 5, askedAt: 10, answeredAt: 300, startedAt: 300, endedAt: 350, result: undefined },
    );
    assert.deepEqual(barsOf(turn!.calls[0]!, 350).map((bar) => [bar.kind, bar.from, bar.to]), [['queued', 5, 10], ['approval', 10, 300], ['running', 300, 350]]);
  });

  it('tells failed from cancelled, ignores events of no turn, and keeps only the newest turns', () => {
    const { model, apply } = clocked();
    apply({ type: 'toolCallFailed', turnId: 'a', result: result('x', 'Bash', { isError: true, errorKind: 'cancelled' }) });
    apply({ type: 'toolCallFailed', turnId: 'a', result: result('y', 'Bash', { isError: true, errorKind: 'execution' }) });
    assert.deepEqual(model.turn('a')!.calls.map((call) => call.status), ['cancelled', 'failed']);
    assert.equal(apply({ type: 'backgroundTaskEnded', taskId: 'b', status: 'completed' }), undefined);
    for (let index = 0; index < MAX_TURNS + 5; index++) apply({ type: 'turnStarted', turnId: `t${index}` });
    assert.equal(model.list().length, MAX_TURNS);
    assert.equal(model.list()[0]!.turnId, `t${MAX_TURNS + 4}`);
    apply({ type: 'turnEnded', turnId: `t${MAX_TURNS + 4}`, calls: 0, errors: 0 });
    assert.equal(model.list()[0]!.turnId, `t${MAX_TURNS + 3}`, 'a turn that ended with no calls is not listed');
  });
});

describe('timeline picture', () => {
  it('draws one row per call and a bar per phase, escaping names, with theme colours', () => {
    const { model, at, apply } = clocked();
    apply({ type: 'turnStarted', turnId: 't', label: 'a <b> & "c"' });
    apply({ type: 'toolCallQueued', turnId: 't', callId: '1', name: 'Read', group: 0 });
    apply({ type: 'toolCallQueued', turnId: 't', callId: '2', name: '<script>', group: 0 });
    at(20);
    apply({ type: 'toolCallStarted', turnId: 't', callId: '1', name: 'Read', input: {}, flags: { readOnly: true, destructive: false, concurrentSafe: true, sideEffectScope: 'none', alwaysAsk: false } });
    const svg = timelineSvg(model.turn('t')!, 100);
    assert.equal((svg.match(/<rect class="/g) ?? []).length, 3, 'queued + running for Read, queued for the other (still waiting)');
    assert.ok(!svg.includes('<script>') && svg.includes('&#60;script&#62;'));
    assert.match(svg, /var\(--vscode-charts-blue/);
    assert.ok(!/https?:\/\/(?!www\.w3\.org\/2000\/svg)/.test(svg), 'no network reference');
  });
});
