/// <reference types="mocha" />
// acp sessions inside the real extension host, with the scripted ACP agent (test/acp/scriptedAgent.ts) and its
// flags: modes and config options (the Choose ACP Agent Mode command, `/mode`, the reply's header,
// current_mode_update), resume after a simulated reload, session/list through Continue an Earlier ACP Session,
// session/close when the agents are disposed, references as embedded resources and images, sign-in on
// auth_required, and an elicitation form. The quick picks and input boxes are answered by the testing
// responder, as approvals are.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AskQuestion } from '../../../src/vscode/acp/acpAsk';
import { extensionApi, recordingStream, waitFor, workspaceRoot } from './helpers';
import { alive } from '../../unit/tools/processes';

const ROOT = path.join(__dirname, '..', '..', '..', '..');
const AGENT = path.join(ROOT, 'out', 'test', 'acp', 'scriptedAgent.js');

type Entry = { kind: string; params?: Record<string, any>; [key: string]: any };

function chatRequest(steps: unknown[], references: unknown[] = []): vscode.ChatRequest {
  return { prompt: JSON.stringify(steps), command: undefined, references, toolReferences: [], toolInvocationToken: undefined } as unknown as vscode.ChatRequest;
}

suite('acp sessions: modes, resume, list, close, resources, sign-in, forms', () => {
  let dir: string;
  let name: string;
  let transcript: string;
  const config = () => vscode.workspace.getConfiguration('agentToolExecutor');
  const token = () => new vscode.CancellationTokenSource().token;
  const entries = (kind?: string): Entry[] => fs.readFileSync(transcript, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Entry).filter((entry) => kind === undefined || entry.kind === kind);
  /** A fresh agent name (no session id kept from an earlier test) with these flags. */
  const useAgent = async (...flags: string[]) => {
    name = `scripted-${flags.join('').replace(/-/g, '')}-${process.pid}-${Date.now()}`;
    transcript = path.join(dir, `${name}.jsonl`);
    await config().update('acp.agents', [{ name, command: process.execPath, args: [AGENT, '--transcript', transcript, ...flags] }], vscode.ConfigurationTarget.Workspace);
  };
  const prompt = async (steps: unknown[], references: unknown[] = []) => {
    const recorded = recordingStream();
    const result = await (await extensionApi()).testing.acpPrompt!(name, chatRequest(steps, references), recorded.stream, token());
    assert.equal(result.errorDetails, undefined, result.errorDetails?.message);
    return recorded.text();
  };
  const answer = async (responder: (question: AskQuestion) => string | readonly string[] | undefined) => {
    const asked: AskQuestion[] = [];
    (await extensionApi()).testing.setAcpAskResponder!((question) => (asked.push(question), responder(question)));
    return asked;
  };

  setup(async () => {
    await extensionApi();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ate-acp-sessions-'));
  });

  teardown(async () => {
    const api = await extensionApi();
    api.testing.setAcpAskResponder?.(undefined);
    api.testing.setApprovalResponder(undefined);
    await api.testing.acpCloseAll!();
    await config().update('chat.agent', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('acp.agents', undefined, vscode.ConfigurationTarget.Workspace);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('modes and config options: the reply header, the quick pick, /mode, and the agent\'s own current_mode_update', async function () {
    this.timeout(90_000);
    await useAgent('--modes');
    assert.match(await prompt([{ say: 'hi' }]), /mode:\* \*\*Ask\*\*/);
    const asked = await answer((question) => (question.kind === 'pick' ? 'Code' : undefined));
    const said = await vscode.commands.executeCommand<string>('agentToolExecutor.acp.chooseMode', name);
    assert.match(said ?? '', /mode Code/);
    assert.deepEqual(asked[0]!.kind === 'pick' && asked[0]!.labels, ['Ask', 'Code', 'Architect', 'Small model', 'Large model', 'Think first: on', 'Think first: off']);
    assert.deepEqual(entries('session/set_mode').map((entry) => entry.params!.modeId), ['code']);
    // `/mode` while the agent takes prompts.
    await config().update('chat.agent', name, vscode.ConfigurationTarget.Workspace);
    const listed = recordingStream();
    await (await extensionApi()).testing.acpMode!('', listed.stream, token());
    assert.match(listed.text(), /\*\*Code\*\* \(current\)/);
    const set = await (await extensionApi()).testing.acpMode!('model large', recordingStream().stream, token());
    assert.equal(set.errorDetails, undefined, set.errorDetails?.message);
    assert.deepEqual(entries('session/set_config_option').map((entry) => [entry.params!.configId, entry.params!.value]), [['model', 'large']]);
    // The agent switches by itself mid-turn: the reply says so and the next header follows.
    const reply = await prompt([{ mode: 'architect' }, { say: 'planned' }]);
    assert.match(reply, /mode:\* \*\*Code\*\*/);
    assert.match(reply, /switched to mode \*\*Architect\*\*/);
    assert.match(await prompt([{ say: 'again' }]), /mode:\* \*\*Architect\*\*/);
    assert.deepEqual(entries('session/prompt').at(-1)!.configOptions, [['model', 'large'], ['thinking', false]]);
  });

  test('after a simulated reload the session is resumed with session/resume where offered (the id kept in workspace state)', async function () {
    this.timeout(90_000);
    await useAgent('--resume', '--load');
    await prompt([{ say: 'one' }]);
    await (await extensionApi()).testing.acpCloseAll!();
    await prompt([{ say: 'two' }]);
    assert.equal(entries('session/new').length, 1);
    assert.deepEqual(entries('session/resume').map((entry) => entry.params!.sessionId), ['session-1']);
    assert.equal(entries('session/load').length, 0, 'resume is preferred to load');
    assert.equal(entries('session/prompt').at(-1)!.sessionId, 'session-1');
  });

  test('Continue an Earlier ACP Session lists the sessions, resumes the chosen one, and the agents\' disposal closes it and ends the process', async function () {
    this.timeout(90_000);
    await useAgent('--list', '--resume', '--close');
    await prompt([{ say: 'one' }]);
    const asked = await answer(() => 'Fix the flaky test');
    const said = await vscode.commands.executeCommand<string>('agentToolExecutor.acp.continueSession', name);
    assert.match(said ?? '', /session-earlier/);
    assert.deepEqual(asked[0]!.kind === 'pick' && asked[0]!.labels, ['Session session-1', 'Fix the flaky test']);
    assert.deepEqual(entries('session/list').map((entry) => entry.params!.cwd), [workspaceRoot().fsPath]);
    assert.deepEqual(entries('session/resume').map((entry) => entry.params!.sessionId), ['session-earlier']);
    assert.deepEqual(entries('session/close').map((entry) => entry.params!.sessionId), ['session-1'], 'the session left is closed');
    await prompt([{ say: 'two' }]);
    assert.equal(entries('session/prompt').at(-1)!.sessionId, 'session-earlier');
    const pid = entries('initialize')[0]!.pid as number;
    await (await extensionApi()).testing.acpCloseAll!();
    assert.deepEqual(entries('session/close').map((entry) => entry.params!.sessionId), ['session-1', 'session-earlier']);
    await waitFor('the agent process to end', () => (alive(pid) ? undefined : true));
  });

  test('references go as embedded resources (redacted; an ignored file not sent) and images as image blocks where the agent takes them', async function () {
    this.timeout(90_000);
    await useAgent('--embed');
    const root = workspaceRoot().fsPath;
    const secret = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`;
    const notes = path.join(root, `acp-embed-${process.pid}.txt`);
    const hidden = path.join(root, `acp-hidden-${process.pid}.txt`);
    const ignore = path.join(root, '.aiignore');
    assert.equal(fs.existsSync(ignore), false, 'the test workspace has no .aiignore of its own');
    fs.writeFileSync(notes, `one\ntoken ${secret}\nthree\n`);
    fs.writeFileSync(hidden, 'kept away from agents\n');
    fs.writeFileSync(ignore, `${path.basename(hidden)}\n`);
    try {
      const api = await extensionApi();
      await waitFor('the ignore file to be read', async () => ((await api.executor.executeBatch([{ id: 'probe', name: 'Read', input: { path: hidden } }]))[0]?.isError ? true : undefined));
      const uri = vscode.Uri.file(notes);
      const image = { mimeType: 'image/png', data: () => Promise.resolve(new Uint8Array([137, 80, 78, 71])) };
      const reply = await prompt([{ say: 'seen' }], [
        { id: 'file', value: uri },
        { id: 'range', value: new vscode.Location(uri, new vscode.Range(2, 0, 2, 5)) },
        { id: 'hidden', value: vscode.Uri.file(hidden) },
        { id: 'shot.png', value: image },
      ]);
      const [whole, range, picture, ...rest] = entries('session/prompt')[0]!.attached as Array<Record<string, any>>;
      assert.deepEqual(rest, [], 'the ignored file is not sent, not even as a link');
      assert.equal(whole!.type, 'resource');
      assert.equal(whole!.resource.uri, uri.toString());
      assert.match(whole!.resource.text, /^one\ntoken .+\nthree\n$/);
      assert.ok(!whole!.resource.text.includes(secret), whole!.resource.text);
      assert.equal(range!.resource.uri, `${uri.toString()}#L3-3`);
      assert.match(range!.resource.text, /^three\n?$/);
      assert.deepEqual(picture, { type: 'image', mimeType: 'image/png', data: Buffer.from([137, 80, 78, 71]).toString('base64') });
      assert.match(reply, /Not sent: .*acp-hidden-.*\.aiignore/);
    } finally {
      for (const file of [notes, hidden, ignore]) fs.rmSync(file, { force: true });
    }
  });

  test('an agent that answers auth_required: its methods in a quick pick, then authenticate, then the session opens', async function () {
    this.timeout(90_000);
    await useAgent('--auth');
    const asked = await answer(() => 'API key');
    assert.match(await prompt([{ say: 'signed in' }]), /signed in/);
    assert.deepEqual(asked.map((question) => question.kind === 'pick' && question.labels), [['API key', 'Sign in with a browser']]);
    assert.deepEqual(entries('authenticate').map((entry) => entry.params!.methodId), ['api-key']);
    assert.deepEqual(entries('session/new').map((entry) => entry.authenticated), [false, true]);
  });

  test("an agent's elicitation form is asked field by field and its answers go back; Escape cancels it", async function () {
    this.timeout(90_000);
    await useAgent();
    const schema = {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', title: 'Name', minLength: 2 }, size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] }, sure: { type: 'boolean' } },
    };
    const asked = await answer((question) => (question.kind === 'input' ? 'Ada' : question.labels.includes('Large') ? 'Large' : 'Yes'));
    await prompt([{ elicit: 'Tell me about the project', schema }]);
    assert.deepEqual(asked.map((question) => question.kind), ['input', 'pick', 'pick']);
    assert.match(asked[0]!.title, /Tell me about the project — Name/);
    await answer(() => undefined);
    await prompt([{ elicit: 'Again?', schema }]);
    assert.deepEqual(entries('elicitation').map((entry) => entry.answer), [{ action: 'accept', content: { name: 'Ada', size: 'l', sure: true } }, { action: 'cancel' }]);
  });
});
