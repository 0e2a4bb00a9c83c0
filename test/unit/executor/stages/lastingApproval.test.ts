import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { ToolDefinition } from '../../../../src/executor/contract/contract';
import { lastingRuleText, lastingRuleTexts } from '../../../../src/executor/policy/rules/lastingRules';
import { RulesPolicy } from '../../../../src/executor/policy/rulesPolicy';
import { BashTool, decide, makeSandbox, WriteTool, type Sandbox } from '../policy/policyFixtures';
import type { ApprovalAnswer, ApprovalRequest } from '../../../../src/executor/ports/approvalClient';
import type { PermissionPolicy, PermissionRequest } from '../../../../src/executor/ports/permissionPolicy';
import { makeExecutor, tool } from '../fixtures';

/** A policy that asks (forced or not) and records what it was asked to remember. */
function askingPolicy(forced: boolean, withWorkspace = true) {
  const remembered: string[] = [];
  const policy: PermissionPolicy = {
    evaluate: () => ({ behavior: 'ask', by: 'mode', reason: 'asks', forced }),
    rememberSessionApproval: (request: PermissionRequest) => void remembered.push(`session:${request.callId}`),
    ...(withWorkspace ? { rememberWorkspaceApproval: async (request: PermissionRequest) => void remembered.push(`workspace:${request.callId}`) } : {}),
  };
  return { policy, remembered };
}

function answering(answer: ApprovalAnswer, asked: ApprovalRequest[]) {
  return { requestApproval: (request: ApprovalRequest) => (asked.push(request), Promise.resolve(answer)) };
}

describe('approval: answers that last', () => {
  it('"Allow in this workspace" is offered when the policy can keep it, and keeps it', async () => {
    const { policy, remembered } = askingPolicy(false);
    const asked: ApprovalRequest[] = [];
    const { executor } = makeExecutor([tool('Write', { readOnly: false })], { permissionPolicy: policy, approvalClient: answering({ kind: 'allowWorkspace' }, asked) });
    const [result] = await executor.executeBatch([{ id: 'c1', name: 'Write', input: {} }]);
    assert.equal(result!.isError, false);
    assert.equal(asked[0]!.workspaceAllowed, true);
    assert.deepEqual(remembered, ['workspace:c1']);
  });

  it('is not offered by a policy that cannot keep it, and an answer of it then lasts the session only', async () => {
    const { policy, remembered } = askingPolicy(false, false);
    const asked: ApprovalRequest[] = [];
    const { executor } = makeExecutor([tool('Write', { readOnly: false })], { permissionPolicy: policy, approvalClient: answering({ kind: 'allowWorkspace' }, asked) });
    await executor.executeBatch([{ id: 'c2', name: 'Write', input: {} }]);
    assert.equal(asked[0]!.workspaceAllowed, false);
    assert.deepEqual(remembered, ['session:c2']);
  });

  it('a forced ask is never remembered, whatever the client answers', async () => {
    const { policy, remembered } = askingPolicy(true);
    const asked: ApprovalRequest[] = [];
    const { executor } = makeExecutor([tool('Write', { readOnly: false })], { permissionPolicy: policy, approvalClient: answering({ kind: 'allowWorkspace' }, asked) });
    const [result] = await executor.executeBatch([{ id: 'c3', name: 'Write', input: {} }]);
    assert.equal(result!.isError, false, 'the call itself was allowed once');
    assert.equal(asked[0]!.workspaceAllowed, false);
    assert.equal(asked[0]!.sessionAllowed, false);
    assert.deepEqual(remembered, []);
  });
});

describe('"Allow in this Workspace": the rule written matches exactly what was approved', () => {
  /** File names made of picomatch's specials, extglobs, braces, brackets and backslashes. */
  const NAMES = ['*', '**', '?', '??', '!(x)', '@(a|b)', '+(a)', '*(a)', '?(a)', '{a,b}', '{1..3}', '[ab]', '[!a]', '[a-z]', 'a\\b', '\\*', '(a)', 'a]', '[', '!x', 'a|b', '^x$', '#x', '~', '.*', 'a,b', 'x+', '@x', '$(id)'];
  let box: Sandbox;
  beforeEach(() => {
    box = makeSandbox();
  });
  afterEach(() => box.dispose());

  /** What "Allow in this Workspace" writes for this call, read back as a workspace's settings. */
  async function reloaded(tool: ToolDefinition, input: unknown): Promise<RulesPolicy> {
    const policy = new RulesPolicy();
    const request = { tool, input, callId: 'c', workspaceFolders: [box.ws] };
    const texts = await policy.workspaceRuleTexts(request);
    assert.ok(texts && texts.length > 0, 'the rule can be written');
    const read = new RulesPolicy({ workspace: { allow: texts } });
    assert.deepEqual(read.problems, [], texts.join(', '));
    return read;
  }
  const near = (name: string) => [path.join(os.homedir(), '.bashrc'), path.join(os.homedir(), '.ssh', 'authorized_keys'), path.join(box.outside, 'secret.txt'), path.join(box.ws, 'notes.md'), path.join(box.ws, 'src', 'a.ts'), path.join(box.ws, 'a'), path.join(box.ws, 'x'), path.join(box.ws, `${name}x`), path.join(path.dirname(box.ws), name)];

  for (const name of NAMES) {
    it(`a Write to a file named ${name} allows that file and nothing else`, async () => {
      const target = path.join(box.ws, name);
      const read = await reloaded(WriteTool, { path: target, content: '' });
      assert.equal((await decide(read, box, WriteTool, { path: target, content: '' })).behavior, 'allow');
      for (const other of near(name)) assert.notEqual((await decide(read, box, WriteTool, { path: other, content: '' })).behavior, 'allow', other);
    });
  }

  it('echo hi > "*" allows that redirection and no other file', async () => {
    const read = await reloaded(BashTool, { command: 'echo hi > "*"' });
    assert.equal((await decide(read, box, BashTool, { command: 'echo hi > "*"' })).behavior, 'allow');
    // A redirection inside the workspace follows the command's rule; the written Edit rule must reach no further.
    for (const other of ['echo hi > ~/.bashrc', `echo hi > ${path.join(box.outside, 'x')}`, 'echo bye > "*"']) {
      assert.notEqual((await decide(read, box, BashTool, { command: other })).behavior, 'allow', other);
    }
  });

  it('a text that would read back as more than its rule is not written', () => {
    const base = { behavior: 'allow' as const, source: 'session' as const };
    assert.equal(lastingRuleText({ ...base, tool: 'Write', text: 'Write(//ws/*)', exactPath: '/ws/*' }), undefined, 'an unescaped glob');
    assert.equal(lastingRuleText({ ...base, tool: 'Write', text: 'Write(//ws/\\*)', exactPath: '/ws/*' }), 'Write(//ws/\\*)');
    assert.equal(lastingRuleText({ ...base, tool: 'Write', text: 'Write(ws/a)', exactPath: '/ws/a' }), undefined, 'not anchored');
    assert.equal(lastingRuleText({ ...base, tool: 'Bash', text: 'Bash(echo hi *)', content: 'echo hi *', command: { words: ['echo', 'hi', '*'], prefix: false } }), undefined, 'reads back as a prefix');
    assert.equal(lastingRuleText({ ...base, tool: 'Bash', text: 'Bash(echo hi)', content: 'echo hi', command: { words: ['echo', 'hi'], prefix: false } }), 'Bash(echo hi)');
    assert.equal(lastingRuleTexts([]), undefined, 'no rule, nothing to keep');
  });

  it('is not offered when the policy cannot keep the rule exactly, and such an answer lasts the session only', async () => {
    const remembered: string[] = [];
    const policy: PermissionPolicy = {
      evaluate: () => ({ behavior: 'ask', by: 'mode', reason: 'asks' }),
      rememberSessionApproval: (request: PermissionRequest) => void remembered.push(`session:${request.callId}`),
      rememberWorkspaceApproval: async (request: PermissionRequest) => void remembered.push(`workspace:${request.callId}`),
      workspaceApprovalPossible: async () => false,
    };
    const asked: ApprovalRequest[] = [];
    const { executor } = makeExecutor([tool('Write', { readOnly: false })], { permissionPolicy: policy, approvalClient: answering({ kind: 'allowWorkspace' }, asked) });
    await executor.executeBatch([{ id: 'c4', name: 'Write', input: {} }]);
    assert.equal(asked[0]!.workspaceAllowed, false);
    assert.deepEqual(remembered, ['session:c4']);
  });
});
