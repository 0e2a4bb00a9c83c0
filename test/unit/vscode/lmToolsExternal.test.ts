import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { externalSafetyOf } from '../../../src/vscode/lmTools/externalSafety';
import { selectExternalTools } from '../../../src/vscode/lmTools/externalSelection';
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
  it('says what the built-in tool does to what', () => {
    assert.equal(progressMessage('Read', { path: 'src/a.ts' }), 'Reading src/a.ts');
    assert.equal(progressMessage('Write', { file_path: 'b.txt', content: 'x' }), 'Writing b.txt');
    assert.equal(progressMessage('Bash', { command: 'npm test\n&& echo ok' }), 'Running npm test && echo ok');
    assert.equal(progressMessage('Grep', { pattern: 'TODO', path: 'src' }), 'Searching for TODO');
    assert.equal(progressMessage('Glob', { pattern: '**/*.ts' }), 'Finding files matching **/*.ts');
    assert.equal(progressMessage('TodoWrite', { todos: [] }), 'Updating the todo list');
    assert.equal(progressMessage('Read', {}), 'Reading');
  });

  it('names an unknown tool', () => {
    assert.equal(progressMessage('Other', { url: 'https://example.com' }), 'Running Other on https://example.com');
    assert.equal(progressMessage('Other', 'not an object'), 'Running Other');
  });
});
