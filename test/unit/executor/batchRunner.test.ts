import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ToolCall } from '../../../src/executor/contract/contract';
import { STOP_TURN_MESSAGE } from '../../../src/executor/turn/batchRunner';
import { deferred, makeExecutor, tick, tool } from './fixtures';

const call = (id: string, name: string, input: unknown = {}): ToolCall => ({ id, name, input });

describe('batch runner', () => {
  it('runs at most N handlers of a group at once, and emits queued before a call waits for its slot', async () => {
    let running = 0;
    let peak = 0;
    const gate = deferred<void>();
    const full = deferred<void>();
    const { executor, events } = makeExecutor(
      [
        tool('Read', {
          handler: async () => {
            running += 1;
            peak = Math.max(peak, running);
            if (running === 3) full.resolve();
            await gate.promise;
            running -= 1;
            return { content: 'ok' };
          },
        }),
      ],
      { maxConcurrency: 3 },
    );
    const pending = executor.executeBatch(Array.from({ length: 8 }, (_, i) => call(String(i), 'Read')));
    await full.promise;
    // Time for a broken limiter to start a fourth handler.
    await tick(20);
    const queued = events.filter((event) => event.type === 'toolCallQueued').length;
    const started = events.filter((event) => event.type === 'toolCallStarted').length;
    assert.equal(queued, 8, 'every call of the group shows as queued at once');
    assert.equal(started, 3);
    gate.resolve();
    const results = await pending;
    assert.equal(peak, 3);
    assert.deepEqual(results.map((r) => r.callId), ['0', '1', '2', '3', '4', '5', '6', '7']);
  });

  it('runs groups in order and emits group start/end events', async () => {
    const order: string[] = [];
    const { executor, events } = makeExecutor(
      [
        tool('Read', { handler: async (input: { text?: string }) => (await tick(5), order.push(input.text!), { content: 'r' }) }),
        tool('Bash', { readOnly: false, concurrentSafe: false, sideEffectScope: 'external', handler: (input: { text?: string }) => (order.push(input.text!), { content: 'b' }) }),
      ],
      { approvalClient: { requestApproval: () => Promise.resolve({ kind: 'allowOnce' }) } },
    );
    const results = await executor.executeBatch([call('a', 'Read', { text: 'a' }), call('b', 'Read', { text: 'b' }), call('c', 'Bash', { text: 'c' }), call('d', 'Read', { text: 'd' })]);
    assert.deepEqual(order.slice(2), ['c', 'd']);
    assert.deepEqual(results.map((r) => r.group), [0, 0, 1, 2]);
    const groupEvents = events.filter((e) => e.type === 'batchGroupStarted' || e.type === 'batchGroupEnded').map((e) => `${e.type}:${'group' in e ? e.group : ''}`);
    assert.deepEqual(groupEvents, ['batchGroupStarted:0', 'batchGroupEnded:0', 'batchGroupStarted:1', 'batchGroupEnded:1', 'batchGroupStarted:2', 'batchGroupEnded:2']);
  });

  it('cancels every later group when a result requests a turn stop', async () => {
    let laterRan = false;
    const { executor } = makeExecutor([
      tool('Stop', { concurrentSafe: false, handler: () => ({ content: 'stopping', stopTurn: true }) }),
      tool('Read', { handler: () => ((laterRan = true), { content: 'x' }) }),
    ]);
    const results = await executor.executeBatch([call('1', 'Stop'), call('2', 'Read'), call('3', 'Read')]);
    assert.equal(laterRan, false);
    assert.equal(results[0]!.stopTurn, true);
    for (const result of results.slice(1)) {
      assert.equal(result.modelContent, STOP_TURN_MESSAGE);
      assert.equal(result.modelContent, 'Tool cancelled because a previous tool result requested a turn stop.');
      assert.equal(result.errorKind, 'cancelled');
    }
  });

  it('does not skip later groups after a failed serial call', async () => {
    const { executor } = makeExecutor([
      tool('Todo', { readOnly: false, concurrentSafe: false, sideEffectScope: 'none', handler: () => { throw new Error('local failure'); } }),
      tool('Read'),
    ]);
    const results = await executor.executeBatch([call('1', 'Todo'), call('2', 'Read')]);
    assert.equal(results[0]!.isError, true);
    assert.equal(results[1]!.isError, false);
  });

  it('cancels calls still waiting for a slot when the turn is aborted, without running them', async () => {
    let ran = 0;
    const first = deferred<void>();
    const { executor } = makeExecutor(
      [tool('Read', { handler: (_i, ctx) => ((ran += 1), first.resolve(), new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ content: 'x' })))) })],
      { maxConcurrency: 1 },
    );
    const turn = new AbortController();
    const pending = executor.executeBatch([call('1', 'Read'), call('2', 'Read'), call('3', 'Read')], { signal: turn.signal });
    await first.promise;
    turn.abort();
    const results = await pending;
    assert.equal(ran, 1);
    assert.deepEqual(results.map((r) => r.errorKind), ['cancelled', 'cancelled', 'cancelled']);
  });

  it('gives exactly one result per call, in order, for a 10,000-call batch of no-op tools', async () => {
    const { executor } = makeExecutor([tool('Noop', { handler: () => ({ content: '' }) })]);
    const calls = Array.from({ length: 10_000 }, (_, i) => call(`c${i}`, i % 1000 === 999 ? 'Missing' : 'Noop'));
    const results = await executor.executeBatch(calls);
    assert.equal(results.length, 10_000);
    results.forEach((result, index) => assert.equal(result.callId, `c${index}`));
    assert.equal(results.filter((r) => r.isError).length, 10);
  });

  it('gives calls without an id one', async () => {
    const { executor } = makeExecutor([tool('Read')]);
    const [result] = await executor.executeBatch([{ id: '', name: 'Read', input: {} }]);
    assert.match(result!.callId, /^call_0_/);
  });

  it('tracks external background tasks and stops them on dispose', async () => {
    const { executor, events } = makeExecutor([]);
    const done = deferred<void>();
    let stopped = false;
    const task = executor.trackExternalBackgroundTask({ name: 'resumed run', done: done.promise, stop: () => { stopped = true; done.resolve(); }, readOutput: () => 'partial' });
    assert.equal(executor.backgroundTasks.get(task.id)?.status, 'running');
    assert.equal(task.readOutput(), 'partial');
    await executor.dispose();
    assert.equal(stopped, true);
    assert.equal(executor.backgroundTasks.get(task.id)?.status, 'stopped');
    assert.deepEqual(events.map((e) => e.type), ['backgroundTaskStarted', 'backgroundTaskEnded']);
  });
});
