import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import type { ToolOutput } from '../../../src/executor/contract/contract';
import { FixedAnswer } from './approvalFixtures';
import { deferred, makeExecutor, tick, tool } from './fixtures';

describe('call pipeline: lookup', () => {
  it('refuses unknown, disabled and not-offered tools without running them', async () => {
    let ran = 0;
    const { executor, telemetry, logger } = makeExecutor([
      tool('Echo', { handler: () => ((ran += 1), { content: 'x' }) }),
      tool('Off', { handler: () => ((ran += 1), { content: 'x' }) }),
      tool('tool_search'),
    ]);
    executor.registry.setEnabled('Off', false);
    const unknown = await executor.execute({ id: '1', name: 'rm_rf', input: {} });
    assert.equal(unknown.modelContent, 'unknown tool: rm_rf');
    assert.equal(unknown.errorKind, 'invocation');
    assert.equal(unknown.name, 'rm_rf');
    const disabled = await executor.execute({ id: '2', name: 'Off', input: {} });
    assert.equal(disabled.modelContent, 'tool Off is disabled');
    const notOffered = await executor.execute({ id: '3', name: 'Echo', input: {} }, { offeredTools: new Set(['tool_search', 'Off']) });
    assert.equal(notOffered.modelContent, 'tool Echo was not offered in this turn. Use tool_search to find the tool you need, or call one of the offered tools: Off, tool_search.');
    assert.equal(ran, 0);
    assert.equal(telemetry.spans[0]!.attributes['tool.name'], 'unknown', 'unregistered names are recorded as unknown');
    assert.equal(telemetry.spans[1]!.attributes['tool.name'], 'Off');
    assert.equal(telemetry.spans[0]!.attributes['failure.stage'], 'lookup');
    assert.ok(logger.messages().includes('tool.call.not_found'));
  });
});

describe('call pipeline: validation and resolveInput', () => {
  it('wraps validation failures in <tool_use_error> and names tool and field', async () => {
    const { executor } = makeExecutor([tool('quiet_writer', { inputSchema: z.object({ text: z.string() }) })]);
    const result = await executor.execute({ id: '1', name: 'quiet_writer', input: {} });
    assert.equal(result.modelContent, '<tool_use_error>tool quiet_writer: invalid input: missing required field text</tool_use_error>');
    assert.equal(result.errorKind, 'invocation');
    assert.equal(result.failure?.stage, 'validate');
  });

  it('runs resolveInput exactly once, and every later reader sees the resolved, frozen input', async () => {
    let resolves = 0;
    const seen: unknown[] = [];
    const { executor } = makeExecutor(
      [
        tool('Norm', {
          readOnly: false,
          sideEffectScope: 'workspace',
          inputSchema: z.object({ path: z.string().optional(), file_path: z.string().optional() }),
          resolveInput: (input: { path?: string; file_path?: string }) => {
            resolves += 1;
            return { path: input.path ?? input.file_path };
          },
          handler: (input: { path: string }) => {
            seen.push(input);
            assert.throws(() => ((input as { path: string }).path = 'changed'));
            return { content: input.path };
          },
        }),
      ],
      { approvalClient: { requestApproval: (request) => (seen.push(request.input), Promise.resolve({ kind: 'allowOnce' })) } },
    );
    executor.hooks.register({ name: 'pre', event: 'PreToolUse', run: (input) => (seen.push(input.tool_input), {}) });
    const result = await executor.execute({ id: '1', name: 'Norm', input: '{"file_path":"a.txt"}' });
    assert.equal(result.modelContent, 'a.txt');
    assert.equal(resolves, 1);
    assert.equal(seen.length, 3);
    for (const input of seen) assert.equal(JSON.stringify(input), '{"path":"a.txt"}');
  });
});

describe('call pipeline: the context a handler gets', () => {
  it('works taken apart: progress, openOutputStream and the signal off ctx, and a report after the call ended goes nowhere', async () => {
    let late: (() => void) | undefined;
    const { executor } = makeExecutor([
      tool('Parts', {
        handler: (_input, ctx) => {
          const { progress, openOutputStream, signal, callId } = ctx;
          progress('half way');
          const stream = openOutputStream();
          stream.write('streamed\n');
          late = () => progress('after the end');
          return { content: `${callId} ${signal.aborted}` };
        },
      }),
    ]);
    const events: string[] = [];
    executor.onEvent((event) => {
      if (event.type === 'toolCallProgress') events.push(event.message);
    });
    const result = await executor.execute({ id: 'p1', name: 'Parts', input: {} });
    assert.equal(result.isError, false, result.modelContent);
    assert.match(result.modelContent, /^streamed\np1 false/);
    assert.deepEqual(events, ['half way']);
    late!();
    await tick(150);
    assert.deepEqual(events, ['half way'], 'no event after the result');
  });
});

describe('call pipeline: handler crash capture and results', () => {
  for (const [label, thrown, expected] of [
    ['an Error', new Error('assignment to entry in nil map'), 'tool crasher crashed: assignment to entry in nil map'],
    ['a string', 'boom', 'tool crasher crashed: boom'],
    ['null', null, 'tool crasher crashed: null'],
    ['an object', { code: 'E42' }, 'tool crasher crashed: {"code":"E42"}'],
    ['undefined', undefined, 'tool crasher crashed: undefined'],
  ] as const) {
    it(`turns a throw of ${label} into an execution error`, async () => {
      const { executor } = makeExecutor([tool('crasher', { handler: () => { throw thrown; } })]);
      const result = await executor.execute({ id: '1', name: 'crasher', input: {} });
      assert.equal(result.modelContent, expected);
      assert.equal(result.errorKind, 'execution');
      assert.equal(result.isError, true);
    });
  }

  it('catches async rejections too', async () => {
    const { executor } = makeExecutor([tool('crasher', { handler: async () => { await tick(); throw new TypeError('late'); } })]);
    const result = await executor.execute({ id: '1', name: 'crasher', input: {} });
    assert.equal(result.modelContent, 'tool crasher crashed: late');
    assert.equal(result.failure?.errorClass, 'TypeError');
  });

  it('treats a missing result object as an error, and empty content as "completed with no output"', async () => {
    const { executor } = makeExecutor([
      tool('Nothing', { handler: () => undefined as unknown as ToolOutput }),
      tool('Silent', { handler: () => ({ content: '' }) }),
    ]);
    const nothing = await executor.execute({ id: '1', name: 'Nothing', input: {} });
    assert.equal(nothing.modelContent, 'tool Nothing returned no result');
    assert.equal(nothing.errorKind, 'execution');
    const silent = await executor.execute({ id: '2', name: 'Silent', input: {} });
    assert.equal(silent.modelContent, '(Silent completed with no output)');
    assert.equal(silent.isError, false);
    assert.equal(silent.strategy, 'empty');
  });

  it('wraps tool-reported failures and keeps them as results', async () => {
    const { executor } = makeExecutor([tool('Fails', { handler: () => ({ content: 'file not found: a.txt', isError: true }) })]);
    const result = await executor.execute({ id: '1', name: 'Fails', input: {} });
    assert.equal(result.modelContent, '<tool_use_error>file not found: a.txt</tool_use_error>');
    assert.equal(result.errorKind, 'execution');
  });

  it('uses formatModelContent and display', async () => {
    const { executor } = makeExecutor([
      tool('Fmt', {
        handler: () => ({ content: 'raw', data: { n: 3 } }),
        formatModelContent: (output: ToolOutput<{ n: number }>) => `n=${output.data!.n}`,
        display: () => ({ kind: 'bash_output', output: 'shown', truncated: false }),
      }),
    ]);
    const result = await executor.execute({ id: '1', name: 'Fmt', input: {} });
    assert.equal(result.modelContent, 'n=3');
    assert.deepEqual(result.display, { kind: 'bash_output', output: 'shown', truncated: false });
  });
});

describe('call pipeline: permission defaults', () => {
  const writer = tool('Writer', { readOnly: false, concurrentSafe: false, sideEffectScope: 'workspace' });

  it('denies an ask with "No permission client configured" when nobody can answer', async () => {
    let ran = false;
    const { executor, telemetry } = makeExecutor([{ ...writer, handler: () => ((ran = true), { content: 'x' }) }]);
    const result = await executor.execute({ id: '1', name: 'Writer', input: {} });
    assert.equal(result.modelContent, 'No permission client configured');
    assert.equal(result.errorKind, 'permission');
    assert.equal(ran, false);
    assert.equal(telemetry.spans[0]!.attributes['permission.outcome'], 'denied');
  });

  it('runs read-only tools without asking, and records the decision in the span', async () => {
    const { executor, telemetry } = makeExecutor([tool('Reader')]);
    const result = await executor.execute({ id: '1', name: 'Reader', input: {} });
    assert.equal(result.isError, false);
    assert.deepEqual(result.permission, { outcome: 'none', by: 'mode' });
    assert.equal(telemetry.spans[0]!.attributes['permission.outcome'], 'none');
  });

  it('runs after an approval, and the approval wait is reported and not timed', async () => {
    const answer = deferred<void>();
    const asked = deferred<void>();
    const { executor, events } = makeExecutor([{ ...writer, timeout: { defaultMs: 20 } }], {
      approvalClient: { requestApproval: async () => (asked.resolve(), await answer.promise, { kind: 'allowOnce' }) },
    });
    const pending = executor.execute({ id: '1', name: 'Writer', input: {} });
    await asked.promise;
    await tick(60);
    answer.resolve();
    const result = await pending;
    assert.equal(result.isError, false, result.modelContent);
    assert.deepEqual(result.permission, { outcome: 'approved', by: 'user' });
    assert.ok(result.timing.permissionWaitMs >= 40);
    const types = events.map((event) => event.type);
    // One call is a turn of its own: its turn, group and queued events frame the pipeline's.
    assert.deepEqual(types, ['turnStarted', 'batchGroupStarted', 'toolCallQueued', 'permissionRequested', 'permissionResolved', 'toolCallStarted', 'toolCallResult', 'batchGroupEnded', 'turnEnded']);
  });

  it('denies with the user reason', async () => {
    const { executor } = makeExecutor([writer], { approvalClient: new FixedAnswer({ kind: 'deny', reason: 'not now' }) });
    const result = await executor.execute({ id: '1', name: 'Writer', input: {} });
    assert.equal(result.modelContent, 'The user denied permission to use Writer. Reason: not now The call was not run.');
    assert.deepEqual(result.permission, { outcome: 'denied', by: 'user' });
  });
});

describe('call pipeline: hooks', () => {
  it('appends PreToolUse and PostToolUse additional context with numbered entries', async () => {
    const { executor } = makeExecutor([tool('Echo')]);
    executor.hooks.register({ name: 'a', event: 'PreToolUse', run: () => ({ additionalContext: 'remember the style guide' }) });
    executor.hooks.register({ name: 'b', event: 'PostToolUse', matcher: 'Echo|Other', run: () => ({ additionalContext: 'output looked fine' }) });
    executor.hooks.register({ name: 'c', event: 'PostToolUse', matcher: 'Other', run: () => ({ additionalContext: 'never' }) });
    const result = await executor.execute({ id: '1', name: 'Echo', input: { text: 'hi' } });
    assert.equal(result.modelContent, 'hi\n\n[Hook additional context]\n1. remember the style guide\n2. output looked fine');
  });

  it('lets a PreToolUse deny end the call, with its context on the denial', async () => {
    let ran = false;
    const { executor } = makeExecutor([tool('Echo', { handler: () => ((ran = true), { content: '' }) })]);
    executor.hooks.register({ name: 'guard', event: 'PreToolUse', run: () => ({ decision: 'deny', reason: 'no echo today', additionalContext: 'see policy' }) });
    executor.hooks.register({ name: 'late', event: 'PreToolUse', run: () => assert.fail('the chain ends at the first decision') });
    const result = await executor.execute({ id: '1', name: 'Echo', input: {} });
    assert.equal(ran, false);
    assert.equal(result.errorKind, 'permission');
    assert.equal(result.modelContent, 'PreToolUse hook denied this Echo call: no echo today\n\n[Hook additional context]\n1. see policy');
    assert.deepEqual(result.permission, { outcome: 'denied', by: 'hook', detail: 'guard' });
  });

  it('gives no decision for a hook that crashes or times out, and logs it', async () => {
    const { executor, logger } = makeExecutor([tool('Writer', { readOnly: false, sideEffectScope: 'workspace' })]);
    executor.hooks.register({ name: 'crashy', event: 'PreToolUse', run: () => { throw new Error('hook bug'); } });
    executor.hooks.register({ name: 'slow', event: 'PreToolUse', timeoutMs: 20, run: () => new Promise(() => {}) });
    const result = await executor.execute({ id: '1', name: 'Writer', input: {} });
    assert.equal(result.modelContent, 'No permission client configured', 'never a silent allow');
    assert.ok(logger.messages().includes('tool.hook.crashed'));
    assert.ok(logger.messages().includes('tool.hook.timeout'));
  });

  it('runs PostToolUseFailure with is_interrupt for cancels', async () => {
    const inputs: Array<{ event: string; interrupt?: boolean }> = [];
    const started = deferred<void>();
    const { executor } = makeExecutor([tool('Hang', { handler: () => (started.resolve(), new Promise(() => {})) })]);
    executor.hooks.register({ name: 'f', event: 'PostToolUseFailure', run: (input) => (inputs.push({ event: input.hook_event_name, interrupt: input.is_interrupt }), {}) });
    const turn = new AbortController();
    const pending = executor.execute({ id: '1', name: 'Hang', input: {} }, { signal: turn.signal });
    await started.promise;
    turn.abort();
    await pending;
    assert.deepEqual(inputs, [{ event: 'PostToolUseFailure', interrupt: true }]);
  });
});

describe('call pipeline: a bug after the handler', () => {
  it('still gives the call exactly one result, and the batch goes on', async () => {
    const redactor = {
      redact: (text: string) => {
        if (text.includes('BOOM')) throw new Error('redaction rule blew up');
        return text;
      },
    };
    const { executor, logger } = makeExecutor([tool('Echo')], { redactor });
    const results = await executor.executeBatch([
      { id: '1', name: 'Echo', input: { text: 'BOOM' } },
      { id: '2', name: 'Echo', input: { text: 'fine' } },
    ]);
    assert.equal(results.length, 2);
    assert.equal(results[0]!.errorKind, 'execution');
    assert.equal(results[0]!.modelContent, 'tool Echo: the executor could not prepare this result (redaction rule blew up); the output was dropped.');
    assert.equal(results[0]!.failure?.stage, 'serialize');
    assert.equal(results[1]!.modelContent, 'fine');
    assert.ok(logger.messages().includes('tool.call.internal_error'));
  });
});
