/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, extensionApi, readText, waitFor, workspaceRoot } from './helpers';

/** The diff editor tab whose modified side is `fileName`, in any group. */
function diffTabOf(fileName: string): vscode.Tab | undefined {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .find((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.path.endsWith(`/${fileName}`));
}

suite('file_diff results in the diff editor', () => {
  const NOTES = 'notes.txt';
  let original = '';

  setup(async () => {
    original = await readText(vscode.Uri.joinPath(workspaceRoot(), NOTES));
    (await extensionApi()).testing.setApprovalResponder(() => ({ kind: 'allowOnce' }));
    await closeAllEditors();
  });

  teardown(async () => {
    (await extensionApi()).testing.setApprovalResponder(undefined);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(workspaceRoot(), NOTES), new TextEncoder().encode(original));
    await closeAllEditors();
  });

  test('an approved Write opens a diff editor whose sides hold the before and after text', async () => {
    const api = await extensionApi();
    const file = vscode.Uri.joinPath(workspaceRoot(), NOTES).fsPath;
    const results = await api.runToolCalls(
      [
        { id: 'r1', name: 'Read', input: { file_path: file } },
        { id: 'w1', name: 'Write', input: { file_path: file, content: 'changed by Write\n' } },
      ],
      { showResults: false },
    );
    const write = results?.find((result) => result.callId === 'w1');
    assert.equal(write?.isError, false, write?.modelContent);
    assert.equal(write?.display?.kind, 'file_diff');

    const input = (await waitFor('a diff editor tab on notes.txt', () => diffTabOf(NOTES))).input as vscode.TabInputTextDiff;
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), original);
    assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), 'changed by Write\n');
    assert.equal(await readText(vscode.Uri.joinPath(workspaceRoot(), NOTES)), 'changed by Write\n');
  });

  test('a new file opens a diff editor from empty to its text', async () => {
    const api = await extensionApi();
    const file = vscode.Uri.joinPath(workspaceRoot(), 'created.txt');
    try {
      const results = await api.runToolCalls([{ id: 'w2', name: 'Write', input: { file_path: file.fsPath, content: 'new file\n' } }], { showResults: false });
      assert.equal(results?.[0]?.isError, false, results?.[0]?.modelContent);
      const input = (await waitFor('a diff editor tab on created.txt', () => diffTabOf('created.txt'))).input as vscode.TabInputTextDiff;
      assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), '');
      assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), 'new file\n');
    } finally {
      await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
    }
  });

  test('a denied Write changes nothing and opens no diff editor', async () => {
    const api = await extensionApi();
    api.testing.setApprovalResponder(() => ({ kind: 'deny', reason: 'The user denied this tool call.' }));
    const file = vscode.Uri.joinPath(workspaceRoot(), NOTES).fsPath;
    const results = await api.runToolCalls(
      [
        { id: 'r3', name: 'Read', input: { file_path: file } },
        { id: 'w3', name: 'Write', input: { file_path: file, content: 'must not land\n' } },
      ],
      { showResults: false },
    );
    assert.equal(results?.find((result) => result.callId === 'w3')?.errorKind, 'permission');
    assert.equal(await readText(vscode.Uri.joinPath(workspaceRoot(), NOTES)), original);
    assert.equal(diffTabOf(NOTES), undefined);
  });
});
