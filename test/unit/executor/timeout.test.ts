import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import type { ToolDefinition } from '../../../src/executor/contract/contract';
import { Semaphore } from '../../../src/executor/turn/limiter';
import type { AdmissionGate } from '../../../src/executor/ports/admissionGate';
import { resolveTimeoutMs } from '../../../src/executor/call/stages/run/timeout';
import { deferred, makeExecutor, tick, tool } from './fixtures';

const base = tool('T') as ToolDefinition;

/** The gate, telling `queued` when a request starts waiting at it. */
function queuedAt(gate: AdmissionGate, queued: { resolve: () => void }): AdmissionGate {
  return { acquire: (signal) => (queued.resolve(), gate.acquire(signal)) };
}

describe('resolveTimeoutMs priority chain', () => {
  it("kind:'none' means no timeout at all", () => {
    assert.equal(resolveTimeoutMs({ ...base, timeout: { kind: 'none' }, resolveTimeoutBudgetMs: () => 5 }, {}, 300_000), undefined);
  });
  it('the tool-computed budget comes first', () => {
    const def = { ...base, timeout: { defaultMs: 10, allowCallOverride: true }, resolveTimeoutBudgetMs: () => 77 };
    assert.equal(resolveTimeoutMs(def, { timeout_ms: 99 }, 300_000), 77);
  });
  it('then timeout_ms or timeout from the input, only when overrides are allowed', () => {
    assert.equal(resolveTimeoutMs({ ...base, timeout: { defaultMs: 10, allowCallOverride: true } }, { timeout_ms: 99 }, 300_000), 99);
    assert.equal(resolveTimeoutMs({ ...base, timeout: { defaultMs: 10, allowCallOverride: true } }, { timeout: 88 }, 300_000), 88);
    assert.equal(resolveTimeoutMs({ ...base, timeout: { defaultMs: 10 } }, { timeout_ms: 99 }, 300_000), 10);
  });
  it('then defaultMs, then metadata.timeoutMs, then the executor default of 300000 ms', () => {
    assert.equal(resolveTimeoutMs({ ...base, timeout: { defaultMs: 10 }, metadata: { timeoutMs: 20 } }, {}, 300_000), 10);
    assert.equal(resolveTimeoutMs({ ...base, metadata: { timeoutMs: 20 } }, {}, 300_000), 20);
    assert.equal(resolveTimeoutMs(base, {}, 300_000), 300_000);
  });
  it('caps at maxMs and then adds the cleanup grace (Bash: +6 s)', () => {
    const bash = { ...base, timeout: { defaultMs: 120_000, maxMs: 600_000, allowCallOverride: true, cleanupGraceMs: 6_000 } };
    assert.equal(resolveTimeoutMs(bash, {}, 300_000), 126_000);
    assert.equal(resolveTimeoutMs(bash, { timeout: 900_000 }, 300_000), 606_000);
  });
});

describe('timeouts', () => {
  it("aborts the handler's signal and answers with W's wording", async () => {
    const aborted = deferred<unknown>();
    const { executor } = makeExecutor([
      tool('Slow', {
        timeout: { defaultMs: 30 },
        handler: (_input, ctx) => new Promise(() => ctx.signal.addEventListener('abort', () => aborted.resolve(ctx.signal.reason))),
      }),
    ]);
    const result = await executor.execute({ id: '1', name: 'Slow', input: {} });
    assert.equal(result.errorKind, 'timeout');
    assert.equal(
      result.modelContent,
      "Tool 'Slow' execution timed out after 30ms. The external service may be slow or unavailable. Consider: retry later, use alternative approach, or skip this step.",
    );
    assert.equal(((await aborted.promise) as Error).name, 'ToolTimeoutError');
  });

  it("stops a handler that checks ctx.throwIfAborted between its steps with the timeout as the reason", async () => {
    const stopped = deferred<unknown>();
    const { executor } = makeExecutor([
      tool('Steps', {
        timeout: { defaultMs: 30 },
        handler: async (_input, ctx) => {
          try {
            for (;;) {
              await tick(5);
              ctx.throwIfAborted();
            }
          } catch (error) {
            stopped.resolve(error);
            throw error;
          }
        },
      }),
    ]);
    const result = await executor.execute({ id: '1', name: 'Steps', input: {} });
    assert.equal(result.errorKind, 'timeout');
    assert.equal(((await stopped.promise) as Error).name, 'ToolTimeoutError');
  });

  it('reports the timeout without the cleanup grace', async () => {
    const { executor } = makeExecutor([tool('Slow', { timeout: { defaultMs: 1_500, cleanupGraceMs: 0 }, resolveTimeoutBudgetMs: () => 20, handler: () => new Promise(() => {}) })]);
    const result = await executor.execute({ id: '1', name: 'Slow', input: {} });
    assert.match(result.modelContent, /timed out after 20ms\./);
  });

  it("keeps the tool's own result when it handles its timeout itself", async () => {
    const { executor } = makeExecutor([
      tool('Own', { timeout: { defaultMs: 20, cleanupGraceMs: 200 }, handler: async () => (await tick(40), { content: 'my own timeout report', isError: true }) }),
    ]);
    const result = await executor.execute({ id: '1', name: 'Own', input: {} });
    assert.equal(result.modelContent, '<tool_use_error>my own timeout report</tool_use_error>');
  });

  it('pauses the deadline while a model request waits at the admission gate and reports queuedMs', async () => {
    const gate = new Semaphore(1);
    const hold = await gate.acquire();
    const queued = deferred<void>();
    const { executor } = makeExecutor(
      [
        tool('Asks', {
          timeout: { defaultMs: 80 },
          handler: async (_input, ctx) => {
            const release = await ctx.admitModelRequest();
            release();
            return { content: 'answered' };
          },
        }),
      ],
      { admissionGate: queuedAt(gate, queued) },
    );
    const pending = executor.execute({ id: '1', name: 'Asks', input: {} });
    await queued.promise;
    await tick(200);
    hold();
    const result = await pending;
    assert.equal(result.isError, false, result.modelContent);
    assert.ok(result.timing.queuedMs >= 150, `queuedMs ${result.timing.queuedMs}`);
  });

  it('still times out when the tool is slow after admission, and reports the queue time', async () => {
    const gate = new Semaphore(1);
    const hold = await gate.acquire();
    const queued = deferred<void>();
    const { executor } = makeExecutor(
      [tool('Asks', { timeout: { defaultMs: 40 }, handler: async (_i, ctx) => { (await ctx.admitModelRequest())(); return new Promise(() => {}); } })],
      { admissionGate: queuedAt(gate, queued) },
    );
    const pending = executor.execute({ id: '1', name: 'Asks', input: {} });
    await queued.promise;
    await tick(100);
    hold();
    const result = await pending;
    assert.equal(result.errorKind, 'timeout');
    assert.ok(result.timing.queuedMs >= 80);
  });
});

describe('cancellation', () => {
  it('returns a cancelled result without running when the turn was already aborted', async () => {
    let ran = false;
    const { executor } = makeExecutor([tool('Echo', { handler: () => ((ran = true), { content: '' }), cancellation: { userVisibleMessage: 'Echo was cancelled.' } })]);
    const result = await executor.execute({ id: '1', name: 'Echo', input: {} }, { signal: AbortSignal.abort() });
    assert.equal(ran, false);
    assert.equal(result.errorKind, 'cancelled');
    assert.equal(result.modelContent, 'Echo was cancelled.');
  });

  it("answers with the tool's message at once, without waiting for the handler to exit", async () => {
    const finished = deferred<void>();
    const started = deferred<void>();
    const { executor } = makeExecutor([
      tool('Stubborn', {
        cancellation: { userVisibleMessage: 'Command interrupted by the user.' },
        // Ignores its signal and never ends on its own.
        handler: () => (started.resolve(), finished.promise.then(() => ({ content: 'too late' }))),
      }),
    ]);
    const turn = new AbortController();
    const pending = executor.execute({ id: '1', name: 'Stubborn', input: {} }, { signal: turn.signal });
    await started.promise;
    turn.abort();
    const result = await pending;
    assert.equal(result.modelContent, 'Command interrupted by the user.');
    assert.equal(result.errorKind, 'cancelled');
    finished.resolve();
  });

  it('never turns a handler rejecting after the call ended into an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const late = deferred<never>();
      const started = deferred<void>();
      const { executor } = makeExecutor([tool('Late', { handler: () => (started.resolve(), late.promise) })]);
      const turn = new AbortController();
      const pending = executor.execute({ id: '1', name: 'Late', input: {} }, { signal: turn.signal });
      await started.promise;
      turn.abort();
      await pending;
      late.reject(new Error('rejected after the call ended'));
      await tick(20);
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('cancels a call waiting for approval', async () => {
    const asked = deferred<void>();
    const { executor } = makeExecutor([tool('Writer', { readOnly: false, sideEffectScope: 'workspace', inputSchema: z.object({}) })], {
      approvalClient: { requestApproval: (_r, signal) => (asked.resolve(), new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)))) },
    });
    const turn = new AbortController();
    const pending = executor.execute({ id: '1', name: 'Writer', input: {} }, { signal: turn.signal });
    await asked.promise;
    turn.abort();
    const result = await pending;
    assert.equal(result.errorKind, 'cancelled');
  });
});
