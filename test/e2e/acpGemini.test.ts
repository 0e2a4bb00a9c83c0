// End to end, in the browser: `@executor` with the real Gemini CLI chosen as the ACP agent (`gemini --acp`, pinned
// in test/agents/gemini, installed by scripts/setup.sh), offline: its model is a FakeGeminiService on 127.0.0.1 whose
// scripted turn calls write_file. The agent's permission request reaches the real approval modal with the agent's
// content; Deny leaves no file, Allow writes it. Screenshots go to test-results/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { FakeGeminiService, functionResponses, type ScriptedTurn } from '../acp/gemini/fakeGemini';
import { geminiHome, geminiLaunch, installedGeminiCli, skipWithoutGemini } from '../acp/gemini/geminiAgent';
import { Workbench } from './workbench';

/** The agent's start (a 100 MB bundle), the model's turns and the modal, on a 2-core machine. */
const AGENT_TIMEOUT_MS = 90_000;
const CONTENT = '# Release notes\n\nWritten by Gemini CLI through the approval modal.\n';
const PROMPT = '@executor Write the release notes to notes.md.';

const cli = installedGeminiCli();
const skip = skipWithoutGemini(cli);
let workbench: Workbench;
let fake: FakeGeminiService;
let dir: string;

/** The model's turns for one prompt: write notes.md in the workspace, then say so. */
const writeTurns = (): ScriptedTurn[] => [
  [{ text: 'I will write the notes.' }, { functionCall: { name: 'write_file', args: { file_path: path.join(workbench.workspace, 'notes.md'), content: CONTENT } } }],
  [{ text: 'Finished with notes.md.' }],
];

before(async () => {
  if (skip) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ate-gemini-e2e-'));
  fake = await FakeGeminiService.start([]);
  const { name, command, args, env } = geminiLaunch(cli!, fake.baseUrl, geminiHome(dir));
  workbench = await Workbench.start(() => ({ 'README.md': '# A project\n' }), {
    userSettings: {
      // A model in the picker, so the chat sends prompts; with an ACP agent chosen it is not used.
      'agentToolExecutor.demoModel.enabled': true,
      'agentToolExecutor.acp.agents': [{ name, command, args, env }],
      'agentToolExecutor.chat.agent': name,
    },
  });
});

after(async () => {
  if (skip) return;
  const left = await workbench?.stop();
  await fake?.close();
  assert.deepEqual(left ?? [], [], 'no server, browser or watcher process is left');
  fs.rmSync(dir, { recursive: true, force: true });
});

test("Deny in the modal for Gemini's write_file: the modal shows its content, and no file is written", { skip }, () =>
  workbench.steps('gemini-deny', async () => {
    fake.script(...writeTurns());
    const reply = await workbench.chat(PROMPT);
    const dialog = workbench.approvalDialog('Write');
    await dialog.waitFor({ timeout: AGENT_TIMEOUT_MS });
    const shown = await dialog.innerText();
    assert.match(shown, /notes\.md/);
    assert.match(shown, /Written by Gemini CLI through the approval modal\./);
    await workbench.screenshot('gemini-1-approval-modal');
    await workbench.page.getByRole('button', { name: 'Deny', exact: true }).click();
    await workbench.replyDone(reply, AGENT_TIMEOUT_MS);
    assert.equal(fs.existsSync(path.join(workbench.workspace, 'notes.md')), false);
    // The prompt reached the model; what went back for the write is not a success.
    assert.ok(fake.generations.some((request) => request.text.includes('Write the release notes to notes.md.')));
    assert.doesNotMatch(JSON.stringify(functionResponses(fake.generations.at(-1)!.body)), /Successfully/);
    const text = await workbench.replyText(reply);
    // Gemini CLI reports nothing of a call the user rejected: the reply says it from our side.
    assert.match(text, /✗ Writing to notes\.md — denied by you/);
    assert.match(text, /Finished with notes\.md\./);
    await workbench.screenshot('gemini-2-denied');
  }));

test("Allow in the modal: the file is written with the agent's content", { skip }, () =>
  workbench.steps('gemini-allow', async () => {
    fake.script(...writeTurns());
    const reply = await workbench.chat(PROMPT);
    await workbench.approvalDialog('Write').waitFor({ timeout: AGENT_TIMEOUT_MS });
    await workbench.page.getByRole('button', { name: 'Allow', exact: true }).click();
    await workbench.replyDone(reply, AGENT_TIMEOUT_MS);
    assert.equal(workbench.readFile('notes.md'), CONTENT);
    assert.match(JSON.stringify(functionResponses(fake.generations.at(-1)!.body)), /Successfully/);
    const text = await workbench.replyText(reply);
    assert.match(text, /✓ Writing to notes\.md/);
    assert.match(text, /Finished with notes\.md\./);
    await workbench.screenshot('gemini-3-allowed');
  }));
