// End to end, in the browser: `@executor` with the scripted ACP agent chosen
// (agentToolExecutor.acp.agents + agentToolExecutor.chat.agent). The agent reads notes.txt, writes it
// (the real approval modal: Deny leaves it untouched, Allow writes it and Open diff opens the diff
// editor), runs a command, and shows its plan, thought and message in the reply. Screenshots go to test-results/.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { Workbench } from './workbench';

const ROOT = path.join(__dirname, '..', '..', '..');
const AGENT = path.join(ROOT, 'out', 'test', 'acp', 'scriptedAgent.js');
/** The agent's start, its requests and a modal on a 2-core machine. */
const AGENT_TIMEOUT_MS = 60_000;

let workbench: Workbench;
let dir: string;

/** A command line only this run's slow step has. */
const SLOW = `sleep 31.${process.pid}`;

function sleeping(): string[] {
  try {
    return execFileSync('pgrep', ['-f', `^${SLOW.replace('.', '\\.')}$`], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

async function waitFor(what: string, probe: () => boolean, timeout = AGENT_TIMEOUT_MS): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > timeout) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ate-acp-e2e-'));
  workbench = await Workbench.start(() => ({ 'notes.txt': 'hello\n' }), {
    userSettings: {
      // A model in the picker, so the chat sends prompts; with an ACP agent chosen it is not used.
      'agentToolExecutor.demoModel.enabled': true,
      'agentToolExecutor.acp.agents': [{ name: 'scripted', command: process.execPath, args: [AGENT, '--transcript', path.join(dir, 'agent.jsonl')] }],
      'agentToolExecutor.chat.agent': 'scripted',
    },
  });
});

after(async () => {
  const left = await workbench?.stop();
  assert.deepEqual(left ?? [], [], 'no server, browser or watcher process is left');
  fs.rmSync(dir, { recursive: true, force: true });
});

test("Deny in the modal for the agent's write: the file is untouched, the reply says the write failed", () =>
  workbench.steps('acp-deny', async () => {
    const reply = await workbench.chat('@executor demo');
    await workbench.approvalDialog('Write').waitFor({ timeout: AGENT_TIMEOUT_MS });
    await workbench.screenshot('acp-1-approval-modal');
    await workbench.page.getByRole('button', { name: 'Deny', exact: true }).click();
    // Its command asks too (default mode); allowed, it shows the file as it still is.
    await workbench.approvalDialog('Bash').waitFor({ timeout: AGENT_TIMEOUT_MS });
    await workbench.page.getByRole('button', { name: 'Allow', exact: true }).click();
    await workbench.replyDone(reply, AGENT_TIMEOUT_MS);
    const text = await workbench.replyText(reply);
    assert.match(text, /Plan/);
    assert.match(text, /Read the notes/);
    assert.match(text, /✓ Read/);
    assert.match(text, /✗ Write.*denied/);
    assert.match(text, /That failed: The user denied permission to use Write/);
    assert.equal(workbench.readFile('notes.txt'), 'hello\n');
  }));

test('Allow in the modal: the file changes, the reply has the plan, the command output and Open diff, which opens the diff editor', () =>
  workbench.steps('acp-allow', async () => {
    const reply = await workbench.chat('@executor demo');
    await workbench.approvalDialog('Write').waitFor({ timeout: AGENT_TIMEOUT_MS });
    await workbench.page.getByRole('button', { name: 'Allow', exact: true }).click();
    await workbench.approvalDialog('Bash').waitFor({ timeout: AGENT_TIMEOUT_MS });
    await workbench.page.getByRole('button', { name: 'Allow', exact: true }).click();
    await workbench.replyDone(reply, AGENT_TIMEOUT_MS);
    assert.equal(workbench.readFile('notes.txt'), 'hello\nupdated by the ACP agent\n');
    const text = await workbench.replyText(reply);
    assert.match(text, /✓ Write/);
    assert.match(text, /exited with 0/);
    assert.match(text, /Done: I read, updated and checked notes\.txt\./);
    await workbench.screenshot('acp-2-reply');
    await workbench.unfoldSteps(reply);
    await workbench.clickReplyButton(reply, 'Open diff');
    await workbench.activeTabTitled('before ↔ after').waitFor();
    await workbench.page.locator('.monaco-diff-editor .modified .view-lines', { hasText: 'updated by the ACP agent' }).first().waitFor();
    await workbench.screenshot('acp-3-diff');
    await workbench.closeAllEditors();
  }));

test("the stop button sends session/cancel: the agent's running command dies with its process tree", () =>
  workbench.steps('acp-stop', async () => {
    const reply = await workbench.chat(`@executor [{"run":"sh -c '${SLOW}; echo never'"}]`);
    await workbench.approvalDialog('Bash').waitFor({ timeout: AGENT_TIMEOUT_MS });
    await workbench.page.getByRole('button', { name: 'Allow', exact: true }).click();
    await waitFor('the slow command to start', () => sleeping().length > 0);
    await workbench.stopChat();
    await workbench.replyDone(reply);
    await waitFor('the slow command to end', () => sleeping().length === 0, 15_000);
    const transcript = fs.readFileSync(path.join(dir, 'agent.jsonl'), 'utf8');
    assert.match(transcript, /"kind":"session\/cancel"/);
    await workbench.screenshot('acp-4-stopped');
  }));
