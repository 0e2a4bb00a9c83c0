/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FileDiffDisplay } from '../../../src/executor/contract';
import { closeAllEditors, extensionApi, readText, registerTool, waitFor, workspaceRoot } from './helpers';

interface ReplaceData {
  readonly path: string;
  readonly before: string;
  readonly after: string;
}

suite('file_diff results in the diff editor', () => {
  const NOTES = 'notes.txt';
  let original = '';
  let unregister: () => void = () => {};

  setup(async () => {
    original = await readText(vscode.Uri.joinPath(workspaceRoot(), NOTES));
    // A fixture tool: it changes a real file and reports a file_diff display, as Write and Edit do.
    unregister = await registerTool({
      name: 'test_replace',
      description: 'Replaces a file’s text.',
      jsonSchema: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } }, required: ['path', 'text'] },
      sideEffectScope: 'workspace',
      handler: async (input: { path: string; text: string }) => {
        const uri = vscode.Uri.joinPath(workspaceRoot(), input.path);
        const before = await readText(uri);
        await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(input.text));
        return { content: `replaced ${input.path}`, data: { path: input.path, before, after: input.text } };
      },
      display: (output: { data?: ReplaceData }): FileDiffDisplay | undefined =>
        output.data && { kind: 'file_diff', path: output.data.path, before: output.data.before, after: output.data.after, diff: '', truncated: false },
    });
    (await extensionApi()).testing.setApprovalResponder(() => ({ kind: 'allowOnce' }));
    await closeAllEditors();
  });

  teardown(async () => {
    unregister();
    (await extensionApi()).testing.setApprovalResponder(undefined);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(workspaceRoot(), NOTES), new TextEncoder().encode(original));
    await closeAllEditors();
  });

  test('an approved change opens a diff editor whose sides hold the before and after text', async () => {
    const api = await extensionApi();
    const results = await api.runToolCalls([{ id: 'w1', name: 'test_replace', input: { path: NOTES, text: 'changed by the tool\n' } }], { showResults: false });
    assert.equal(results?.[0]?.isError, false, results?.[0]?.modelContent);

    const tab = await waitFor('a diff editor tab on notes.txt', () =>
      vscode.window.tabGroups.all
        .flatMap((group) => group.tabs)
        .find((candidate) => candidate.input instanceof vscode.TabInputTextDiff && candidate.input.modified.path.endsWith(`/${NOTES}`)),
    );
    const input = tab.input as vscode.TabInputTextDiff;
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), original);
    assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), 'changed by the tool\n');
    assert.equal(await readText(vscode.Uri.joinPath(workspaceRoot(), NOTES)), 'changed by the tool\n');
  });
});
