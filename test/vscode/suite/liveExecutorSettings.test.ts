/// <reference types="mocha" />
// `maxConcurrency` and `defaultTimeoutMs` apply without a window reload.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { z } from 'zod';
import { extensionApi, registerTool, waitFor } from './helpers';

suite('Executor settings apply live', () => {
  const config = () => vscode.workspace.getConfiguration('agentToolExecutor');
  let unregister: (() => void) | undefined;
  let running = 0;
  let peak = 0;

  setup(async () => {
    unregister = await registerTool({
      name: 'live_settings_probe',
      description: 'counts how many of its calls run at once',
      inputSchema: z.object({ ms: z.number() }),
      readOnly: true,
      concurrentSafe: true,
      sideEffectScope: 'none',
      handler: async (input: { ms: number }, ctx) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, input.ms));
        running--;
        return { content: ctx.signal.aborted ? 'aborted' : 'done' };
      },
    });
  });

  teardown(async () => {
    unregister?.();
    await config().update('maxConcurrency', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('defaultTimeoutMs', undefined, vscode.ConfigurationTarget.Workspace);
  });

  const batch = (count: number, ms: number) => Array.from({ length: count }, (_, index) => ({ id: `live-${index}`, name: 'live_settings_probe', input: { ms } }));

  test('a new maxConcurrency limits the next batch; a new defaultTimeoutMs times out the next call', async () => {
    const api = await extensionApi();
    await config().update('maxConcurrency', 1, vscode.ConfigurationTarget.Workspace);
    await waitFor('the limit of 1 to apply', async () => {
      peak = 0;
      await api.executor.executeBatch(batch(3, 30));
      return peak === 1 ? true : undefined;
    });
    await config().update('maxConcurrency', 3, vscode.ConfigurationTarget.Workspace);
    await waitFor('the limit of 3 to apply', async () => {
      peak = 0;
      await api.executor.executeBatch(batch(3, 60));
      return peak === 3 ? true : undefined;
    });
    await config().update('defaultTimeoutMs', 50, vscode.ConfigurationTarget.Workspace);
    const timedOut = await waitFor('the 50 ms timeout to apply', async () => {
      const [result] = await api.executor.executeBatch(batch(1, 2000));
      return result?.errorKind === 'timeout' ? result : undefined;
    });
    assert.match(timedOut.modelContent, /timed out/);
  });
});
