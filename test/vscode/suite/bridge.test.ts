/// <reference types="mocha" />
// The agent host inside the real extension host: the settings start the reference agent with
// vscode-languageclient (LSP initialize carries the executor's tools), a killed agent is started again,
// and clearing the setting stops it — no agent process is left behind.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { extensionApi, pressUndoThisTurn, recordingStream, waitFor, workspaceRoot } from './helpers';

const ROOT = path.join(__dirname, '..', '..', '..', '..');
const AGENT = path.join(ROOT, 'out', 'examples', 'agent', 'agent.js');
const SCRIPT = path.join(ROOT, 'examples', 'agent', 'sessions', 'demo.json');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

suite('Agent bridge (vscode-languageclient)', () => {
  let dir: string;
  let transcriptFile: string;
  const entries = (): Array<Record<string, any>> =>
    fs.existsSync(transcriptFile) ? fs.readFileSync(transcriptFile, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
  const config = () => vscode.workspace.getConfiguration('agentToolExecutor.agent');

  setup(async () => {
    await extensionApi();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ate-bridge-suite-'));
    transcriptFile = path.join(dir, 'agent.jsonl');
  });

  teardown(async () => {
    await config().update('command', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('args', undefined, vscode.ConfigurationTarget.Workspace);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the workspace setting (trusted) starts the agent; a killed agent is restarted; clearing the setting stops it', async function () {
    this.timeout(60_000);
    await config().update('args', [AGENT, '--script', SCRIPT, '--transcript', transcriptFile], vscode.ConfigurationTarget.Workspace);
    await config().update('command', process.execPath, vscode.ConfigurationTarget.Workspace);
    const first = await waitFor('the agent to be initialized', () => entries().find((entry) => entry.kind === 'initialize'));
    assert.equal(first.direction, 'editor→agent');
    assert.ok(first.tools.includes('Read') && first.tools.includes('Edit'));

    process.kill(first.pid, 'SIGKILL');
    const second = await waitFor('a restarted agent', () => entries().find((entry) => entry.kind === 'initialize' && entry.pid !== first.pid));
    assert.ok(!alive(first.pid));
    assert.ok(alive(second.pid));

    await config().update('command', undefined, vscode.ConfigurationTarget.Workspace);
    await waitFor('the agent to stop', () => (alive(second.pid) ? undefined : true));
  });

  test('a prompt\'s turns are checkpointed: the reply ends with Undo this turn, which removes what the agent\'s Write and command made', async function () {
    this.timeout(60_000);
    const api = await extensionApi();
    api.testing.setApprovalResponder(() => ({ kind: 'allowOnce' }));
    const written = path.join(workspaceRoot().fsPath, `bridge-written-${process.pid}-${Date.now()}.txt`);
    const made = path.join(workspaceRoot().fsPath, `bridge-made-${process.pid}-${Date.now()}.txt`);
    const script = path.join(dir, 'undo.json');
    const batch = [
      { id: 'w', name: 'Write', input: { path: written, content: 'written by the agent\n' } },
      { id: 'b', name: 'Bash', input: { command: `printf 'made by the shell\\n' > '${made}'` } },
    ];
    fs.writeFileSync(script, JSON.stringify({ prompts: [{ when: 'write', steps: [{ batch }, { say: 'Done.' }] }] }));
    try {
      await config().update('args', [AGENT, '--script', script, '--transcript', transcriptFile], vscode.ConfigurationTarget.Workspace);
      await config().update('command', process.execPath, vscode.ConfigurationTarget.Workspace);
      await waitFor('the agent to be initialized', () => entries().find((entry) => entry.kind === 'initialize'));
      const { stream, parts } = recordingStream();
      const request = { prompt: 'write both', references: [], toolReferences: [], toolInvocationToken: undefined } as unknown as vscode.ChatRequest;
      const result = await api.testing.bridgePrompt!(request, { history: [] }, stream, new vscode.CancellationTokenSource().token);
      assert.equal(result.errorDetails, undefined, result.errorDetails?.message);
      assert.equal(fs.readFileSync(written, 'utf8'), 'written by the agent\n');
      assert.equal(fs.readFileSync(made, 'utf8'), 'made by the shell\n');
      const undo = await pressUndoThisTurn(parts);
      assert.deepEqual(undo.restored.map((entry) => [entry.path, entry.kind]).sort(), [[made, 'created'], [written, 'created']].sort());
      assert.equal(fs.existsSync(written), false);
      assert.equal(fs.existsSync(made), false);
    } finally {
      api.testing.setApprovalResponder(undefined);
      fs.rmSync(written, { force: true });
      fs.rmSync(made, { force: true });
    }
  });

  test('the agent\'s executor/undoTurn asks the user, shown every path it would write, then undoes the reply\'s turn through the extension\'s checkpoints; a file the user changed since is skipped and named', async function () {
    this.timeout(60_000);
    const api = await extensionApi();
    let undoAnswer: 'allowOnce' | 'deny' = 'deny';
    const undoAsked: string[] = [];
    api.testing.setApprovalResponder((request) => {
      if (request.toolName !== 'Undo') return { kind: 'allowOnce' };
      undoAsked.push(request.preview?.detail ?? '');
      return { kind: undoAnswer };
    });
    const written = path.join(workspaceRoot().fsPath, `bridge-undo-written-${process.pid}-${Date.now()}.txt`);
    const made = path.join(workspaceRoot().fsPath, `bridge-undo-made-${process.pid}-${Date.now()}.txt`);
    const script = path.join(dir, 'undo.json');
    const batch = [
      { id: 'w', name: 'Write', input: { path: written, content: 'written by the agent\n' } },
      { id: 'b', name: 'Bash', input: { command: `printf 'made by the shell\\n' > '${made}'` } },
    ];
    fs.writeFileSync(script, JSON.stringify({ prompts: [{ when: 'write', steps: [{ batch }] }, { when: 'undo', steps: [{ undoLast: {} }] }] }));
    const prompt = (text: string) =>
      api.testing.bridgePrompt!({ prompt: text, references: [], toolReferences: [], toolInvocationToken: undefined } as unknown as vscode.ChatRequest, { history: [] }, recordingStream().stream, new vscode.CancellationTokenSource().token);
    try {
      await config().update('args', [AGENT, '--script', script, '--transcript', transcriptFile], vscode.ConfigurationTarget.Workspace);
      await config().update('command', process.execPath, vscode.ConfigurationTarget.Workspace);
      await waitFor('the agent to be initialized', () => entries().find((entry) => entry.kind === 'initialize'));
      assert.equal((await prompt('write both')).errorDetails, undefined);
      fs.writeFileSync(written, 'changed by the user afterwards\n');
      // Denied: nothing is written, and the agent hears it was cancelled.
      assert.equal((await prompt('undo it')).errorDetails, undefined);
      const refused = entries().filter((entry) => entry.kind === 'undo').at(-1)?.undone as { cancelled: boolean; restored: unknown[] };
      assert.equal(refused.cancelled, true);
      assert.deepEqual(refused.restored, []);
      assert.equal(fs.existsSync(made), true);
      assert.equal(undoAsked.length, 1);
      assert.match(undoAsked[0]!, new RegExp(`remove .*${path.basename(made).replace(/[.]/g, '\\.')}`));
      assert.match(undoAsked[0]!, /1 file changed since the turn stays as it is/);
      undoAnswer = 'allowOnce';
      assert.equal((await prompt('undo it')).errorDetails, undefined);
      assert.equal(undoAsked.length, 2);
      const undone = entries().filter((entry) => entry.kind === 'undo').at(-1)?.undone as { restored: { path: string; was: string }[]; skipped: { path: string }[] };
      assert.deepEqual(undone.restored.map((entry) => [entry.path, entry.was]), [[made, 'created']]);
      assert.deepEqual(undone.skipped.map((entry) => entry.path), [written]);
      assert.equal(fs.existsSync(made), false);
      assert.equal(fs.readFileSync(written, 'utf8'), 'changed by the user afterwards\n');
    } finally {
      api.testing.setApprovalResponder(undefined);
      fs.rmSync(written, { force: true });
      fs.rmSync(made, { force: true });
    }
  });
});
