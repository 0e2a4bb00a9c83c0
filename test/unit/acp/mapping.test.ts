// The pure parts of the ACP mapping: Read's text for an agent, command lines, output limits, permission subjects.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { textOfRead } from '../../../src/acp/files';
import { ourCallOf } from '../../../src/acp/permissions';
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

describe('ourCallOf', () => {
  it('maps commands, edits and reads to Bash, Write and Read', () => {
    assert.deepEqual(ourCallOf({ toolCallId: '1', kind: 'execute', rawInput: { command: 'ls' } }), { name: 'Bash', input: { command: 'ls' }, kind: 'execute' });
    assert.deepEqual(ourCallOf({ toolCallId: '2', kind: 'edit', locations: [{ path: '/w/a' }] }), { name: 'Write', input: { file_path: '/w/a', content: '' }, kind: 'edit' });
    assert.deepEqual(ourCallOf({ toolCallId: '3', kind: 'read', rawInput: { file_path: '/w/b' } }), { name: 'Read', input: { file_path: '/w/b' }, kind: 'read' });
  });
  it('leaves what it cannot say to the user', () => {
    assert.equal(ourCallOf({ toolCallId: '4', kind: 'fetch', rawInput: { url: 'x' } }), undefined);
    assert.equal(ourCallOf({ toolCallId: '5', kind: 'execute' }), undefined);
  });
});
