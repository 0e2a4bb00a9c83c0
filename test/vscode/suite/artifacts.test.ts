/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { closeAllEditors, extensionApi, readText, registerTool, waitFor } from './helpers';

/** Far past the spill size (spec §7: max(20000 chars, 3 × budget)), so the output must become an artifact. */
const LINES = 5000;

suite('Artifacts', () => {
  const fullOutput = Array.from({ length: LINES }, (_, index) => `output line ${index + 1}`).join('\n');
  let unregister: () => void = () => {};

  setup(async () => {
    unregister = await registerTool({
      name: 'test_big_output',
      description: 'Prints many lines.',
      jsonSchema: { type: 'object', properties: {} },
      readOnly: true,
      sideEffectScope: 'none',
      resultBudget: { maxModelBytes: 2000, strategy: 'artifact' },
      handler: () => ({ content: fullOutput }),
    });
    await closeAllEditors();
  });

  teardown(async () => {
    unregister();
    await closeAllEditors();
  });

  test('a large output is written under the workspace storage folder and the model gets its path', async () => {
    const api = await extensionApi();
    const [result] = await api.executor.executeBatch([{ id: 'big1', name: 'test_big_output', input: {} }]);
    assert.ok(result?.artifact, `no artifact: ${result?.modelContent.slice(0, 200)}`);
    const sessionFolder = path.join(api.testing.storageRoot.fsPath, 'artifacts', api.executor.sessionId);
    assert.equal(path.dirname(result.artifact.path), sessionFolder);
    assert.match(api.testing.storageRoot.path, /workspaceStorage/);
    assert.match(result.artifact.uri, new RegExp(`^executor-artifact://${api.executor.sessionId}/big1-tool-result-`));
    assert.equal(await readText(vscode.Uri.file(result.artifact.path)), fullOutput);
    assert.ok(result.modelContent.includes(result.artifact.path), 'the model content names the saved path');
    assert.ok(result.modelContent.length < fullOutput.length);
  });

  test('the link in the results document opens the artifact in an editor', async () => {
    const api = await extensionApi();
    const results = await api.runToolCalls([{ id: 'big2', name: 'test_big_output', input: {} }]);
    const artifact = results?.[0]?.artifact;
    assert.ok(artifact);

    const resultsEditor = await waitFor('the results document', () =>
      vscode.window.visibleTextEditors.find((editor) => editor.document.uri.scheme === 'executor-results'),
    );
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', resultsEditor.document.uri);
    const link = links.find((candidate) => resultsEditor.document.getText(candidate.range) === artifact.uri);
    assert.ok(link?.target, `no link on ${artifact.uri}`);
    // What a click on the link does: the command URI's command with its arguments.
    assert.equal(link.target.scheme, 'command');
    await vscode.commands.executeCommand(link.target.path, ...JSON.parse(decodeURIComponent(link.target.query)));

    const opened = await waitFor('the artifact editor', () =>
      vscode.window.activeTextEditor?.document.uri.fsPath === artifact.path ? vscode.window.activeTextEditor : undefined,
    );
    assert.equal(opened.document.getText(), fullOutput);
  });

  test('an executor-artifact URI opened directly shows the stored text read-only', async () => {
    const api = await extensionApi();
    const [result] = await api.executor.executeBatch([{ id: 'big3', name: 'test_big_output', input: {} }]);
    assert.ok(result?.artifact);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(result.artifact.uri));
    assert.equal(document.getText(), fullOutput);
  });
});

suite('Redaction', () => {
  teardown(async () => (await extensionApi()).testing.setApprovalResponder(undefined));

  test('a secret in a large output is masked in the model content and in the artifact file', async () => {
    const api = await extensionApi();
    api.testing.setApprovalResponder(() => ({ kind: 'allowOnce' }));
    const token = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
    // The token first, then enough lines to spill past Bash's budget into an artifact.
    const command = `printf '%s\\n' ${token}; seq 1 200000`;
    const [result] = await api.executor.executeBatch([{ id: 'secret1', name: 'Bash', input: { command } }]);
    assert.equal(result?.isError, false, result?.modelContent.slice(0, 300));
    assert.ok(result?.artifact, 'the output was persisted');
    assert.ok(!result.modelContent.includes(token));
    assert.match(result.modelContent, /\[REDACTED:github-token\]/);
    const stored = await readText(vscode.Uri.file(result.artifact.path));
    assert.ok(!stored.includes(token), 'the artifact file holds no secret');
    assert.match(stored, /^\[REDACTED:github-token\]\n1\n2\n/);
  });
});
