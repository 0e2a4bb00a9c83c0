// The ACP mapping over real stdio pipes: the scripted agent asks us to read, write, run commands and
// for permission; each request runs through a real executor (harness.ts).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Step } from '../../../test/acp/scriptedAgent';
import { countProcesses, killMarked, uniqueSleep, until } from '../tools/processes';
import { acpTests, entries } from './harness';

const acp = acpTests();
const start = acp.start;

describe('ACP over stdio: initialize and session/new', () => {
  it('tells the agent our capabilities and opens a session in the folder with no MCP servers', async () => {
    const harness = await start();
    const [init] = entries(harness, 'initialize');
    assert.deepEqual(init!.params.clientCapabilities.fs, { readTextFile: true, writeTextFile: true });
    assert.equal(init!.params.clientCapabilities.terminal, true);
    const [session] = entries(harness, 'session/new');
    assert.deepEqual(session!.params, { cwd: acp.dir(), mcpServers: [] });
  });
});

describe('ACP fs/read_text_file → Read', () => {
  it('answers the file text (no line numbers), honours line and limit, and redacts a secret', async () => {
    const secret = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`;
    writeFileSync(join(acp.dir(), 'a.txt'), `one\ntwo token=${secret}\nthree\nfour\n`);
    const harness = await start();
    assert.equal(await harness.prompt([{ read: 'a.txt' }, { read: 'a.txt', line: 2, limit: 2 }]), 'end_turn');
    const [whole, page] = entries(harness, 'read');
    assert.ok(!whole!.content.includes(secret), whole!.content);
    assert.match(whole!.content, /^one\ntwo token=\S*REDACTED\S*\nthree\nfour/);
    assert.ok(!page!.content.startsWith('one'));
    assert.match(page!.content, /^two token=.*\nthree$/);
    assert.ok(whole!.content.endsWith('four\n'), 'the file\'s last newline is kept');
    // A read needs no approval in the default mode.
    assert.equal(harness.approvals.asked.length, 0);
  });

  it('answers a file that does not exist as empty text, as an editor opens a new file, so an agent that reads before it creates can create it', async () => {
    const harness = await start();
    assert.equal(await harness.prompt([{ read: 'missing.txt' }, { read: 'missing/deeper.txt' }]), 'end_turn');
    assert.deepEqual(entries(harness, 'read').map((entry) => entry.content), ['', '']);
    assert.deepEqual(entries(harness, 'error'), []);
  });

  it('still answers an error for a folder, and a deny rule still refuses a file that does not exist', async () => {
    const harness = await start({ rules: { deny: ['Read(secret/**)'] } });
    assert.equal(await harness.prompt([{ read: '.' }, { read: 'secret/missing.txt' }]), 'end_turn');
    const [folder, denied] = entries(harness, 'error');
    assert.equal(typeof folder!.error.code, 'number');
    assert.equal(denied!.error.code, -32000);
    assert.deepEqual(entries(harness, 'read'), []);
  });
});

describe('ACP fs/write_text_file → Write', () => {
  it('raises our approval; Deny leaves the file untouched and the agent gets an error', async () => {
    writeFileSync(join(acp.dir(), 'notes.txt'), 'original\n');
    const harness = await start({ answers: [{ kind: 'deny', reason: 'no' }] });
    await harness.prompt([{ read: 'notes.txt' }, { write: 'notes.txt', content: 'changed\n' }]);
    assert.equal(harness.approvals.asked.length, 1);
    assert.equal(harness.approvals.asked[0]!.toolName, 'Write');
    assert.equal(readFileSync(join(acp.dir(), 'notes.txt'), 'utf8'), 'original\n');
    const [error] = entries(harness, 'error');
    assert.equal(error!.error.code, -32000);
  });

  it('writes the file when allowed', async () => {
    writeFileSync(join(acp.dir(), 'notes.txt'), 'original\n');
    const harness = await start({ answers: [{ kind: 'allowOnce' }] });
    await harness.prompt([{ read: 'notes.txt' }, { write: 'notes.txt', content: 'changed\n' }]);
    assert.equal(readFileSync(join(acp.dir(), 'notes.txt'), 'utf8'), 'changed\n');
    assert.equal(entries(harness, 'write').length, 1);
  });
});

describe('ACP terminal/* → Bash in the background', () => {
  it('runs the command with args, cwd and env, and answers its output and exit code', async () => {
    const harness = await start({ mode: 'bypass' });
    await harness.prompt([{ run: 'sh', args: ['-c', 'echo "$GREETING from $(basename "$PWD")"; exit 3'], env: { GREETING: 'hi there' }, cwd: acp.dir() }]);
    const [terminal] = entries(harness, 'terminal');
    assert.equal(terminal!.exit.exitCode, 3);
    assert.equal(terminal!.output.output.trim(), `hi there from ${acp.dir().split('/').pop()}`);
    assert.equal(terminal!.output.truncated, false);
    assert.deepEqual(terminal!.output.exitStatus, { exitCode: 3, signal: null });
  });

  it('keeps only the last outputByteLimit bytes, cut at a character boundary', async () => {
    const harness = await start({ mode: 'bypass' });
    // 'x€€': 7 bytes; the last 5 begin inside the first '€'.
    await harness.prompt([{ run: "printf 'x€€'", outputByteLimit: 5 }]);
    const [terminal] = entries(harness, 'terminal');
    assert.equal(terminal!.output.truncated, true);
    assert.equal(terminal!.output.output, '€');
  });

  it('asks before a command our rules do not allow, and a deny rule refuses it unasked', async () => {
    const harness = await start({ rules: { deny: ['Bash(rm:*)'] }, answers: [{ kind: 'allowOnce' }] });
    await harness.prompt([{ run: 'rm -rf nothing-here' }, { run: 'echo asked' }]);
    assert.equal(harness.approvals.asked.length, 1);
    assert.match(String((harness.approvals.asked[0]!.input as { command: string }).command), /echo asked/);
    const [denied] = entries(harness, 'error');
    assert.equal(denied!.error.code, -32000);
    const [ran] = entries(harness, 'terminal');
    assert.equal(ran!.output.output, 'asked\n');
  });

  it('cancel kills the command\'s process tree, and the prompt ends as cancelled', async () => {
    const marker = uniqueSleep();
    acp.cleanup(() => killMarked(marker));
    const harness = await start({ mode: 'bypass' });
    const controller = new AbortController();
    const stopped = harness.prompt([{ run: `sh -c 'sleep ${marker}; echo never' & wait` }], controller.signal);
    await until(() => countProcesses(marker) === 1);
    controller.abort();
    assert.equal(await stopped, 'cancelled');
    await until(() => countProcesses(marker) === 0);
    assert.deepEqual(entries(harness, 'session/cancel').map((entry) => entry.params.sessionId), [harness.sessionId]);
  });
});

describe('ACP session/request_permission → our rules, then our approval', () => {
  const ask = (kind: 'execute' | 'edit' | 'fetch', title: string, rawInput?: unknown, path?: string): Step => ({ permission: { kind, title, rawInput, path } });

  it('a deny rule wins: rejected without asking', async () => {
    const harness = await start({ rules: { deny: ['Bash(git push:*)'] } });
    await harness.prompt([ask('execute', 'git push', { command: 'git push origin main' })]);
    assert.equal(harness.approvals.asked.length, 0);
    assert.deepEqual(entries(harness, 'permission')[0]!.outcome, { outcome: 'selected', optionId: 'no' });
  });

  it('an allow rule answers allow once without asking', async () => {
    const harness = await start({ rules: { allow: ['Bash(npm test:*)'] } });
    await harness.prompt([ask('execute', 'npm test', { command: 'npm test -- --watch=false' })]);
    assert.equal(harness.approvals.asked.length, 0);
    assert.deepEqual(entries(harness, 'permission')[0]!.outcome, { outcome: 'selected', optionId: 'yes' });
  });

  it('otherwise asks us, with the agent\'s options as our answers', async () => {
    const harness = await start({ answers: [{ kind: 'allowSession' }, { kind: 'deny' }] });
    await harness.prompt([ask('edit', 'Edit notes', undefined, 'notes.txt'), ask('fetch', 'Fetch example.com', { url: 'https://example.com' })]);
    assert.equal(harness.approvals.asked.length, 2);
    // An edit that does not say what it writes is the agent's request in words; a fetch with a url is our WebFetch.
    assert.equal(harness.approvals.asked[0]!.toolName, 'Agent request');
    assert.equal(harness.approvals.asked[0]!.sessionAllowed, true);
    assert.equal(harness.approvals.asked[1]!.toolName, 'WebFetch');
    assert.deepEqual(entries(harness, 'permission').map((entry) => entry.outcome), [
      { outcome: 'selected', optionId: 'always' },
      { outcome: 'selected', optionId: 'no' },
    ]);
  });

  it('a write the user allowed through the agent\'s permission request is not asked again', async () => {
    writeFileSync(join(acp.dir(), 'notes.txt'), 'original\n');
    const harness = await start({ answers: [{ kind: 'allowOnce' }, { kind: 'deny' }] });
    await harness.prompt([{ read: 'notes.txt' }, ask('edit', 'Edit notes', { file_path: join(acp.dir(), 'notes.txt'), content: 'changed\n' }), { write: 'notes.txt', content: 'changed\n' }, { write: 'notes.txt', content: 'again\n' }]);
    // One modal for the permission; the write it was about runs unasked, once: the next write asks (and is denied).
    assert.equal(harness.approvals.asked.length, 2);
    assert.equal(readFileSync(join(acp.dir(), 'notes.txt'), 'utf8'), 'changed\n');
  });

  it('allow for session in a permission request: our rules remember it, later commands like it run unasked', async () => {
    const harness = await start({ answers: [{ kind: 'allowSession' }] });
    await harness.prompt([ask('execute', 'echo', { command: 'echo one' }), { run: 'echo one' }, { run: 'echo one' }]);
    assert.equal(harness.approvals.asked.length, 1);
    assert.deepEqual(entries(harness, 'terminal').map((entry) => entry.output.output), ['one\n', 'one\n']);
  });

  it('a cancelled session answers an open permission request with cancelled', async () => {
    const harness = await start();
    const controller = new AbortController();
    const stopped = harness.prompt([ask('fetch', 'Fetch example.com', { url: 'https://example.com' })], controller.signal);
    await until(() => harness.approvals.asked.length === 1);
    controller.abort();
    assert.equal(await stopped, 'cancelled');
    assert.deepEqual(entries(harness, 'permission')[0]!.outcome, { outcome: 'cancelled' });
  });
});

describe('ACP session/update the connection keeps, and denials it reports', () => {
  it('keeps the slash commands the agent last offered in the session', async () => {
    const harness = await start();
    assert.deepEqual(harness.connection.availableCommands(harness.sessionId), []);
    await harness.prompt([{ commands: [{ name: 'init', description: 'Create notes' }] }, { commands: [{ name: 'review', description: 'Review', input: { hint: 'branch' } }] }]);
    assert.deepEqual(harness.connection.availableCommands(harness.sessionId), [{ name: 'review', description: 'Review', input: { hint: 'branch' } }]);
  });

  it('reports who denied a permission request, with the agent\'s tool call id', async () => {
    const harness = await start({ rules: { deny: ['Bash(git push:*)'] }, answers: [{ kind: 'deny' }] });
    const denials: Array<{ toolCallId?: string; by: string }> = [];
    harness.connection.onDenied(({ toolCallId, by }) => void denials.push({ toolCallId, by }));
    await harness.prompt([
      { permission: { kind: 'execute', title: 'push', rawInput: { command: 'git push origin main' } } },
      { permission: { kind: 'execute', title: 'ls', rawInput: { command: 'ls' } } },
    ]);
    assert.equal(denials.length, 2);
    assert.match(denials[0]!.by, /^rule Bash\(git push:\*\)$/);
    assert.deepEqual(denials[1], { toolCallId: denials[1]!.toolCallId, by: 'you' });
    assert.ok(denials[0]!.toolCallId && denials[1]!.toolCallId && denials[0]!.toolCallId !== denials[1]!.toolCallId);
  });
});

describe('ACP agent process', () => {
  it('close ends what the agent started too (Claude Code, under its ACP adapter), not only the agent', async () => {
    const marker = uniqueSleep();
    acp.cleanup(() => killMarked(marker));
    const harness = await start({ alongside: `sleep ${marker}` });
    await until(() => countProcesses(marker) === 1);
    await harness.connection.close();
    assert.equal(countProcesses(marker), 0);
  });
});
