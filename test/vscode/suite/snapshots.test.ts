/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extensionApi, workspaceRoot } from './helpers';

suite('Workspace change snapshots', () => {
  teardown(async () => (await extensionApi()).testing.setApprovalResponder(undefined));

  suiteTeardown(async () => {
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(workspaceRoot(), 'top.txt')).then(undefined, () => undefined);
  });

  test('files a command creates or changes are listed for the model', async () => {
    const api = await extensionApi();
    api.testing.setApprovalResponder(() => ({ kind: 'allowOnce' }));
    const [result] = await api.executor.executeBatch([{ id: 's1', name: 'Bash', input: { command: 'printf top > top.txt' } }]);
    assert.equal(result?.isError, false, result?.modelContent);
    assert.match(result?.modelContent ?? '', /\[Workspace Changes\]\n\+ top\.txt \(created, 3 B\)/);
  });

  test('a change past the walk’s depth limit is reported through the file watcher', async () => {
    const api = await extensionApi();
    api.testing.setApprovalResponder(() => ({ kind: 'allowOnce' }));
    // The runner wrote this file before VS Code started (harness/workspace.ts). W's walk (4
    // levels) does not reach it, so only the watcher can see it change.
    const command = 'printf "changed by the command" > deep/a/b/c/d/e/f/g/deep.txt';
    const [result] = await api.executor.executeBatch([{ id: 's2', name: 'Bash', input: { command } }]);
    assert.equal(result?.isError, false, result?.modelContent);
    assert.match(result?.modelContent ?? '', /~ deep\/a\/b\/c\/d\/e\/f\/g\/deep\.txt \(modified/);
  });
});
