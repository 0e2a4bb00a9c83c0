import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HookRegistry, matchesTool, runHookChain } from '../../../src/executor/call/hookChain';
import type { HookInput } from '../../../src/executor/ports/hooks';
import { RecordingLogger } from './fixtures';

const input: HookInput = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: {}, tool_use_id: 'c', cwd: '/tmp', session_id: 's' };
const PRE = new Set(['allow', 'deny', 'ask']);

describe('runHookChain', () => {
  it('the first hook that decides ends the chain; context of the hooks before it is kept', async () => {
    const hooks = new HookRegistry();
    const ran: string[] = [];
    hooks.register({ name: 'a', event: 'PreToolUse', run: () => (ran.push('a'), { additionalContext: 'from a' }) });
    hooks.register({ name: 'b', event: 'PreToolUse', run: () => (ran.push('b'), { decision: 'ask', reason: 'b asks', additionalContext: 'from b' }) });
    hooks.register({ name: 'c', event: 'PreToolUse', run: () => (ran.push('c'), { decision: 'deny' }) });
    const result = await runHookChain(hooks, input, { stopAtDecision: true, allowedDecisions: PRE, logger: new RecordingLogger() }, new AbortController().signal);
    assert.deepEqual(ran, ['a', 'b']);
    assert.equal(result.decision?.hook, 'b');
    assert.equal(result.decision?.outcome.decision, 'ask');
    assert.deepEqual(result.additionalContext, ['from a', 'from b']);
  });

  it('a hook that times out gives no decision, is logged, and its signal is aborted', async () => {
    const hooks = new HookRegistry();
    let hookSignal: AbortSignal | undefined;
    hooks.register({ name: 'slow', event: 'PreToolUse', timeoutMs: 20, run: (_input, signal) => ((hookSignal = signal), new Promise(() => {})) });
    hooks.register({ name: 'next', event: 'PreToolUse', run: () => ({ decision: 'allow' }) });
    const logger = new RecordingLogger();
    const result = await runHookChain(hooks, input, { stopAtDecision: true, allowedDecisions: PRE, logger }, new AbortController().signal);
    assert.equal(result.decision?.hook, 'next', 'the chain goes on after a timeout');
    assert.equal(hookSignal?.aborted, true);
    assert.ok(logger.messages().includes('tool.hook.timeout'));
  });

  it('a crashing hook gives no decision and is logged; a decision the event cannot give is ignored', async () => {
    const hooks = new HookRegistry();
    hooks.register({ name: 'crash', event: 'PermissionRequest', run: () => { throw new Error('boom'); } });
    hooks.register({ name: 'asks', event: 'PermissionRequest', run: () => ({ decision: 'ask' }) });
    const logger = new RecordingLogger();
    const result = await runHookChain(hooks, { ...input, hook_event_name: 'PermissionRequest' }, { stopAtDecision: true, allowedDecisions: new Set(['allow', 'deny']), logger }, new AbortController().signal);
    assert.equal(result.decision, undefined);
    assert.deepEqual(logger.messages().filter((message) => message.startsWith('tool.hook')), ['tool.hook.crashed', 'tool.hook.ignored_decision']);
  });

  it('rejects when the turn is aborted, and aborts the running hook', async () => {
    const hooks = new HookRegistry();
    let hookSignal: AbortSignal | undefined;
    hooks.register({ name: 'wait', event: 'PreToolUse', run: (_input, signal) => ((hookSignal = signal), new Promise(() => {})) });
    const turn = new AbortController();
    const running = runHookChain(hooks, input, { stopAtDecision: true, allowedDecisions: PRE, logger: new RecordingLogger() }, turn.signal);
    turn.abort(new Error('turn over'));
    await assert.rejects(running, /turn over/);
    assert.equal(hookSignal?.aborted, true);
  });
});

describe('matchesTool (Claude Code matchers)', () => {
  it('empty and * match all; names and regular expressions match the whole name', () => {
    assert.ok(matchesTool(undefined, 'Bash') && matchesTool('', 'Bash') && matchesTool('*', 'Bash'));
    assert.ok(matchesTool('Edit|Write', 'Write'));
    assert.ok(!matchesTool('Edit|Write', 'WriteFile'));
    assert.ok(matchesTool('mcp__.*', 'mcp__github__search'));
    assert.ok(!matchesTool('Bash', 'BashOutput'));
  });
});
