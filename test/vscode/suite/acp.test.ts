/// <reference types="mocha" />
// ACP agents inside the real extension host: the scripted ACP agent (test/acp/scriptedAgent.ts),
// named in agentToolExecutor.acp.agents, gets an `@executor` prompt through the extension's ACP path; its
// write raises our approval (answered by the testing responder): Deny leaves the file untouched, Allow
// writes it and the reply has Open diff; its plan, message, and command output are in the reply.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../../src/executor/ports/approvalClient';
import { extensionApi, pressUndoThisTurn, recordingStream, undoButtonsOf, waitFor, workspaceRoot } from './helpers';

const ROOT = path.join(__dirname, '..', '..', '..', '..');
const AGENT = path.join(ROOT, 'out', 'test', 'acp', 'scriptedAgent.js');

function chatRequest(prompt: string): vscode.ChatRequest {
  return { prompt, command: undefined, references: [], toolReferences: [], toolInvocationToken: undefined } as unknown as vscode.ChatRequest;
}

suite('ACP agents (@agentclientprotocol/sdk)', () => {
  let dir: string;
  let file: string;
  const config = () => vscode.workspace.getConfiguration('agentToolExecutor');

  setup(async () => {
    await extensionApi();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ate-acp-suite-'));
    file = path.join(workspaceRoot().fsPath, `acp-notes-${process.pid}-${Date.now()}.txt`);
    fs.writeFileSync(file, 'hello\n');
    await config().update('acp.agents', [{ name: 'scripted', command: process.execPath, args: [AGENT, '--transcript', path.join(dir, 'agent.jsonl')] }], vscode.ConfigurationTarget.Workspace);
  });

  teardown(async () => {
    (await extensionApi()).testing.setApprovalResponder(undefined);
    await config().update('acp.agents', undefined, vscode.ConfigurationTarget.Workspace);
    fs.rmSync(file, { force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const script = (name: string) =>
    JSON.stringify([
      { plan: ['Read the notes', 'Update them'] },
      { read: name },
      { write: name, content: 'hello\nupdated by the ACP agent\n' },
      { run: `cat ${name}` },
      { say: 'All done.' },
    ]);

  test('a write raises our approval; Deny leaves the file untouched and the reply says you denied it', async function () {
    this.timeout(60_000);
    const api = await extensionApi();
    const asked: ApprovalRequest[] = [];
    api.testing.setApprovalResponder((request) => {
      asked.push(request);
      return { kind: 'deny', reason: 'The user denied this tool call.' };
    });
    const { stream, text } = recordingStream();
    const result = await api.testing.acpPrompt!('scripted', chatRequest(script(path.basename(file))), stream, new vscode.CancellationTokenSource().token);
    assert.equal(result.errorDetails, undefined, result.errorDetails?.message);
    assert.equal(fs.readFileSync(file, 'utf8'), 'hello\n');
    const writes = asked.filter((request) => request.toolName === 'Write');
    assert.equal(writes.length, 1);
    const reply = text();
    assert.match(reply, /\*\*Plan\*\*\n\n- \[ \] Read the notes/);
    assert.match(reply, /- ✗ Write .* — denied by you/);
    assert.match(reply, /Read .*: "hello\\n"/);
    assert.match(reply, /All done\./);
  });

  test('Allow writes the file, and the reply has Open diff and the command\'s output', async function () {
    this.timeout(60_000);
    const api = await extensionApi();
    api.testing.setApprovalResponder(() => ({ kind: 'allowOnce' }));
    const { stream, text } = recordingStream();
    const result = await api.testing.acpPrompt!('scripted', chatRequest(script(path.basename(file))), stream, new vscode.CancellationTokenSource().token);
    assert.equal(result.errorDetails, undefined, result.errorDetails?.message);
    assert.equal(fs.readFileSync(file, 'utf8'), 'hello\nupdated by the ACP agent\n');
    const reply = text();
    assert.match(reply, /\[Open diff\]/);
    assert.match(reply, /exited with 0:\n\n```\nhello\nupdated by the ACP agent\n/);
  });

  test('the reply ends with Undo this turn, which puts back the file the agent wrote and removes the one its command made', async function () {
    this.timeout(60_000);
    const api = await extensionApi();
    api.testing.setApprovalResponder(() => ({ kind: 'allowOnce' }));
    const made = path.join(workspaceRoot().fsPath, `acp-made-${process.pid}-${Date.now()}.txt`);
    try {
      const { stream, parts } = recordingStream();
      const steps = [{ read: path.basename(file) }, { write: path.basename(file), content: 'changed by the agent\n' }, { run: `printf 'made by the shell\\n' > '${made}'` }, { say: 'Both done.' }];
      const result = await api.testing.acpPrompt!('scripted', chatRequest(JSON.stringify(steps)), stream, new vscode.CancellationTokenSource().token);
      assert.equal(result.errorDetails, undefined, result.errorDetails?.message);
      assert.equal(fs.readFileSync(file, 'utf8'), 'changed by the agent\n');
      assert.equal(fs.readFileSync(made, 'utf8'), 'made by the shell\n');
      const undo = await pressUndoThisTurn(parts);
      assert.deepEqual(undo.restored.map((entry) => [entry.path, entry.kind]).sort(), [[file, 'modified'], [made, 'created']].sort());
      assert.equal(fs.readFileSync(file, 'utf8'), 'hello\n');
      assert.equal(fs.existsSync(made), false);
    } finally {
      fs.rmSync(made, { force: true });
    }
  });

  test('a cancelled prompt is checkpointed too: its undo puts back what it wrote before the stop button', async function () {
    this.timeout(60_000);
    const api = await extensionApi();
    api.testing.setApprovalResponder(() => ({ kind: 'allowOnce' }));
    const { stream, parts } = recordingStream();
    const steps = [{ read: path.basename(file) }, { write: path.basename(file), content: 'changed before the stop\n' }, { run: 'sleep 30' }];
    const stop = new vscode.CancellationTokenSource();
    const answered = api.testing.acpPrompt!('scripted', chatRequest(JSON.stringify(steps)), stream, stop.token);
    await waitFor('the write', () => (fs.readFileSync(file, 'utf8') === 'changed before the stop\n' ? true : undefined));
    stop.cancel();
    const result = await answered;
    assert.equal((result.metadata as { stopReason?: string } | undefined)?.stopReason, 'cancelled');
    const undo = await pressUndoThisTurn(parts);
    assert.deepEqual(undo.restored.map((entry) => [entry.path, entry.kind]), [[file, 'modified']]);
    assert.equal(fs.readFileSync(file, 'utf8'), 'hello\n');
  });

  test('a prompt that changed nothing offers no undo', async function () {
    this.timeout(60_000);
    const api = await extensionApi();
    const { stream, parts } = recordingStream();
    const result = await api.testing.acpPrompt!('scripted', chatRequest(JSON.stringify([{ read: path.basename(file) }, { say: 'read it' }])), stream, new vscode.CancellationTokenSource().token);
    assert.equal(result.errorDetails, undefined, result.errorDetails?.message);
    assert.deepEqual(undoButtonsOf(parts), []);
  });

  test('a message over the SDK\'s limit fails that prompt with a message; the next prompt works', async function () {
    this.timeout(120_000);
    const api = await extensionApi();
    const first = recordingStream();
    const failed = await api.testing.acpPrompt!('scripted', chatRequest(JSON.stringify([{ huge: 50 * 1024 * 1024 }])), first.stream, new vscode.CancellationTokenSource().token);
    assert.match(failed.errorDetails?.message ?? '', /agent was stopped: .*limit/);
    const second = recordingStream();
    const result = await api.testing.acpPrompt!('scripted', chatRequest(JSON.stringify([{ say: 'back again' }])), second.stream, new vscode.CancellationTokenSource().token);
    assert.equal(result.errorDetails, undefined, result.errorDetails?.message);
    assert.match(second.text(), /back again/);
  });

  test('after a simulated reload the agent takes its session up again with session/load (the id kept in workspace state)', async function () {
    this.timeout(120_000);
    const api = await extensionApi();
    // A name of its own: no session id kept from an earlier run.
    const name = `scripted-load-${process.pid}-${Date.now()}`;
    const transcript = path.join(dir, 'load.jsonl');
    await config().update('acp.agents', [{ name, command: process.execPath, args: [AGENT, '--transcript', transcript, '--load'] }], vscode.ConfigurationTarget.Workspace);
    const first = await api.testing.acpPrompt!(name, chatRequest(JSON.stringify([{ say: 'one' }])), recordingStream().stream, new vscode.CancellationTokenSource().token);
    assert.equal(first.errorDetails, undefined, first.errorDetails?.message);
    await api.testing.acpCloseAll!();
    const second = await api.testing.acpPrompt!(name, chatRequest(JSON.stringify([{ say: 'two' }])), recordingStream().stream, new vscode.CancellationTokenSource().token);
    assert.equal(second.errorDetails, undefined, second.errorDetails?.message);
    const entries = fs.readFileSync(transcript, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { kind: string; params?: { sessionId?: string } });
    const opened = entries.filter((entry) => entry.kind === 'session/new');
    const loaded = entries.filter((entry) => entry.kind === 'session/load');
    assert.equal(opened.length, 1, 'one session was opened');
    assert.equal(loaded.length, 1, 'and taken up after the reload');
    assert.equal(loaded[0]!.params!.sessionId, 'session-1');
  });

  test("the workspace's .vscode/mcp.json servers are passed at session/new", async function () {
    this.timeout(60_000);
    const api = await extensionApi();
    const name = `scripted-mcp-${process.pid}-${Date.now()}`;
    const transcript = path.join(dir, 'mcp.jsonl');
    const mcpFile = path.join(workspaceRoot().fsPath, '.vscode', 'mcp.json');
    assert.equal(fs.existsSync(mcpFile), false, 'the test workspace has no mcp.json of its own');
    const madeFolder = !fs.existsSync(path.dirname(mcpFile));
    fs.mkdirSync(path.dirname(mcpFile), { recursive: true });
    // JSONC, as VS Code writes it.
    fs.writeFileSync(mcpFile, '{\n  // the docs server\n  "servers": { "docs": { "type": "stdio", "command": "node", "args": ["${workspaceFolder}/server.js"] } }\n}\n');
    try {
      await config().update('acp.agents', [{ name, command: process.execPath, args: [AGENT, '--transcript', transcript] }], vscode.ConfigurationTarget.Workspace);
      const result = await api.testing.acpPrompt!(name, chatRequest(JSON.stringify([{ say: 'hi' }])), recordingStream().stream, new vscode.CancellationTokenSource().token);
      assert.equal(result.errorDetails, undefined, result.errorDetails?.message);
      const opened = fs.readFileSync(transcript, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { kind: string; params?: { mcpServers?: unknown } }).find((entry) => entry.kind === 'session/new');
      assert.deepEqual(opened!.params!.mcpServers, [{ name: 'docs', command: 'node', args: [`${workspaceRoot().fsPath}/server.js`], env: [] }]);
    } finally {
      fs.rmSync(madeFolder ? path.dirname(mcpFile) : mcpFile, { recursive: true, force: true });
    }
  });

  test('attached files and ranges go to the agent as resource_link blocks, a plain value as redacted text', async function () {
    this.timeout(60_000);
    const api = await extensionApi();
    const name = `scripted-refs-${process.pid}-${Date.now()}`;
    const transcript = path.join(dir, 'refs.jsonl');
    await config().update('acp.agents', [{ name, command: process.execPath, args: [AGENT, '--transcript', transcript] }], vscode.ConfigurationTarget.Workspace);
    const uri = vscode.Uri.file(file);
    const secret = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`;
    const request = {
      ...chatRequest(JSON.stringify([{ say: 'seen' }])),
      references: [
        { id: 'file', value: uri },
        { id: 'range', value: new vscode.Location(uri, new vscode.Range(1, 0, 2, 0)) },
        { id: 'value', value: `a note with ${secret}` },
      ],
    } as unknown as vscode.ChatRequest;
    const result = await api.testing.acpPrompt!(name, request, recordingStream().stream, new vscode.CancellationTokenSource().token);
    assert.equal(result.errorDetails, undefined, result.errorDetails?.message);
    const prompt = fs.readFileSync(transcript, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { kind: string; attached?: Array<{ type: string; text?: string }> }).find((entry) => entry.kind === 'session/prompt');
    const [whole, range, value] = prompt!.attached!;
    assert.deepEqual(whole, { type: 'resource_link', uri: uri.toString(), name: path.basename(file) });
    assert.deepEqual(range, { type: 'resource_link', uri: uri.toString(), name: path.basename(file), description: 'lines 2-3' });
    assert.equal(value!.type, 'text');
    assert.match(value!.text!, /^a note with /);
    assert.ok(!value!.text!.includes(secret), value!.text);
  });
});
