import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveAgentLaunch } from '../../../src/bridge/launch';

describe('resolveAgentLaunch', () => {
  it('takes no agent when no command is set', () => {
    assert.deepEqual(resolveAgentLaunch({ command: undefined, args: undefined, env: undefined, cwd: undefined }, true), { ignored: undefined });
  });

  it('in a trusted workspace, the folder beats the workspace beats the user', () => {
    const decision = resolveAgentLaunch(
      {
        command: { globalValue: 'user-agent', workspaceValue: 'workspace-agent' },
        args: { globalValue: ['--user'], workspaceFolderValue: ['--folder'] },
        env: { globalValue: { A: '1' } },
        cwd: { workspaceValue: '/w' },
      },
      true,
    );
    assert.deepEqual(decision.launch, { command: 'workspace-agent', args: ['--folder'], env: { A: '1' }, cwd: '/w' });
    assert.equal(decision.ignored, undefined);
  });

  it('an untrusted workspace cannot name an agent or change its arguments, and says so', () => {
    const onlyWorkspace = resolveAgentLaunch({ command: { workspaceValue: 'evil' }, args: undefined, env: undefined, cwd: undefined }, false);
    assert.equal(onlyWorkspace.launch, undefined);
    assert.match(onlyWorkspace.ignored!, /agentToolExecutor\.agent\.command, ignored until the workspace is trusted/);
    const mixed = resolveAgentLaunch({ command: { globalValue: 'mine', workspaceValue: 'evil' }, args: { workspaceValue: ['--evil'] }, env: { workspaceFolderValue: { X: 'y' } }, cwd: undefined }, false);
    assert.deepEqual(mixed.launch, { command: 'mine', args: [], env: {}, cwd: undefined });
    assert.match(mixed.ignored!, /command, agentToolExecutor\.agent\.args, agentToolExecutor\.agent\.env/);
  });
});
