/// <reference types="mocha" />
// The host keeps up with the user: settings changes apply without a reload.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { extensionApi, registerTool, waitFor } from './helpers';

const PLANTED = 'PLANT-4242';

suite('Settings apply without a reload', () => {
  let unregister: () => void = () => {};

  setup(async () => {
    unregister = await registerTool({
      name: 'test_live_echo',
      description: 'Echoes a fixed line.',
      jsonSchema: { type: 'object' },
      readOnly: true,
      sideEffectScope: 'none',
      handler: () => ({ content: `the code is ${PLANTED}` }),
    });
  });

  teardown(async () => {
    unregister();
    await vscode.workspace.getConfiguration('agentToolExecutor').update('redaction.patterns', undefined, vscode.ConfigurationTarget.Global);
  });

  test('a new redaction pattern masks the next result', async () => {
    const api = await extensionApi();
    const before = await api.executor.execute({ id: 'r1', name: 'test_live_echo', input: {} });
    assert.match(before.modelContent, new RegExp(PLANTED));
    await vscode.workspace.getConfiguration('agentToolExecutor').update('redaction.patterns', ['PLANT-\\d+'], vscode.ConfigurationTarget.Global);
    const after = await waitFor('the pattern to apply', async () => {
      const result = await api.executor.execute({ id: 'r2', name: 'test_live_echo', input: {} });
      return result.modelContent.includes(PLANTED) ? undefined : result;
    });
    assert.match(after.modelContent, /the code is \[REDACTED:user-pattern\]/);
  });

  test('a deny rule written to ~/.claude/settings.json applies, and goes with the file', async function () {
    // Only in the runner's own home folder (test/vscode/run.ts): never the developer's ~/.claude.
    if (!os.homedir().includes('ate-vscode-')) this.skip();
    const api = await extensionApi();
    const file = path.join(os.homedir(), '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ permissions: { deny: ['test_live_echo'] } }));
    try {
      const denied = await waitFor('the user deny rule', async () => {
        const result = await api.executor.execute({ id: 'h1', name: 'test_live_echo', input: {} });
        return result.errorKind === 'permission' ? result : undefined;
      });
      assert.equal(denied.permission.outcome, 'denied');
    } finally {
      fs.rmSync(file);
    }
    const allowed = await waitFor('the rule to go', async () => {
      const result = await api.executor.execute({ id: 'h2', name: 'test_live_echo', input: {} });
      return result.isError ? undefined : result;
    });
    assert.match(allowed.modelContent, /the code is/);
  });
});
