// Why a prompt fired: the request names the part no rule allowed and offers the prefix rule that would
// allow it; a chosen prefix rule is kept, and one the request did not offer never is.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { ApprovalAnswer, ApprovalRequest } from '../../../../src/executor/ports/approvalClient';
import type { PermissionPolicy, PermissionRequest } from '../../../../src/executor/ports/permissionPolicy';
import { createPolicyFromSettings } from '../../../../src/executor/policy/index';
import { makeExecutor, tool } from '../fixtures';
import { BashTool, decide, makeSandbox } from '../policy/policyFixtures';

describe('a prompt says why', () => {
  const sandbox = makeSandbox();
  after(() => sandbox.dispose());
  const policy = createPolicyFromSettings({ user: { permissions: { allow: ['Bash(ls:*)', 'Bash(git status)'] } }, workspaceTrusted: true, workspaceFolders: [sandbox.ws] });

  it('names the command no rule allowed and the prefix rule that would', async () => {
    const decision = await decide(policy, sandbox, BashTool, { command: 'ls && git push origin main && git status' });
    assert.equal(decision.behavior, 'ask');
    assert.match(decision.reason, /no rule allows git push origin main; Bash\(git push \*\) would allow it/);
    assert.doesNotMatch(decision.reason, /git status|ls/);
    assert.deepEqual(decision.suggestedRules, ['Bash(git push *)']);
  });

  it('offers no prefix rule when one would not be enough, or would allow anything', async () => {
    assert.equal((await decide(policy, sandbox, BashTool, { command: 'cat $FILE' })).suggestedRules, undefined, 'the run-time argument still asks');
    assert.equal((await decide(policy, sandbox, BashTool, { command: 'bash -x script.sh' })).suggestedRules, undefined);
    assert.equal((await decide(policy, sandbox, BashTool, { command: 'cat .env' })).suggestedRules, undefined, 'a forced ask');
  });
});

describe('the approval request carries the offer; the answer keeps only what was offered', () => {
  function recording(suggestedRules: readonly string[]) {
    const kept: (readonly string[] | undefined)[] = [];
    const policy: PermissionPolicy = {
      evaluate: () => ({ behavior: 'ask', by: 'mode', reason: 'no rule allows git push origin main', suggestedRules }),
      rememberSessionApproval: () => undefined,
      rememberWorkspaceApproval: async (_request: PermissionRequest, _signal?: AbortSignal, rules?: readonly string[]) => void kept.push(rules),
    };
    return { policy, kept };
  }
  const answering = (answer: ApprovalAnswer, asked: ApprovalRequest[]) => ({ requestApproval: (request: ApprovalRequest) => (asked.push(request), Promise.resolve(answer)) });

  it('keeps the chosen prefix rule, and drops one the request never showed', async () => {
    const { policy, kept } = recording(['Bash(git push *)']);
    const asked: ApprovalRequest[] = [];
    const { executor } = makeExecutor([tool('Bash', { readOnly: false })], { permissionPolicy: policy, approvalClient: answering({ kind: 'allowWorkspace', rules: ['Bash(git push *)', 'Bash(*)'] }, asked) });
    await executor.executeBatch([{ id: 'c1', name: 'Bash', input: {} }]);
    assert.deepEqual(asked[0]!.suggestedRules, ['Bash(git push *)']);
    assert.match(asked[0]!.reason, /no rule allows git push origin main/);
    assert.deepEqual(kept, [['Bash(git push *)']]);
  });
});
