/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ToolCallResult } from '../../../src/executor/contract/result';
import { extensionApi, registerTool } from './helpers';

suite('Executor through the extension API', () => {
  test('a tool registered through the API runs in the extension host', async () => {
    const unregister = await registerTool({
      name: 'test_echo',
      description: 'Echoes its text.',
      jsonSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      readOnly: true,
      sideEffectScope: 'none',
      handler: (input: { text: string }) => ({ content: `echo: ${input.text}` }),
    });
    try {
      const api = await extensionApi();
      const [result] = await api.executor.executeBatch([{ id: 'e1', name: 'test_echo', input: { text: 'hello' } }]);
      assert.equal(result?.isError, false);
      assert.equal(result?.modelContent, 'echo: hello');
      assert.equal(result?.permission.outcome, 'none');
    } finally {
      unregister();
    }
  });

  test('an unknown tool gets an error result and nothing runs', async () => {
    const api = await extensionApi();
    const [result] = await api.executor.executeBatch([{ id: 'u1', name: 'no_such_tool', input: {} }]);
    assert.equal(result?.isError, true);
    assert.match(result?.modelContent ?? '', /unknown tool: no_such_tool/);
  });

  test('the Run Tool Calls command refuses text that is not a list of calls, and runs nothing', async () => {
    const api = await extensionApi();
    assert.equal(await api.runToolCalls('{ not json'), undefined);
    assert.equal(await api.runToolCalls('[{"input": {}}]'), undefined);
    assert.equal(await api.runToolCalls('[]'), undefined);
  });

  test('the Run Tool Calls command reads the calls from the active editor when given none', async () => {
    const document = await vscode.workspace.openTextDocument({ language: 'json', content: '[{"id": "q1", "name": "no_such_tool", "input": {}}]' });
    await vscode.window.showTextDocument(document);
    const results = await vscode.commands.executeCommand<ToolCallResult[] | undefined>('agentToolExecutor.runToolCalls', undefined, { showResults: false });
    assert.equal(results?.length, 1);
    assert.equal(results?.[0]?.callId, 'q1');
    assert.match(results?.[0]?.modelContent ?? '', /unknown tool: no_such_tool/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
