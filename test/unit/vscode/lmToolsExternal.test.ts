import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { externalSafetyOf } from '../../../src/vscode/lmTools/externalSafety';
import { selectExternalTools } from '../../../src/vscode/lmTools/externalSelection';
import { createBuiltinTools, ProcessSupervisor } from '../../../src/tools/index';
import { progressMessage } from '../../../src/vscode/lmTools/progressMessage';

const tools = [
  { name: 'mcp_github_create_issue', tags: ['mcp'] },
  { name: 'mcp_github_list_issues', tags: ['mcp'] },
  { name: 'fake_leaky', tags: [] },
  { name: 'agentToolExecutor_read', tags: ['agentToolExecutor'] },
  { name: 'renamedOfOurs', tags: ['agentToolExecutor'] },
];

describe('external tool selection', () => {
  it('selects nothing by default', () => {
    assert.deepEqual(selectExternalTools(tools, []).tools, []);
  });

  it('selects by glob patterns on names', () => {
    assert.deepEqual(selectExternalTools(tools, ['mcp_github_*']).tools.map((tool) => tool.name), ['mcp_github_create_issue', 'mcp_github_list_issues']);
    assert.deepEqual(selectExternalTools(tools, ['fake_leaky', 'mcp_*_list_*']).tools.map((tool) => tool.name), ['mcp_github_list_issues', 'fake_leaky']);
  });

  it('never selects our own tools, even for a pattern that matches everything', () => {
    assert.deepEqual(selectExternalTools(tools, ['*']).tools.map((tool) => tool.name), ['mcp_github_create_issue', 'mcp_github_list_issues', 'fake_leaky']);
  });

  it('reports entries that are not patterns, and ignores them', () => {
    const selection = selectExternalTools(tools, ['', 42, 'fake_*']);
    assert.deepEqual(selection.tools.map((tool) => tool.name), ['fake_leaky']);
    assert.deepEqual(selection.badPatterns, ['', '42']);
  });
});

describe('external tool safety', () => {
  it('without safety information: serial, not read-only, reaching outside the workspace (so it asks)', () => {
    assert.deepEqual(
      { ...externalSafetyOf([]), basis: undefined },
      { source: 'extension', readOnly: false, concurrentSafe: false, sideEffectScope: 'external', basis: undefined },
    );
  });

  it('an extension tag read-only relaxes it to a read', () => {
    for (const tag of ['read-only', 'readonly', 'readOnly', 'read_only']) {
      const safety = externalSafetyOf(['search', tag]);
      assert.equal(safety.readOnly, true, tag);
      assert.equal(safety.concurrentSafe, true);
      assert.equal(safety.sideEffectScope, 'none');
    }
  });

  it('an MCP tool stays at the strictest: VS Code does not expose its annotations', () => {
    const safety = externalSafetyOf(['mcp', 'read-only']);
    assert.equal(safety.source, 'mcp');
    assert.equal(safety.readOnly, false);
    assert.equal(safety.sideEffectScope, 'external');
  });
});

describe('progress messages', () => {
  const builtins = new Map(createBuiltinTools({ supervisor: new ProcessSupervisor() }).map((tool) => [tool.name, tool]));
  /** The message as the language model tool makes it: with the registered tool's own presentation. */
  const progress = (name: string, input: unknown) => progressMessage(name, input, builtins.get(name)?.presentation);

  it('says what the built-in tool does to what', () => {
    assert.equal(progress('Read', { path: 'src/a.ts' }), 'Reading src/a.ts');
    assert.equal(progress('Write', { file_path: 'b.txt', content: 'x' }), 'Writing b.txt');
    assert.equal(progress('Edit', { path: 'b.txt', old_string: 'a', new_string: 'b' }), 'Editing b.txt');
    assert.equal(progress('Bash', { command: 'npm test\n&& echo ok' }), 'Running npm test && echo ok');
    assert.equal(progress('Grep', { pattern: 'TODO', path: 'src' }), 'Searching for TODO');
    assert.equal(progress('Glob', { pattern: '**/*.ts' }), 'Finding files matching **/*.ts');
    assert.equal(progress('WebFetch', { url: 'https://example.com' }), 'Fetching https://example.com');
    assert.equal(progress('TodoWrite', { todos: [] }), 'Updating the todo list');
    assert.equal(progress('TodoWrite', { todos: [], path: 'x' }), 'Updating the todo list');
    assert.equal(progress('BashOutput', { task_id: 'task-1' }), 'Reading the output of task-1');
    assert.equal(progress('KillBash', { task_id: 'task-1' }), 'Stopping task-1');
    assert.equal(progress('Read', {}), 'Reading');
  });

  it('has a verb of its own for every built-in tool, never the generic "Running NAME"', () => {
    for (const tool of builtins.values()) {
      assert.ok(tool.presentation?.verb, `${tool.name} declares presentation.verb`);
      assert.doesNotMatch(progress(tool.name, {}), new RegExp(`^Running ${tool.name}`), tool.name);
    }
  });

  it('names an unknown tool', () => {
    assert.equal(progress('Other', { url: 'https://example.com' }), 'Running Other on https://example.com');
    assert.equal(progress('Other', 'not an object'), 'Running Other');
  });
});
