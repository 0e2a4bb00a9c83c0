import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { effectiveScope, flagsOf } from '../../../src/executor/contract/flags';
import { canRunInParallel, dependencyOf } from '../../../src/executor/turn/scheduler';
import { createBuiltinTools, ProcessSupervisor } from '../../../src/tools/index';
import { makeWorkspace, type Workspace } from './helpers';

/** The example batch of spec §2. */
const EIGHT = ['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash', 'WebFetch', 'TodoWrite'];

const supervisor = new ProcessSupervisor();

describe('built-in tools', () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.dispose());

  it('registers every tool through the registry, the background-task tools included, each once', () => {
    const names = createBuiltinTools({ supervisor }).map((tool) => tool.name);
    assert.deepEqual(ws.executor.registry.names(), [...names].sort());
    assert.equal(new Set(names).size, names.length);
    assert.ok(['BashOutput', 'KillBash'].every((name) => names.includes(name)), 'the background-task tools too');
  });

  it('declares the flags of spec §1 (read-only to the scheduler only with scope none)', () => {
    // Each tool's own flags are in README.md's table, which test/unit/tools/readme.test.ts checks against them.
    for (const tool of createBuiltinTools({ supervisor })) {
      const flags = flagsOf(tool);
      assert.equal(flags.readOnly, tool.readOnly === true && effectiveScope(tool) === 'none', tool.name);
      assert.ok(tool.sideEffectScope, `${tool.name} declares its scope`);
      assert.equal(flags.sideEffectScope, tool.sideEffectScope, tool.name);
      assert.equal(flags.destructive, false, tool.name);
    }
    const flags = Object.fromEntries(createBuiltinTools({ supervisor }).map((tool) => [tool.name, flagsOf(tool)]));
    assert.equal(flags.WebFetch!.readOnly, false, 'a GET reaches beyond the machine: not read-only to the scheduler');
    assert.equal(flags.TodoWrite!.readOnly, false, 'a session-scoped tool is not read-only to the scheduler');
  });

  it('names what each call touches, for permission rules', () => {
    const tools = Object.fromEntries(createBuiltinTools({ supervisor: new ProcessSupervisor() }).map((tool) => [tool.name, tool]));
    const subject = (name: string, input: unknown) => tools[name]!.permissionSubject?.(input);
    assert.deepEqual(subject('Read', { path: 'a.txt' }), { kind: 'path', path: 'a.txt', access: 'read' });
    assert.deepEqual(subject('Write', { path: 'a.txt', content: '' }), { kind: 'path', path: 'a.txt', access: 'write' });
    assert.deepEqual(subject('Edit', { path: 'a.txt', old_string: 'a', new_string: 'b' }), { kind: 'path', path: 'a.txt', access: 'write' });
    assert.deepEqual(subject('Glob', { pattern: '../../**/*.ts' }), { kind: 'path', path: '../..', access: 'read' });
    assert.deepEqual(subject('Grep', { pattern: 'x', path: 'src' }), { kind: 'path', path: 'src', access: 'read' });
    assert.deepEqual(subject('Bash', { command: 'ls' }), { kind: 'command', command: 'ls' });
    assert.deepEqual(subject('WebFetch', { url: 'https://example.com' }), { kind: 'url', url: 'https://example.com' });
    assert.equal(subject('TodoWrite', { todos: [] }), undefined);
  });

  it('in the default mode, reads run and writes ask (denied here: no approval client), with file_path normalised first', async () => {
    await ws.dispose();
    ws = makeWorkspace({ executor: { permissionPolicy: undefined } });
    ws.write('a.txt', 'alpha');
    const read = await ws.run('Read', { file_path: 'a.txt' });
    assert.equal(read.isError, false);
    const write = await ws.run('Write', { file_path: 'a.txt', content: 'x' });
    assert.equal(write.errorKind, 'permission');
    assert.equal(ws.read('a.txt'), 'alpha');
  });

  it('groups a batch of all eight tools as the rules of spec §2 say', () => {
    const calls = EIGHT.map((name, index) => ({ id: `c${index}`, name, input: {} }));
    const groups = ws.executor.schedule(calls).map((group) => ({ parallel: group.parallel, names: group.calls.map((call) => call.name) }));
    assert.deepEqual(groups, [
      { parallel: true, names: ['Read'] },
      { parallel: false, names: ['Write'] },
      { parallel: false, names: ['Edit'] },
      { parallel: true, names: ['Glob', 'Grep'] },
      { parallel: false, names: ['Bash'] },
      { parallel: true, names: ['WebFetch'] },
      { parallel: false, names: ['TodoWrite'] },
    ]);
  });

  it('lets WebFetch share a group with the read-only tools (concurrent-safe), unlike Z where it is serial', () => {
    const calls = ['Read', 'Glob', 'WebFetch', 'Grep', 'BashOutput', 'TodoWrite', 'Read'].map((name, index) => ({ id: `c${index}`, name, input: {} }));
    const groups = ws.executor.schedule(calls).map((group) => group.calls.map((call) => call.name));
    assert.deepEqual(groups, [['Read', 'Glob', 'WebFetch', 'Grep', 'BashOutput'], ['TodoWrite'], ['Read']]);
    assert.equal(canRunInParallel(dependencyOf({ id: 'x', name: 'TodoWrite', input: {} }, ws.executor.registry)), false);
  });

  it('runs the spec example batch in the model order, with read-before-write holding across groups', async () => {
    ws.write('a.txt', 'alpha\n');
    ws.write('b.txt', 'beta\n');
    const results = await ws.executor.executeBatch([
      { id: '1', name: 'Read', input: { path: 'a.txt' } },
      { id: '2', name: 'Read', input: { path: 'b.txt' } },
      { id: '3', name: 'Edit', input: { path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' } },
      { id: '4', name: 'Bash', input: { command: 'cat a.txt' } },
      { id: '5', name: 'Write', input: { path: 'b.txt', content: 'BETA\n' } },
      { id: '6', name: 'Read', input: { path: 'a.txt' } },
    ]);
    assert.deepEqual(results.map((result) => [result.callId, result.group, result.isError]), [
      ['1', 0, false],
      ['2', 0, false],
      ['3', 1, false],
      ['4', 2, false],
      ['5', 3, false],
      ['6', 4, false],
    ]);
    assert.match(results[3]!.modelContent, /^ALPHA\n/);
    assert.equal(ws.read('b.txt'), 'BETA\n');
  });
});
