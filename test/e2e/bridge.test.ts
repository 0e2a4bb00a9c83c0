// End to end, in the browser: `@executor` forwards the prompt to the reference agent
// (examples/agent), which VS Code starts with vscode-languageclient from the user's settings. The
// agent's batch raises the real approval modal; Deny and Allow do what they say; Open diff in the reply
// opens the diff editor; a crash of the agent mid-turn is said in the reply, its calls end cancelled,
// and the restarted agent answers the next prompt. Screenshots go to test-results/.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { Workbench } from './workbench';

const ROOT = path.join(__dirname, '..', '..', '..');
const AGENT = path.join(ROOT, 'out', 'examples', 'agent', 'agent.js');
const SCRIPT = path.join(ROOT, 'examples', 'agent', 'sessions', 'demo.json');
/** The agent's start, a batch and a modal on a 2-core machine. */
const AGENT_TIMEOUT_MS = 60_000;

let workbench: Workbench;
let transcriptFile: string;

function transcript(): Array<Record<string, any>> {
  if (!fs.existsSync(transcriptFile)) return [];
  return fs.readFileSync(transcriptFile, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeout = AGENT_TIMEOUT_MS): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeout) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The reference agent's slow command (examples/agent/sessions/demo.json). */
function sleeping(): string[] {
  try {
    return execFileSync('pgrep', ['-f', '^sleep 31$'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

before(async () => {
  transcriptFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ate-bridge-e2e-')), 'agent.jsonl');
  workbench = await Workbench.start(() => ({ 'hello.txt': 'hello\n' }), {
    userSettings: {
      // A model in the picker, so the chat sends prompts; with an agent configured it is not used.
      'agentToolExecutor.demoModel.enabled': true,
      'agentToolExecutor.agent.command': process.execPath,
      'agentToolExecutor.agent.args': [AGENT, '--script', SCRIPT, '--transcript', transcriptFile],
      'agentToolExecutor.agent.trace.server': 'messages',
    },
  });
  // VS Code starts the agent and sends it LSP initialize with the executor's tools.
  const init = await waitFor('the agent to be initialized', () => transcript().find((entry) => entry.kind === 'initialize'));
  assert.equal(init.direction, 'editor→agent');
  assert.ok(init.tools.includes('Edit'));
});

after(async () => {
  const pids = [...new Set(transcript().map((entry) => entry.pid as number))];
  const left = await workbench?.stop();
  assert.deepEqual(left ?? [], [], 'no server, browser or watcher process is left');
  // An agent whose editor went away ends when its stdin closes.
  await waitFor('the agent processes to end', () => (pids.some(alive) ? undefined : true), 5000).catch(() => undefined);
  assert.deepEqual(pids.filter(alive), [], 'no agent process is left');
  fs.rmSync(path.dirname(transcriptFile), { recursive: true, force: true });
});

test("Deny in the modal for the agent's Edit: the file is untouched, the reply and the agent say denied", () =>
  workbench.steps('bridge-deny', async () => {
    const reply = await workbench.chat('@executor edit the greeting');
    const dialog = workbench.approvalDialog('Edit');
    await dialog.waitFor({ timeout: AGENT_TIMEOUT_MS });
    await workbench.screenshot('bridge-1-approval-modal');
    await workbench.page.getByRole('button', { name: 'Deny', exact: true }).click();
    await workbench.replyDone(reply, AGENT_TIMEOUT_MS);
    const text = await workbench.replyText(reply);
    assert.match(text, /Reading the greeting/, "the agent's own text is in the reply");
    assert.match(text, /✓ Read/);
    assert.match(text, /✗ Edit.*denied/);
    assert.match(text, /Edit edit-1: permission/, 'the agent got the denial as its result');
    assert.equal(workbench.readFile('hello.txt'), 'hello\n');
  }));

test("Allow in the modal: the file changes, the reply shows the call like the built-in loop's, Open diff opens the diff editor", () =>
  workbench.steps('bridge-allow', async () => {
    const reply = await workbench.chat('@executor edit it now');
    await workbench.approvalDialog('Edit').waitFor({ timeout: AGENT_TIMEOUT_MS });
    await workbench.page.getByRole('button', { name: 'Allow', exact: true }).click();
    await workbench.replyDone(reply, AGENT_TIMEOUT_MS);
    assert.equal(workbench.readFile('hello.txt'), 'hello, bridge\n');
    const text = await workbench.replyText(reply);
    assert.match(text, /✓ Edit/);
    assert.match(text, /Edit edit-1: ok/);
    await workbench.screenshot('bridge-2-reply');
    await workbench.unfoldSteps(reply);
    await workbench.clickReplyButton(reply, 'Open diff');
    await workbench.activeTabTitled('after edit').waitFor();
    await workbench.page.locator('.monaco-diff-editor .modified .view-lines', { hasText: 'hello, bridge' }).first().waitFor();
    await workbench.screenshot('bridge-3-diff');
    await workbench.closeAllEditors();
  }));

test("the stop button cancels the agent's prompt, and through it the agent's turn: the running command ends", () =>
  workbench.steps('bridge-stop', async () => {
    const reply = await workbench.chat('@executor slow please');
    await workbench.approvalDialog('Bash').waitFor({ timeout: AGENT_TIMEOUT_MS });
    await workbench.page.getByRole('button', { name: 'Allow', exact: true }).click();
    await waitFor('the slow command to start', () => (sleeping().length > 0 ? true : undefined));
    await workbench.stopChat();
    await workbench.replyDone(reply);
    // The editor cancels agent/prompt; the agent cancels its executor/endTurn ($/cancelRequest both ways).
    await waitFor('the slow command to end', () => (sleeping().length === 0 ? true : undefined), 15_000);
    const results = await waitFor('the agent to get its results', () => transcript().find((entry) => entry.kind === 'results' && entry.results[0]?.id === 'slow-2'));
    assert.equal(results.results[0].errorKind, 'cancelled');
  }));

test('the agent crashes mid-turn: the reply says so, its calls end cancelled, and the restarted agent answers', () =>
  workbench.steps('bridge-crash', async () => {
    const before = transcript().filter((entry) => entry.kind === 'started').map((entry) => entry.pid as number);
    const reply = await workbench.chat('@executor crash please');
    await workbench.replyDone(reply, AGENT_TIMEOUT_MS);
    const text = await workbench.replyText(reply);
    assert.match(text, /⊘ Bash/);
    assert.match(text, /⊘ Write/);
    assert.match(text, /The agent \(.*\) stopped: its process exited\. Its open turn was cancelled\. Restarting it in 0\.5 s \(restart 1\)\./);
    await workbench.screenshot('bridge-4-crash');
    const crashed = transcript().find((entry) => entry.kind === 'crash')!;
    assert.ok(before.includes(crashed.pid));
    assert.ok(!alive(crashed.pid), 'the crashed agent is gone');
    assert.ok(!fs.existsSync(path.join(workbench.workspace, 'never.txt')));
    await waitFor('a new agent process', () => transcript().find((entry) => entry.kind === 'initialize' && !before.includes(entry.pid)));

    const next = await workbench.chat('@executor look around');
    await workbench.replyDone(next, AGENT_TIMEOUT_MS);
    const answer = await workbench.replyText(next);
    assert.match(answer, /✓ Glob/);
    assert.match(answer, /✗ NoSuchTool/);
    assert.match(answer, /That is all I was scripted to do\./);
  }));
