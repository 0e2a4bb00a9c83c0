/// <reference types="mocha" />
// Approvals that last: "Allow in this workspace" writes the exact rule into the
// workspace's .claude/settings.local.json, and the next identical call runs without asking; the
// rules list removes it again; a forced ask (a secret file) is never offered it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../../src/executor/ports/approvalClient';
import { extensionApi, workspaceRoot } from './helpers';

suite('Lasting approvals', () => {
  const asked: ApprovalRequest[] = [];
  const claudeDir = () => vscode.Uri.joinPath(workspaceRoot(), '.claude');
  const localSettings = () => vscode.Uri.joinPath(claudeDir(), 'settings.local.json');

  setup(async () => {
    asked.length = 0;
    const api = await extensionApi();
    api.testing.setApprovalResponder((request) => {
      asked.push(request);
      // The first question is answered "Allow in this workspace", later ones "Allow" once.
      if (!request.workspaceAllowed) return { kind: 'deny', reason: 'no lasting answer offered' };
      return asked.length === 1 ? { kind: 'allowWorkspace' } : { kind: 'allowOnce' };
    });
  });

  teardown(async () => {
    const api = await extensionApi();
    api.testing.setApprovalResponder(undefined);
    await vscode.workspace.fs.delete(claudeDir(), { recursive: true, useTrash: false }).then(undefined, () => undefined);
    await api.testing.reloadPermissions();
  });

  test('Allow in this workspace writes the exact rule, and the next identical call runs without asking', async () => {
    const api = await extensionApi();
    const [first] = await api.executor.executeBatch([{ id: 'w1', name: 'Bash', input: { command: 'echo lasting' } }]);
    assert.equal(first?.isError, false, first?.modelContent);
    assert.equal(asked.length, 1);
    const written = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(localSettings()))) as { permissions: { allow: string[] } };
    assert.deepEqual(written.permissions.allow, ['Bash(echo lasting)']);

    const [again, other] = await api.executor.executeBatch([
      { id: 'w2', name: 'Bash', input: { command: 'echo lasting' } },
      { id: 'w3', name: 'Bash', input: { command: 'echo something else' } },
    ]);
    assert.equal(again?.isError, false, again?.modelContent);
    assert.equal(again?.permission.by, 'rule');
    assert.equal(other?.isError, false);
    assert.equal(asked.length, 2, 'only the other command asked: the rule is exact, not a prefix');

    const rule = api.testing.permissionRules().find((candidate) => candidate.text === 'Bash(echo lasting)' && candidate.source === 'workspace');
    assert.ok(rule, 'the rule is in force as a workspace rule');
    assert.equal(await api.testing.removePermissionRule(rule), true);
    const after = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(localSettings()))) as { permissions: { allow: string[] } };
    assert.deepEqual(after.permissions.allow, []);
  });

  test('a Write to a file named * keeps a rule for that file only, its glob characters escaped', async () => {
    const api = await extensionApi();
    const star = vscode.Uri.joinPath(workspaceRoot(), '*');
    const other = vscode.Uri.joinPath(workspaceRoot(), 'other-lasting.txt');
    try {
      const [first] = await api.executor.executeBatch([{ id: 'g1', name: 'Write', input: { path: '*', content: 'x\n' } }]);
      assert.equal(first?.isError, false, first?.modelContent);
      const written = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(localSettings()))) as { permissions: { allow: string[] } };
      assert.deepEqual(written.permissions.allow, [`Write(/${star.fsPath.replace('*', '\\*')})`]);
      const [again, sibling] = await api.executor.executeBatch([
        { id: 'g2', name: 'Write', input: { path: '*', content: 'y\n' } },
        { id: 'g3', name: 'Write', input: { path: 'other-lasting.txt', content: 'z\n' } },
      ]);
      assert.equal(again?.permission.by, 'rule', again?.modelContent);
      assert.equal(sibling?.isError, false);
      assert.equal(asked.length, 2, 'the sibling asked: the rule names the file *, not every file');
    } finally {
      for (const uri of [star, other]) await vscode.workspace.fs.delete(uri, { useTrash: false }).then(undefined, () => undefined);
    }
  });

  test('a forced ask (writing a secret file) is never offered a lasting answer', async () => {
    const api = await extensionApi();
    const [result] = await api.executor.executeBatch([{ id: 'w4', name: 'Write', input: { path: '.env', content: 'A=1\n' } }]);
    assert.equal(result?.errorKind, 'permission');
    assert.equal(asked[0]?.workspaceAllowed, false);
    assert.equal(asked[0]?.sessionAllowed, false);
  });
});
