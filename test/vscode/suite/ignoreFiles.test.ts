/// <reference types="mocha" />
// Agents' ignore files in the real extension host: a file listed in `.aiignore` is refused
// by Read, and `cat` of it in Bash asks (and is denied here), whatever the mode allows.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../../src/executor/ports/approvalClient';
import { extensionApi, waitFor, workspaceRoot } from './helpers';

suite('Ignore files', () => {
  const asked: ApprovalRequest[] = [];
  const file = (name: string) => vscode.Uri.joinPath(workspaceRoot(), name);
  const write = (name: string, text: string) => vscode.workspace.fs.writeFile(file(name), new TextEncoder().encode(text));

  setup(async () => {
    asked.length = 0;
    const api = await extensionApi();
    api.testing.setApprovalResponder((request) => (asked.push(request), { kind: 'deny', reason: 'denied by the test' }));
    await write('hidden.txt', 'kept away from agents\n');
    await write('.aiignore', 'hidden.txt\n');
  });

  teardown(async () => {
    (await extensionApi()).testing.setApprovalResponder(undefined);
    for (const name of ['hidden.txt', '.aiignore']) await vscode.workspace.fs.delete(file(name)).then(undefined, () => undefined);
  });

  test('Read refuses a file .aiignore lists, and cat of it in Bash asks', async () => {
    const api = await extensionApi();
    // The watcher reads the new .aiignore within moments of its creation.
    const read = await waitFor('Read to refuse hidden.txt', async () => {
      const [result] = await api.executor.executeBatch([{ id: 'i1', name: 'Read', input: { path: 'hidden.txt' } }]);
      return result?.isError ? result : undefined;
    });
    assert.match(read.modelContent, /hidden\.txt is excluded by \.aiignore/);
    assert.ok(!read.modelContent.includes('kept away'));
    const [cat] = await api.executor.executeBatch([{ id: 'i2', name: 'Bash', input: { command: 'cat hidden.txt' } }]);
    assert.equal(cat?.errorKind, 'permission');
    assert.match(asked.at(-1)?.reason ?? '', /excluded by \.aiignore/);
    assert.equal(asked.at(-1)?.sessionAllowed, false, 'never remembered: it asks every time');
  });
});
