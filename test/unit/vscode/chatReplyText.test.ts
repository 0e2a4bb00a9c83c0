import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ToolCallResult } from '../../../src/executor/contract/result';
import { modelErrorSentence } from '../../../src/vscode/chat/modelErrors';
import { createBuiltinTools, ProcessSupervisor } from '../../../src/tools/index';
import { callTarget, escapeMarkdown, formatDuration, inlineCode, lastLine, outcomeLine, TARGET_MAX_CHARS, touchedFile } from '../../../src/vscode/chat/replyText';

function result(overrides: Partial<ToolCallResult>): ToolCallResult {
  return {
    callId: 'c',
    name: 'Edit',
    isError: false,
    errorKind: null,
    modelContent: '',
    text: '',
    truncated: false,
    strategy: 'inline',
    originalBytes: 0,
    modelBytes: 0,
    changes: [],
    stopTurn: false,
    permission: { outcome: 'none' },
    timing: { totalMs: 12, permissionWaitMs: 0, queuedMs: 0, startMs: 0, endMs: 12 },
    ...overrides,
  };
}

describe('chat reply text', () => {
  it('names what a call works on, in one bounded line', () => {
    assert.equal(callTarget({ path: 'src/a.ts', content: 'x' }), 'src/a.ts');
    assert.equal(callTarget({ command: 'npm test\n  && echo done' }), 'npm test && echo done');
    assert.equal(callTarget({ url: 'https://example.com' }), 'https://example.com');
    assert.equal(callTarget({}), '');
    assert.equal(callTarget('raw'), '');
    assert.equal(callTarget({ command: 'x'.repeat(500) }).length, TARGET_MAX_CHARS);
  });

  it('says how each call ended in one line: ok, denied (with why), cancelled, timed out, failed', () => {
    assert.equal(outcomeLine(result({}), 'a.ts'), '✓ **Edit** `a.ts` · 12 ms');
    assert.equal(outcomeLine(result({ artifact: { uri: 'executor-artifact://s/a', path: '/x' } }), ''), '✓ **Edit** · 12 ms · output saved');
    const denied = result({ isError: true, errorKind: 'permission', failure: { stage: 'permission', errorClass: 'Denied', message: 'The user denied this tool call.' } });
    assert.equal(outcomeLine(denied, 'a.ts'), '✗ **Edit** `a.ts` · denied: The user denied this tool call\\.');
    assert.equal(outcomeLine(result({ isError: true, errorKind: 'cancelled' }), 'a.ts'), '⊘ **Edit** `a.ts` · cancelled');
    assert.match(outcomeLine(result({ isError: true, errorKind: 'timeout', timing: { totalMs: 120000, permissionWaitMs: 0, queuedMs: 0, startMs: 0, endMs: 1 } }), 'x'), /timed out after 2 min 0 s$/);
    const crashed = result({ isError: true, errorKind: 'execution', failure: { stage: 'handler', errorClass: 'E', message: '<tool_use_error>boom\nstack</tool_use_error>' } });
    assert.equal(outcomeLine(crashed, ''), '✗ **Edit** · failed after 12 ms: boom');
  });

  it('shows model and tool text as the text it is: markdown and backticks escaped, invisible characters visible', () => {
    assert.equal(escapeMarkdown('*bold* [x](y)'), '\\*bold\\* \\[x\\]\\(y\\)');
    assert.equal(inlineCode('a`b'), '``a`b``');
    assert.equal(inlineCode('`x'), '`` `x ``');
    assert.equal(inlineCode('a\u001b[31mb'), '`a\\e[31mb`');
  });

  it('links the file a Read, Write or Edit worked on (their presentation says so), and none for other tools', () => {
    const presentations = new Map(createBuiltinTools({ supervisor: new ProcessSupervisor() }).map((tool) => [tool.name, tool.presentation]));
    const linked = (name: string, input: unknown, overrides: Partial<ToolCallResult> = {}) => touchedFile(result({ name, ...overrides }), input, presentations.get(name), ['/w']);
    assert.deepEqual(
      [...presentations.keys()].filter((name) => linked(name, { path: 'a.ts' }) !== undefined),
      ['Read', 'Write', 'Edit'],
    );
    assert.equal(linked('Read', { path: 'src/a.ts' }), '/w/src/a.ts');
    assert.equal(linked('Read', { file_path: '/abs/b.ts' }), '/abs/b.ts');
    assert.equal(linked('Edit', { path: 'a.ts' }, { changes: [{ kind: 'deleted', path: 'old.ts', absolutePath: '/w/old.ts' }, { kind: 'created', path: 'c.ts', absolutePath: '/w/c.ts' }] }), '/w/c.ts');
    assert.equal(linked('Read', { path: 'a.ts' }, { isError: true, errorKind: 'invocation' }), undefined, 'a call that never ran links nothing');
    assert.equal(linked('Read', { path: 'executor-artifact://s/r.txt' }), undefined, 'a saved output is not a file to link');
    assert.equal(linked('Read', { path: 42 }), undefined);
    assert.equal(linked('Unknown', { path: 'a.ts' }), undefined);
  });

  it('formats durations and picks the last line of live output', () => {
    assert.deepEqual([formatDuration(12), formatDuration(3400), formatDuration(125000)], ['12 ms', '3.4 s', '2 min 5 s']);
    assert.equal(lastLine('one\ntwo\n\n'), 'two');
  });
});

describe('model errors', () => {
  it('are one sentence, never a stack trace', () => {
    assert.match(modelErrorSentence('GPT', { code: 'NoPermissions', message: 'x' }), /^GPT refused this request/);
    assert.match(modelErrorSentence('GPT', { code: 'Blocked' }), /blocked this request/);
    assert.match(modelErrorSentence('GPT', { code: 'NotFound' }), /not available any more/);
    assert.match(modelErrorSentence('M', { message: 'This model does not support tool calling' }), /^M cannot call tools/);
    const long = modelErrorSentence('M', { message: `Error: bad\n    at f (x.js:1:1)\n${'    at g (y.js:2:2)\n'.repeat(50)}` });
    assert.ok(long.length < 400 && !long.includes('\n'), long);
    assert.equal(modelErrorSentence('M', undefined), 'M could not answer, and gave no reason.');
  });
});
