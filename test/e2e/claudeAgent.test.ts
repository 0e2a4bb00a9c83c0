// End to end, in the browser: `@executor` hands the prompt to Claude's real ACP agent
// (@agentclientprotocol/claude-agent-acp, installed by scripts/setup-agent-claude.sh), set in
// agentToolExecutor.acp.agents, whose model is the fake Messages API on 127.0.0.1 (test/acp/claude/).
// The model asks for the agent's Write; the agent asks us; the real modal shows the agent's path and content.
// Deny leaves nothing; Allow writes exactly that. Screenshots go to test-results/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { claudeAgentLaunch } from '../acp/claude/claudeAgent';
import { startFakeMessagesApi, toolResultTexts, type FakeMessagesApi } from '../acp/claude/fakeMessagesApi';
import { Workbench } from './workbench';

/** The agent's start (Claude Code under its adapter), its model's turns and a modal on a 2-core machine. */
const AGENT_TIMEOUT_MS = 90_000;
const WRITTEN = 'a line Claude wrote through the modal\n';

let workbench: Workbench;
let api: FakeMessagesApi;
let home: string;

before(async () => {
  api = await startFakeMessagesApi();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'ate-claude-e2e-'));
  const launch = await claudeAgentLaunch(api, home);
  workbench = await Workbench.start(() => ({ 'README.md': '# project\n' }), {
    userSettings: {
      // A model in the picker, so the chat sends prompts; with an ACP agent chosen it is not used.
      'agentToolExecutor.demoModel.enabled': true,
      'agentToolExecutor.acp.agents': [{ name: 'claude', command: launch.command, args: launch.args, env: launch.env }],
      'agentToolExecutor.chat.agent': 'claude',
    },
  });
});

after(async () => {
  const left = await workbench?.stop();
  assert.deepEqual(left ?? [], [], 'no server, browser or watcher process is left');
  await api?.stop();
  fs.rmSync(home, { recursive: true, force: true, maxRetries: 5 });
});

function writeScript(name: string): void {
  api.script = [{ text: `I will write ${name}.`, tool: 'Write', input: { file_path: path.join(workbench.workspace, name), content: WRITTEN } }, { text: `Finished with ${name}.` }];
}

test("Deny in the modal for Claude's write: nothing is written, the model hears the refusal", () =>
  workbench.steps('claude-deny', async () => {
    writeScript('denied.txt');
    api.requests.length = 0;
    const reply = await workbench.chat('@executor write denied.txt');
    const dialog = workbench.approvalDialog('Write');
    await dialog.waitFor({ timeout: AGENT_TIMEOUT_MS });
    // The modal shows what the agent will write: its path and its content.
    const shown = await dialog.innerText();
    assert.match(shown, /denied\.txt/);
    assert.match(shown, /a line Claude wrote through the modal/);
    await workbench.screenshot('claude-1-approval-modal');
    await workbench.page.getByRole('button', { name: 'Deny', exact: true }).click();
    await workbench.replyDone(reply, AGENT_TIMEOUT_MS);
    assert.equal(fs.existsSync(path.join(workbench.workspace, 'denied.txt')), false);
    const text = await workbench.replyText(reply);
    assert.match(text, /Finished with denied\.txt/);
    assert.match(api.modelRequests().flatMap(toolResultTexts).join('\n'), /refused permission/);
    assert.deepEqual(api.strayRequests(), []);
  }));

test("Allow in the modal: the file holds exactly what the modal showed, and the reply says Claude's call succeeded", () =>
  workbench.steps('claude-allow', async () => {
    writeScript('allowed.txt');
    api.requests.length = 0;
    const reply = await workbench.chat('@executor write allowed.txt');
    await workbench.approvalDialog('Write').waitFor({ timeout: AGENT_TIMEOUT_MS });
    await workbench.page.getByRole('button', { name: 'Allow', exact: true }).click();
    await workbench.replyDone(reply, AGENT_TIMEOUT_MS);
    assert.equal(workbench.readFile('allowed.txt'), WRITTEN);
    const text = await workbench.replyText(reply);
    assert.match(text, /Finished with allowed\.txt/);
    await workbench.screenshot('claude-2-reply');
    assert.deepEqual(api.strayRequests(), []);
  }));
