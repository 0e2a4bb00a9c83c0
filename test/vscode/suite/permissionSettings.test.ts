/// <reference types="mocha" />
// Rules and command hooks from the settings a user already has: .claude/settings.json in the folder
// and VS Code's own settings, applied by the real extension to built-in Bash calls.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../../src/executor/ports/approvalClient';
import { extensionApi, workspaceRoot } from './helpers';

suite('Permission settings', () => {
  const asked: ApprovalRequest[] = [];
  const claudeDir = () => vscode.Uri.joinPath(workspaceRoot(), '.claude');

  setup(async () => {
    asked.length = 0;
    const api = await extensionApi();
    api.testing.setApprovalResponder((request) => {
      asked.push(request);
      return { kind: 'deny', reason: 'not asked for in this test' };
    });
    const hook = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"checked by the settings hook"}}'`;
    const settings = {
      permissions: { allow: ['Bash(echo:*)'], deny: ['Bash(rm:*)'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] },
    };
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(claudeDir(), 'settings.json'), new TextEncoder().encode(JSON.stringify(settings)));
    await api.testing.reloadPermissions();
  });

  teardown(async () => {
    const api = await extensionApi();
    api.testing.setApprovalResponder(undefined);
    await vscode.workspace.getConfiguration('agentToolExecutor').update('permissions.deny', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.workspace.fs.delete(claudeDir(), { recursive: true, useTrash: false });
    await api.testing.reloadPermissions();
  });

  test('an allow rule from .claude/settings.json runs a command without asking, and its hook adds context', async () => {
    const api = await extensionApi();
    const [result] = await api.executor.executeBatch([{ id: 'p1', name: 'Bash', input: { command: 'echo from-rule' } }]);
    assert.equal(result?.isError, false, result?.modelContent);
    assert.equal(asked.length, 0);
    assert.deepEqual(result?.permission.by, 'rule');
    assert.match(result!.modelContent, /from-rule/);
    assert.match(result!.modelContent, /\[Hook additional context\]\n1\. checked by the settings hook/);
  });

  test('a deny rule wins, and a compound command cannot slip past the allow rule', async () => {
    const api = await extensionApi();
    const [denied, compound] = await api.executor.executeBatch([
      { id: 'p2', name: 'Bash', input: { command: 'rm -rf build' } },
      { id: 'p3', name: 'Bash', input: { command: 'echo ok && rm -rf build' } },
    ]);
    assert.equal(denied?.errorKind, 'permission');
    assert.match(denied!.modelContent, /Bash\(rm:\*\)/);
    assert.equal(compound?.errorKind, 'permission');
    assert.equal(asked.length, 0, 'a deny needs no question');
  });

  test('a deny rule in VS Code workspace settings beats the allow rule of the settings file', async () => {
    const api = await extensionApi();
    await vscode.workspace.getConfiguration('agentToolExecutor').update('permissions.deny', ['Bash(echo:*)'], vscode.ConfigurationTarget.Workspace);
    await api.testing.reloadPermissions();
    const [result] = await api.executor.executeBatch([{ id: 'p4', name: 'Bash', input: { command: 'echo from-rule' } }]);
    assert.equal(result?.errorKind, 'permission');
    assert.match(result!.modelContent, /Bash\(echo:\*\)/);
  });

  test('a rule it cannot read is skipped, the rest of the file applies, and a prompt offers the prefix rule, which is kept', async () => {
    const api = await extensionApi();
    const settings = { permissions: { allow: ['Bash(echo "unterminated)', 'Bash(printf:*)', 'Bash(git * main)'] } };
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(claudeDir(), 'settings.json'), new TextEncoder().encode(JSON.stringify(settings)));
    await api.testing.reloadPermissions();
    api.testing.setApprovalResponder((request) => {
      asked.push(request);
      return { kind: 'allowWorkspace', rules: request.suggestedRules };
    });
    const [printed, asking, again] = await api.executor.executeBatch([
      { id: 'r1', name: 'Bash', input: { command: 'printf ok && printf done' } },
      { id: 'r2', name: 'Bash', input: { command: 'printf a; date +%s' } },
      { id: 'r3', name: 'Bash', input: { command: 'date -u' } },
    ]);
    assert.equal(printed?.isError, false, printed?.modelContent);
    assert.equal(asking?.isError, false, asking?.modelContent);
    assert.equal(asked.length, 1, 'only the first date asked');
    assert.match(asked[0]!.reason, /no rule allows date \+%s; Bash\(date \*\) would allow it/);
    assert.deepEqual(asked[0]!.suggestedRules, ['Bash(date *)']);
    assert.equal(again?.isError, false, 'the kept prefix rule allows the next date');
    const local = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(claudeDir(), 'settings.local.json')))) as { permissions: { allow: string[] } };
    assert.deepEqual(local.permissions.allow, ['Bash(date *)']);
  });
});
