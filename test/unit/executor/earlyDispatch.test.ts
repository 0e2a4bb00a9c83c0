import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { makeExecutor, tool } from './fixtures';

describe('early dispatch while streaming', () => {
  const { executor } = makeExecutor([
    tool('Read', { inputSchema: z.object({ path: z.string() }) }),
    tool('Serial', { concurrentSafe: false }),
    tool('Todo', { sideEffectScope: 'session' }),
    tool('Danger', { destructive: true }),
    tool('Asks', { permission: { alwaysAsk: true } }),
    tool('Edit', { readOnly: false, sideEffectScope: 'workspace', concurrentSafe: false }),
  ]);

  it('lets a read-only, concurrent-safe, scope-none call with valid input start early', async () => {
    assert.equal(await executor.canDispatchEarly({ id: '1', name: 'Read', input: { path: 'a' } }), true);
    assert.equal(await executor.canDispatchEarly({ id: '1', name: 'Read', input: '{"path":"a"}' }), true);
  });

  it('keeps everything else for the batch', async () => {
    for (const [name, input] of [
      ['Read', {}],
      ['Read', '{"path":'],
      ['Serial', {}],
      ['Todo', {}],
      ['Danger', {}],
      ['Asks', {}],
      ['Edit', {}],
      ['Missing', {}],
    ] as const) {
      assert.equal(await executor.canDispatchEarly({ id: '1', name, input }), false, `${name} ${JSON.stringify(input)}`);
    }
  });
});
