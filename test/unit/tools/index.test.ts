import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { flagsOf } from '../../../src/executor/contract/flags';
import { canRunInParallel, dependencyOf } from '../../../src/executor/turn/scheduler';
import { createBuiltinTools, ProcessSupervisor } from '../../../src/tools/index';
import { makeWorkspace, type Workspace } from './helpers';

const EIGHT = ['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash', 'WebFetch', 'TodoWrite'];

describe('built-in tools', () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.dispose());

  it('registers every tool through the registry, the background-task tools included', () => {
    assert.deepEqual(ws.executor.registry.names(), [...EIGHT, 'BashOutput', 'KillBash'].sort());
    assert.deepEqual(
      createBuiltinTools({ supervisor: new ProcessSupervisor() }).map((tool) => tool.name),
      [...EIGHT, 'BashOutput', 'KillBash'],
    );
  });

  it('declares the flags of spec §1 (read-only to the scheduler only with scope none)', () => {
    const flags = Object.fromEntries(createBuiltinTools({ supervisor: new ProcessSupervisor() }).map((tool) => [tool.name, flagsOf(tool)]));
    const summary = (name: string) => {
      const f = flags[name]!;
      return `${f.readOnly ? 'ro' : 'rw'} ${f.concurrentSafe ? 'safe' : 'unsafe'} ${f.sideEffectScope}`;
    };
    assert.deepEqual(Object.fromEntries([...EIGHT, 'BashOutput', 'KillBash'].map((name) => [name, summary(name)])), {
      Read: 'ro safe none',
      Write: 'rw unsafe workspace',
      Edit: 'rw unsafe workspace',
      Glob: 'ro safe none',
      Grep: 'ro safe none',
      Bash: 'rw unsafe external',
      WebFetch: 'rw safe external',
      TodoWrite: 'rw unsafe session',
      BashOutput: 'ro safe none',
      KillBash: 'rw unsafe session',
    });
    assert.ok(createBuiltinTools({ supervisor: new ProcessSupervisor() }).every((tool) => !tool.destructive));
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
