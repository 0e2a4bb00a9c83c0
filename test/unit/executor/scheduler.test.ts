import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import type { ToolCall } from '../../../src/executor/contract/contract';
import { ToolRegistry } from '../../../src/executor/contract/registry';
import { canRunInParallel, MAX_GROUP_SIZE, scheduleCalls } from '../../../src/executor/turn/scheduler';
import { tool } from './fixtures';

const call = (id: string, name: string): ToolCall => ({ id, name, input: {} });
const ids = (groups: ReturnType<typeof scheduleCalls>) => groups.map((group) => group.calls.map((c) => c.id));

describe('canRunInParallel', () => {
  it('rule 1: no tool name and no safety metadata → parallel', () => {
    assert.equal(canRunInParallel({}), true);
  });
  it('rule 2: destructive → serial, even when concurrent-safe', () => {
    assert.equal(canRunInParallel({ toolName: 'x', destructive: true, concurrentSafe: true }), false);
  });
  it('rule 3: concurrentSafe true → parallel, even with workspace scope', () => {
    assert.equal(canRunInParallel({ toolName: 'x', concurrentSafe: true, sideEffectScope: 'workspace' }), true);
  });
  it('rule 4: concurrentSafe false → serial, even when read-only', () => {
    assert.equal(canRunInParallel({ toolName: 'x', concurrentSafe: false, readOnly: true }), false);
  });
  it('rule 5: read-only → parallel; unknown names use the fixed read-only list', () => {
    assert.equal(canRunInParallel({ toolName: 'x', readOnly: true }), true);
    assert.equal(canRunInParallel({ toolName: 'Read' }), true);
    assert.equal(canRunInParallel({ toolName: 'Frobnicate' }), false);
  });
  it('rule 6: otherwise parallel only with scope none', () => {
    assert.equal(canRunInParallel({ toolName: 'x', sideEffectScope: 'none' }), true);
    assert.equal(canRunInParallel({ toolName: 'x', sideEffectScope: 'session' }), false);
    assert.equal(canRunInParallel({ toolName: 'x', sideEffectScope: 'external' }), false);
  });
});

describe('scheduleCalls', () => {
  // Z's tools: WebFetch is not concurrent-safe there, so it is serial.
  const registry = new ToolRegistry();
  registry.register(tool('Read'));
  registry.register(tool('Edit', { readOnly: false, concurrentSafe: false, sideEffectScope: 'workspace' }));
  registry.register(tool('WebFetch', { readOnly: false, concurrentSafe: false, sideEffectScope: 'external' }));
  registry.register(tool('Bash', { readOnly: false, concurrentSafe: false, sideEffectScope: 'external' }));

  it("groups the seed's example as [a,b] [c] [d] [e] [f]", () => {
    const calls = [call('a', 'Read'), call('b', 'Read'), call('c', 'Edit'), call('d', 'WebFetch'), call('e', 'Bash'), call('f', 'Read')];
    const groups = scheduleCalls(calls, registry);
    assert.deepEqual(ids(groups), [['a', 'b'], ['c'], ['d'], ['e'], ['f']]);
    assert.deepEqual(groups.map((g) => g.parallel), [true, false, false, false, true]);
    assert.deepEqual(groups.map((g) => g.index), [0, 1, 2, 3, 4]);
  });

  it('closes a parallel group at 10 calls', () => {
    const calls = Array.from({ length: 23 }, (_, i) => call(String(i), 'Read'));
    const groups = scheduleCalls(calls, registry);
    assert.equal(MAX_GROUP_SIZE, 10);
    assert.deepEqual(groups.map((g) => g.calls.length), [10, 10, 3]);
    assert.deepEqual(groups.flatMap((g) => g.calls.map((c) => c.id)), calls.map((c) => c.id));
  });

  it('treats a read-only tool with session scope as not read-only (serial)', () => {
    const local = new ToolRegistry();
    local.register({ ...tool('TodoWrite', { concurrentSafe: undefined, sideEffectScope: 'session' }), inputSchema: z.object({}) });
    local.register(tool('Read'));
    assert.deepEqual(ids(scheduleCalls([call('r1', 'Read'), call('t', 'TodoWrite'), call('r2', 'Read')], local)), [['r1'], ['t'], ['r2']]);
  });

  it('keeps serial calls alone and in order, and unknown names by the fixed list', () => {
    const calls = [call('1', 'Bash'), call('2', 'Bash'), call('3', 'Grep'), call('4', 'nope')];
    assert.deepEqual(ids(scheduleCalls(calls, registry)), [['1'], ['2'], ['3'], ['4']]);
  });
});
