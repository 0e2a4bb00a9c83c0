/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, extensionApi } from './helpers';

suite('Activation', () => {
  test('the packaged extension is installed and activates', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  test('its commands are registered', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const command of ['agentToolExecutor.runToolCalls', 'agentToolExecutor.openArtifact', 'agentToolExecutor.showLog']) {
      assert.ok(commands.includes(command), `${command} is missing`);
    }
  });

  test('its API exposes the executor, the registry and, in test mode only, the approval seam', async () => {
    const api = await extensionApi();
    assert.equal(typeof api.executor.executeBatch, 'function');
    assert.equal(typeof api.registry.register, 'function');
    assert.equal(typeof api.testing.setApprovalResponder, 'function');
  });
});
