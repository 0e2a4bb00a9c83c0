// An ACP permission request shows what will happen, and what the user allows is exactly what was shown:
// the scripted agent asks over real stdio pipes (harness.ts), then makes (or changes) the request itself.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Acp } from '../../../src/acp/sdk';
import type { Step } from '../../../test/acp/scriptedAgent';
import { acpTests, entries } from './harness';

const acp = acpTests();

const editAsk = (title: string, rawInput?: unknown, content?: Acp.ToolCallContent[]): Step => ({ permission: { kind: 'edit', title, rawInput, content } });

describe('ACP edit permission: the dialog shows the content or the diff', () => {
  it('rawInput {file_path, content} becomes a Write whose title names the path, whose detail and Review Diff show the content', async () => {
    const file = join(acp.dir(), 'notes.txt');
    writeFileSync(file, 'original\n');
    const harness = await acp.start({ answers: [{ kind: 'allowOnce' }] });
    await harness.prompt([editAsk('Write notes.txt', { file_path: file, content: 'shown to the user\n' })]);
    const [asked] = harness.approvals.asked;
    assert.equal(asked!.toolName, 'Write');
    assert.deepEqual(asked!.input, { path: file, content: 'shown to the user\n' });
    assert.match(asked!.preview!.title!, /notes\.txt/);
    assert.match(asked!.preview!.detail, /shown to the user/);
    assert.deepEqual(asked!.preview!.change, { path: file, before: 'original\n', after: 'shown to the user\n' });
  });

  it('rawInput {file_path, old_string, new_string} becomes an Edit, with the edited file for Review Diff', async () => {
    const file = join(acp.dir(), 'notes.txt');
    writeFileSync(file, 'one\ntwo\nthree\n');
    const harness = await acp.start({ answers: [{ kind: 'deny' }] });
    await harness.prompt([editAsk('Edit notes.txt', { file_path: file, old_string: 'two', new_string: 'TWO' })]);
    const [asked] = harness.approvals.asked;
    assert.equal(asked!.toolName, 'Edit');
    assert.match(asked!.preview!.title!, /Edit .*notes\.txt/);
    assert.match(asked!.preview!.detail, /- two\n\+ TWO/);
    assert.equal(asked!.preview!.change!.after, 'one\nTWO\nthree\n');
  });

  it('a diff content without rawInput: a new file is a Write of newText, an existing one an Edit of oldText to newText', async () => {
    const existing = join(acp.dir(), 'a.txt');
    const created = join(acp.dir(), 'b.txt');
    writeFileSync(existing, 'alpha\nbeta\n');
    const harness = await acp.start({ answers: [{ kind: 'deny' }, { kind: 'deny' }] });
    await harness.prompt([
      editAsk('Create b.txt', undefined, [{ type: 'diff', path: created, oldText: null, newText: 'brand new\n' }]),
      editAsk('Change a.txt', undefined, [{ type: 'diff', path: existing, oldText: 'beta', newText: 'gamma' }]),
    ]);
    const [create, change] = harness.approvals.asked;
    assert.equal(create!.toolName, 'Write');
    assert.match(create!.preview!.detail, /brand new/);
    assert.deepEqual(create!.preview!.change, { path: created, before: '', after: 'brand new\n' });
    assert.equal(change!.toolName, 'Edit');
    assert.equal(change!.preview!.change!.after, 'alpha\ngamma\n');
  });
});

describe('ACP grants bind to exactly what was shown', () => {
  it('approve content A, the agent writes A: written without asking again', async () => {
    const file = join(acp.dir(), 'notes.txt');
    writeFileSync(file, 'original\n');
    const harness = await acp.start({ answers: [{ kind: 'allowOnce' }] });
    await harness.prompt([{ read: 'notes.txt' }, editAsk('Write notes.txt', { file_path: file, content: 'A\n' }), { write: 'notes.txt', content: 'A\n' }]);
    assert.equal(harness.approvals.asked.length, 1);
    assert.equal(readFileSync(file, 'utf8'), 'A\n');
  });

  it('approve content A, the agent writes B: asked again (and Deny leaves the file as it was)', async () => {
    const file = join(acp.dir(), 'notes.txt');
    writeFileSync(file, 'original\n');
    const harness = await acp.start({ answers: [{ kind: 'allowOnce' }, { kind: 'deny' }] });
    await harness.prompt([{ read: 'notes.txt' }, editAsk('Write notes.txt', { file_path: file, content: 'A\n' }), { write: 'notes.txt', content: 'B\n' }]);
    assert.equal(harness.approvals.asked.length, 2, 'the write of other content is asked for');
    assert.deepEqual(harness.approvals.asked[1]!.input, { path: file, content: 'B\n' });
    assert.equal(readFileSync(file, 'utf8'), 'original\n');
  });

  it('an approved edit covers the write of the file as the edit leaves it, and nothing else', async () => {
    const file = join(acp.dir(), 'notes.txt');
    writeFileSync(file, 'one\ntwo\n');
    const harness = await acp.start({ answers: [{ kind: 'allowOnce' }, { kind: 'allowOnce' }, { kind: 'deny' }] });
    await harness.prompt([
      { read: 'notes.txt' },
      editAsk('Edit notes.txt', { file_path: file, old_string: 'two', new_string: 'TWO' }),
      { write: 'notes.txt', content: 'one\nTWO\n' },
      editAsk('Edit notes.txt', { file_path: file, old_string: 'TWO', new_string: '2' }),
      { write: 'notes.txt', content: 'something else\n' },
    ]);
    assert.equal(harness.approvals.asked.length, 3, 'the first write ran unasked; the second, not what was shown, asked');
    assert.equal(readFileSync(file, 'utf8'), 'one\nTWO\n');
  });

  it('approve one command, the agent runs another: asked again', async () => {
    const harness = await acp.start({ answers: [{ kind: 'allowOnce' }, { kind: 'deny' }] });
    await harness.prompt([{ permission: { kind: 'execute', title: 'echo one', rawInput: { command: 'echo one' } } }, { run: 'echo two' }]);
    assert.equal(harness.approvals.asked.length, 2);
    assert.equal((harness.approvals.asked[1]!.input as { command: string }).command, 'echo two');
    assert.equal(entries(harness, 'terminal').length, 0);
  });

  it('approve one command, the agent runs it: not asked again', async () => {
    const harness = await acp.start({ answers: [{ kind: 'allowOnce' }] });
    await harness.prompt([{ permission: { kind: 'execute', title: 'echo one', rawInput: { command: 'echo one' } } }, { run: 'echo one' }]);
    assert.equal(harness.approvals.asked.length, 1);
    assert.equal(entries(harness, 'terminal')[0]!.output.output, 'one\n');
  });

  it('an edit request that says nothing of the content grants nothing: the write that follows asks with its content', async () => {
    const file = join(acp.dir(), 'notes.txt');
    writeFileSync(file, 'original\n');
    const harness = await acp.start({ answers: [{ kind: 'allowOnce' }, { kind: 'deny' }] });
    await harness.prompt([{ read: 'notes.txt' }, { permission: { kind: 'edit', title: 'Edit notes', path: 'notes.txt' } }, { write: 'notes.txt', content: 'changed\n' }]);
    assert.match(harness.approvals.asked[0]!.preview!.detail, /does not say what/);
    assert.equal(harness.approvals.asked.length, 2);
    assert.equal(readFileSync(file, 'utf8'), 'original\n');
  });
});

describe('ACP permission requests of other kinds', () => {
  it('fetch maps to WebFetch with its url: a WebFetch rule answers it unasked', async () => {
    const harness = await acp.start({ rules: { deny: ['WebFetch(domain:evil.example)'] } });
    await harness.prompt([{ permission: { kind: 'fetch', title: 'Fetch', rawInput: { url: 'https://evil.example/x' } } }]);
    assert.equal(harness.approvals.asked.length, 0);
    assert.deepEqual(entries(harness, 'permission')[0]!.outcome, { outcome: 'selected', optionId: 'no' });
  });

  it('a fetch the user is asked about shows WebFetch and its url', async () => {
    const harness = await acp.start({ answers: [{ kind: 'deny' }] });
    await harness.prompt([{ permission: { kind: 'fetch', title: 'Fetch example.com', rawInput: { url: 'https://example.com/page' } } }]);
    assert.equal(harness.approvals.asked[0]!.toolName, 'WebFetch');
    assert.deepEqual(harness.approvals.asked[0]!.input, { url: 'https://example.com/page' });
  });

  it('delete names the path in the dialog, is judged as a write of it, and grants nothing', async () => {
    const harness = await acp.start({ rules: { deny: ['Write(secret/**)'] }, answers: [{ kind: 'deny' }] });
    await harness.prompt([
      { permission: { kind: 'delete', title: 'rm secret/key', path: 'secret/key' } },
      { permission: { kind: 'delete', title: 'rm old.txt', path: 'old.txt' } },
    ]);
    assert.equal(harness.approvals.asked.length, 1, 'the deny rule answered the first');
    const [asked] = harness.approvals.asked;
    assert.match(asked!.preview!.title!, /[Dd]elete .*old\.txt/);
    assert.deepEqual(entries(harness, 'permission').map((entry) => entry.outcome), [
      { outcome: 'selected', optionId: 'no' },
      { outcome: 'selected', optionId: 'no' },
    ]);
  });

  it('an unmappable request: the dialog says plainly what the agent asks, with its input', async () => {
    const harness = await acp.start({ answers: [{ kind: 'deny' }] });
    await harness.prompt([{ permission: { kind: 'other', title: 'Publish the package', rawInput: { registry: 'npm', tag: 'latest' } } }]);
    const [asked] = harness.approvals.asked;
    assert.match(asked!.preview!.title!, /The agent asks: Publish the package/);
    assert.match(asked!.preview!.detail, /registry/);
    assert.match(asked!.preview!.detail, /latest/);
  });

  it('an unmappable request of a known kind: the rules on that kind\'s tool still run', async () => {
    const harness = await acp.start({ rules: { deny: ['Bash', 'WebFetch'] } });
    await harness.prompt([
      { permission: { kind: 'execute', title: 'Run the build', rawInput: { steps: ['make'] } } },
      { permission: { kind: 'fetch', title: 'Search the web', rawInput: { query: 'acp' } } },
    ]);
    assert.equal(harness.approvals.asked.length, 0);
    assert.deepEqual(entries(harness, 'permission').map((entry) => entry.outcome.optionId), ['no', 'no']);
  });

  it('an unmappable request is never answered by an allow rule or the mode: the user is asked', async () => {
    const harness = await acp.start({ mode: 'bypass', answers: [{ kind: 'deny' }] });
    await harness.prompt([{ permission: { kind: 'execute', title: 'Run the build', rawInput: { steps: ['make'] } } }]);
    assert.equal(harness.approvals.asked.length, 1);
  });
});
