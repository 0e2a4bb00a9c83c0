// The pure parts of the ACP mapping: Read's text for an agent, command lines, output limits, permission subjects.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { textOfRead } from '../../../src/acp/files';
import { mapPermissionRequest } from '../../../src/acp/mapping';
import type { Acp } from '../../../src/acp/sdk';
import { commandLine, keepLastBytes } from '../../../src/acp/terminals';

describe('textOfRead', () => {
  it('takes off line numbers and the paging note', () => {
    assert.equal(textOfRead('     2\ttwo\n     3\t\tindented\n\n[Showing lines 2-3 of 9; continue with offset=4.]'), 'two\n\tindented');
  });
  it('answers an empty file as empty text', () => {
    assert.equal(textOfRead('(/w/empty.txt is empty: 0 lines)'), '');
  });
});

describe('commandLine', () => {
  it('quotes arguments, exports env and changes to cwd', () => {
    assert.equal(commandLine({ command: 'echo', args: ["it's", 'a b', 'plain'] }), `echo 'it'\\''s' 'a b' plain`);
    assert.equal(commandLine({ command: 'npm test', env: [{ name: 'CI', value: '1' }], cwd: '/w/my dir' }), `cd '/w/my dir' && export CI=1; npm test`);
  });
  it('drops env names a shell cannot take', () => {
    assert.equal(commandLine({ command: 'true', env: [{ name: 'A-B', value: 'x' }] }), 'true');
  });
});

describe('keepLastBytes', () => {
  it('keeps the last bytes, from a whole character', () => {
    assert.deepEqual(keepLastBytes('ab', 5), { text: 'ab', truncated: false });
    assert.deepEqual(keepLastBytes('x€y', 3), { text: 'y', truncated: true });
    assert.deepEqual(keepLastBytes('x€y', 4), { text: '€y', truncated: true });
  });
});

describe('mapPermissionRequest (ACP v1 tool calls as ours)', () => {
  const only = (toolCall: Acp.ToolCallUpdate) => {
    const mapped = mapPermissionRequest(toolCall);
    return { calls: mapped.calls, exact: mapped.exact };
  };
  it('a command is a Bash, a read a Read, a fetch a WebFetch, each with its real input', () => {
    assert.deepEqual(only({ toolCallId: '1', kind: 'execute', rawInput: { command: 'ls -la' } }), { calls: [{ name: 'Bash', input: { command: 'ls -la' } }], exact: true });
    assert.deepEqual(only({ toolCallId: '3', kind: 'read', rawInput: { file_path: '/w/b' } }), { calls: [{ name: 'Read', input: { file_path: '/w/b' } }], exact: true });
    assert.deepEqual(only({ toolCallId: '4', kind: 'fetch', rawInput: { url: 'https://x.example/' } }), { calls: [{ name: 'WebFetch', input: { url: 'https://x.example/' } }], exact: true });
  });
  it('an edit is a Write of its content or an Edit of its strings (rawInput first), else of its one diff', () => {
    assert.deepEqual(only({ toolCallId: '1', kind: 'edit', rawInput: { file_path: '/w/a', content: 'A' } }).calls, [{ name: 'Write', input: { file_path: '/w/a', content: 'A' } }]);
    assert.deepEqual(only({ toolCallId: '2', kind: 'edit', rawInput: { file_path: '/w/a', old_string: 'x', new_string: 'y', replace_all: true } }).calls, [
      { name: 'Edit', input: { file_path: '/w/a', old_string: 'x', new_string: 'y', replace_all: true } },
    ]);
    assert.deepEqual(only({ toolCallId: '3', kind: 'edit', content: [{ type: 'diff', path: '/w/n', oldText: null, newText: 'new' }] }), { calls: [{ name: 'Write', input: { file_path: '/w/n', content: 'new' } }], exact: true });
    assert.deepEqual(only({ toolCallId: '4', kind: 'edit', content: [{ type: 'diff', path: '/w/o', oldText: 'a', newText: 'b' }] }), { calls: [{ name: 'Edit', input: { file_path: '/w/o', old_string: 'a', new_string: 'b' } }], exact: true });
  });
  it('an edit that does not say what it writes, several diffs, a delete, a move: judged as writes of their paths, never exact', () => {
    assert.deepEqual(only({ toolCallId: '1', kind: 'edit', locations: [{ path: '/w/a' }] }), { calls: [{ name: 'Write', input: { file_path: '/w/a', content: '' } }], exact: false });
    const two = only({ toolCallId: '2', kind: 'edit', content: [{ type: 'diff', path: '/w/a', newText: 'a' }, { type: 'diff', path: '/w/b', oldText: 'x', newText: 'b' }] });
    assert.equal(two.exact, false);
    assert.deepEqual(two.calls.map((call) => call.input.file_path), ['/w/a', '/w/b']);
    assert.deepEqual(only({ toolCallId: '3', kind: 'delete', locations: [{ path: '/w/d' }] }), { calls: [{ name: 'Write', input: { file_path: '/w/d', content: '' } }], exact: false });
    assert.deepEqual(only({ toolCallId: '4', kind: 'move', rawInput: { source: '/w/s', destination: '/w/t' } }).calls.map((call) => call.input.file_path), ['/w/s', '/w/t']);
    assert.match(mapPermissionRequest({ toolCallId: '5', kind: 'delete', title: 'rm d', locations: [{ path: '/w/d' }] }).title, /^The agent asks to delete \/w\/d: rm d$/);
  });
  it('what names nothing we can judge maps to no call, and its dialog text says what the agent sent', () => {
    assert.deepEqual(only({ toolCallId: '5', kind: 'execute' }), { calls: [], exact: false });
    assert.deepEqual(only({ toolCallId: '6', kind: 'fetch', rawInput: { query: 'q' } }), { calls: [], exact: false });
    const other = mapPermissionRequest({ toolCallId: '7', kind: 'other', title: 'Deploy', rawInput: { target: 'prod' }, content: [{ type: 'content', content: { type: 'text', text: 'to production' } }] });
    assert.deepEqual(other.calls, []);
    assert.equal(other.title, 'The agent asks: Deploy');
    assert.match(other.detail, /to production/);
    assert.match(other.detail, /"target": "prod"/);
  });
});
