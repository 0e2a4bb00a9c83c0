import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HookFailure, interpretHookResult } from '../../../src/node/hooks/commandHookOutput';

const ok = (stdout: string) => ({ exitCode: 0, signal: null, stdout, stderr: '' });

describe('interpretHookResult: Claude Code hook answers', () => {
  it('exit 0 without JSON is no objection and no decision', () => {
    assert.deepEqual(interpretHookResult('PreToolUse', ok('just logging\n')), {});
  });

  it('exit 2 blocks a PreToolUse or PermissionRequest with stderr as the reason, and informs after the fact', () => {
    const blocked = { exitCode: 2, signal: null, stdout: '', stderr: 'no force pushes\n' };
    assert.deepEqual(interpretHookResult('PreToolUse', blocked), { decision: 'deny', reason: 'no force pushes' });
    assert.deepEqual(interpretHookResult('PermissionRequest', blocked), { decision: 'deny', reason: 'no force pushes' });
    assert.deepEqual(interpretHookResult('PostToolUse', blocked), { additionalContext: 'no force pushes' });
  });

  it('reads hookSpecificOutput, top-level fields and the older approve/block form', () => {
    assert.deepEqual(
      interpretHookResult('PreToolUse', ok('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check","additionalContext":"ctx"}}')),
      { decision: 'ask', reason: 'check', additionalContext: 'ctx' },
    );
    assert.deepEqual(interpretHookResult('PreToolUse', ok('{"permissionDecision":"deny","reason":"r"}')), { decision: 'deny', reason: 'r' });
    assert.deepEqual(interpretHookResult('PreToolUse', ok('{"decision":"approve","reason":"fine"}')), { decision: 'allow', reason: 'fine' });
    assert.deepEqual(interpretHookResult('PreToolUse', ok('{"decision":"block","reason":"no"}')), { decision: 'deny', reason: 'no' });
  });

  it('reads PermissionRequest decisions and ignores "ask" there', () => {
    assert.deepEqual(
      interpretHookResult('PermissionRequest', ok('{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not today"}}}')),
      { decision: 'deny', reason: 'not today' },
    );
    assert.deepEqual(interpretHookResult('PermissionRequest', ok('{"hookSpecificOutput":{"permissionDecision":"ask"}}')), {});
  });

  it('turns a PostToolUse block reason into context for the model', () => {
    assert.deepEqual(interpretHookResult('PostToolUse', ok('{"decision":"block","reason":"tests fail now"}')), { additionalContext: 'tests fail now' });
  });

  it('a failing hook is a HookFailure (no decision, logged by the chain)', () => {
    assert.throws(() => interpretHookResult('PreToolUse', { exitCode: 1, signal: null, stdout: '', stderr: 'oops' }), HookFailure);
    assert.throws(() => interpretHookResult('PreToolUse', { exitCode: null, signal: 'SIGKILL', stdout: '', stderr: '' }), /killed by SIGKILL/);
    assert.throws(() => interpretHookResult('PreToolUse', ok('{"permissionDecision": ')), /invalid JSON/);
  });
});
