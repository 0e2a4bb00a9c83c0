import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import type { ToolCall } from '../../../src/executor/contract/contract';
import type { ToolCallResult } from '../../../src/executor/contract/result';
import type { ToolExecutor } from '../../../src/executor/executor';
import type { PermissionPolicy } from '../../../src/executor/ports/permissionPolicy';
import { makeExecutor, tick, tool } from './fixtures';

describe('early dispatch while streaming', () => {
  const { executor } = makeExecutor([
    tool('Read', { inputSchema: z.object({ path: z.string() }) }),
    tool('Serial', { concurrentSafe: false }),
    tool('Todo', { sideEffectScope: 'session' }),
    tool('Danger', { destructive: true }),
    tool('Asks', { permission: { alwaysAsk: true } }),
    tool('Edit', { readOnly: false, sideEffectScope: 'workspace', concurrentSafe: false }),
  ]);

  it('lets a read-only, concurrent-safe, scope-none call with valid input start early', async () => {
    assert.equal(await executor.canDispatchEarly({ id: '1', name: 'Read', input: { path: 'a' } }), true);
    assert.equal(await executor.canDispatchEarly({ id: '1', name: 'Read', input: '{"path":"a"}' }), true);
  });

  it('keeps everything else for the batch', async () => {
    for (const [name, input] of [
      ['Read', {}],
      ['Read', '{"path":'],
      ['Serial', {}],
      ['Todo', {}],
      ['Danger', {}],
      ['Asks', {}],
      ['Edit', {}],
      ['Missing', {}],
    ] as const) {
      assert.equal(await executor.canDispatchEarly({ id: '1', name, input }), false, `${name} ${JSON.stringify(input)}`);
    }
  });
});

/** Offers one call in a turn while the model is still replying, then ends the turn: the call may start early. */
async function offeredWhileStreaming(executor: ToolExecutor, call: ToolCall): Promise<ToolCallResult> {
  const turn = executor.beginTurn();
  turn.offer(call);
  await tick(20);
  turn.end();
  const [result] = await turn.results();
  return result!;
}

/** A policy that allows everything and counts its judgements, with the inputs it was shown. */
function countingPolicy(): PermissionPolicy & { readonly seen: unknown[] } {
  const seen: unknown[] = [];
  return {
    seen,
    evaluate: (request) => {
      seen.push(request.input);
      return { behavior: 'allow', by: 'rule', reason: 'allowed by the test' };
    },
  };
}

describe('early dispatch hands its judgement to the pipeline', () => {
  it('a call started early is validated, resolved and judged once, not again by the pipeline', async () => {
    let validations = 0;
    let resolutions = 0;
    const policy = countingPolicy();
    const { executor, events } = makeExecutor(
      [
        tool('Read', {
          inputSchema: z.object({ path: z.string() }).superRefine(() => void validations++),
          resolveInput: (input: { path: string }) => (resolutions++, { path: `${input.path}!` }),
          handler: (input: { path: string }) => ({ content: `read ${input.path}` }),
        }),
      ],
      { permissionPolicy: policy },
    );
    const result = await offeredWhileStreaming(executor, { id: 'r1', name: 'Read', input: { path: 'a' } });
    assert.equal(result.modelContent, 'read a!');
    assert.ok(events.some((event) => event.type === 'toolCallQueued' && event.callId === 'r1' && event.early === true), 'the call started early');
    assert.deepEqual(policy.seen, [{ path: 'a!' }]);
    assert.equal(validations, 1);
    assert.equal(resolutions, 1);
  });

  it('a call with a NUL byte in a path is refused at early dispatch with the pipeline\'s error, and no policy sees it', async () => {
    const policy = countingPolicy();
    const ran: string[] = [];
    const { executor, events } = makeExecutor(
      [tool('Read', { inputSchema: z.object({ path: z.string() }), handler: (input: { path: string }) => (ran.push(input.path), { content: 'read' }) })],
      { permissionPolicy: policy },
    );
    const result = await offeredWhileStreaming(executor, { id: 'n1', name: 'Read', input: { path: 'a\u0000b' } });
    assert.equal(result.isError, true);
    assert.equal(result.failure?.stage, 'validate');
    assert.equal(result.failure?.message, 'tool Read: invalid input: field path contains a NUL byte');
    assert.match(result.modelContent, /^<tool_use_error>tool Read: invalid input: field path contains a NUL byte<\/tool_use_error>$/);
    assert.deepEqual(ran, []);
    assert.deepEqual(policy.seen, [], 'the policy never judges input that fails validation');
    assert.ok(!events.some((event) => event.type === 'toolCallQueued' && event.early === true), 'the call did not start early');
    // The same call without early dispatch gets the same result.
    const [batch] = await executor.executeBatch([{ id: 'n1', name: 'Read', input: { path: 'a\u0000b' } }], { earlyDispatch: false });
    assert.equal(batch!.modelContent, result.modelContent);
    assert.deepEqual(batch!.failure, result.failure);
  });

  it('a call started early still meets the PreToolUse hooks, the forced asks and the approval after its judgement', async () => {
    const policy = countingPolicy();
    const asked: string[] = [];
    const { executor } = makeExecutor([tool('Read', { inputSchema: z.object({ path: z.string() }) })], {
      permissionPolicy: policy,
      approvalClient: { requestApproval: (request) => (asked.push(request.reason), Promise.resolve({ kind: 'deny' as const })) },
    });
    executor.hooks.register({ name: 'careful', event: 'PreToolUse', run: () => ({ decision: 'ask', reason: 'look first' }) });
    const result = await offeredWhileStreaming(executor, { id: 'r1', name: 'Read', input: { path: 'a' } });
    assert.deepEqual(asked, ['look first']);
    assert.equal(result.isError, true);
    assert.deepEqual(result.permission, { outcome: 'denied', by: 'user' });
    assert.equal(policy.seen.length, 1);
  });
});
