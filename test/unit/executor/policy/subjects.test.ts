import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { globBase, subjectsOf } from '../../../../src/executor/policy/subjects';
import { RulesPolicy } from '../../../../src/executor/policy/rulesPolicy';
import { BashTool, ReadTool, WriteTool } from './policyFixtures';

describe('subjectsOf', () => {
  it('uses the tool\'s permissionSubject when it has one', () => {
    const tool = { ...ReadTool, permissionSubject: (input: { where: string }) => ({ kind: 'path' as const, path: input.where, access: 'read' as const }) };
    assert.deepEqual(subjectsOf(tool, { where: 'x' }), { ok: true, subjects: [{ kind: 'path', path: 'x', access: 'read' }] });
  });

  it('falls back to path, file_path, command and url, with the access the flags imply', () => {
    assert.deepEqual(subjectsOf(ReadTool, { file_path: 'a' }), { ok: true, subjects: [{ kind: 'path', path: 'a', access: 'read' }] });
    assert.deepEqual(subjectsOf(WriteTool, { path: 'a', content: '' }), { ok: true, subjects: [{ kind: 'path', path: 'a', access: 'write' }] });
    assert.deepEqual(subjectsOf(BashTool, { command: 'ls' }), { ok: true, subjects: [{ kind: 'command', command: 'ls' }] });
    assert.deepEqual(subjectsOf({ ...BashTool, name: 'Fetch' }, { url: 'https://x' }), { ok: true, subjects: [{ kind: 'url', url: 'https://x' }] });
  });

  it('a permissionSubject that throws asks (it never allows)', async () => {
    const tool = { ...ReadTool, permissionSubject: () => { throw new Error('bad input'); } };
    assert.equal(subjectsOf(tool, {}).ok, false);
    const decision = await new RulesPolicy({ mode: 'acceptEdits' }).evaluate({ tool, input: {}, callId: 'c', workspaceFolders: ['/tmp'] }, new AbortController().signal);
    assert.equal(decision.behavior, 'ask');
  });

  it('a permissionSubject that returns something else is reported, not trusted', () => {
    const tool = { ...ReadTool, permissionSubject: () => ({ kind: 'path', path: 42 }) as never };
    assert.equal(subjectsOf(tool, {}).ok, false);
  });

  it('globBase gives the static start of a glob', () => {
    assert.equal(globBase('src/**/*.ts'), 'src');
    assert.equal(globBase('../../**'), '../..');
    assert.equal(globBase('*.md', 'docs'), 'docs/.');
    assert.equal(globBase('/etc/*', 'docs'), '/etc');
  });
});
