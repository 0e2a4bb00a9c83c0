/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
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
});
