// End to end, in the browser: `@executor` in the real chat panel with the scripted demo model. The
// test types what a user types and clicks what a user clicks: the approval modal, Open diff, the
// saved output, the stop button. Screenshots of the reply, the modal and the diff go to test-results/.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { UI_TIMEOUT_MS, waitUntil, Workbench } from './workbench';

/** The tour's edited file (src/vscode/demoModel/tour.ts), and the copy the workspace starts from. */
const TOUR_FILE = 'src/greet.js';
const ORIGINAL = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'examples', 'demo-workspace', TOUR_FILE), 'utf8');
/** A tour plays four model rounds with two approvals; generous for a 2-core machine. */
const TOUR_TIMEOUT_MS = 120_000;

let workbench: Workbench;

before(async () => {
  workbench = await Workbench.start(() => ({}), { copyOf: 'examples/demo-workspace', userSettings: { 'agentToolExecutor.demoModel.enabled': true } });
});

after(async () => {
  const left = await workbench?.stop();
  assert.deepEqual(left ?? [], [], 'no server, browser or watcher process is left');
});

test('Deny in the modal: the file is untouched and the reply says the call was denied', () =>
  workbench.steps('chat-deny', async () => {
    const reply = await workbench.chat('@executor tour');
    const dialog = workbench.approvalDialog('Edit');
    await dialog.waitFor({ timeout: TOUR_TIMEOUT_MS });
    assert.match(await workbench.replyText(reply), /Waiting for your approval: Edit src\/greet\.js/, 'the reply says a dialog is waiting');
    await workbench.page.getByRole('button', { name: 'Deny', exact: true }).click();
    const bash = workbench.approvalDialog('Bash');
    await bash.waitFor({ timeout: TOUR_TIMEOUT_MS });
    await workbench.page.getByRole('button', { name: 'Deny', exact: true }).click();
    await workbench.replyDone(reply, TOUR_TIMEOUT_MS);
    const text = await workbench.replyText(reply);
    assert.match(text, /Edit.*denied/);
    assert.equal(workbench.readFile(TOUR_FILE), ORIGINAL, 'the denied edit left the file as it was');
    await workbench.screenshot('chat-1-denied-reply');
  }));

test('Allow in the modal: the file changes, Open diff shows it, and the saved output opens', () =>
  workbench.steps('chat-allow', async () => {
    const reply = await workbench.chat('@executor tour');
    const dialog = workbench.approvalDialog('Edit');
    await dialog.waitFor({ timeout: TOUR_TIMEOUT_MS });
    await workbench.screenshot('chat-2-approval-modal');
    // Review Diff… opens the proposed change, then the same question comes back.
    await dialog.getByRole('button', { name: 'Review Diff…', exact: true }).click();
    await workbench.activeTabTitled('proposed').waitFor();
    await workbench.page.locator('.monaco-diff-editor .modified .view-lines', { hasText: 'greeting' }).first().waitFor();
    await dialog.waitFor();
    await workbench.screenshot('chat-3-review-diff');
    await workbench.page.getByRole('button', { name: 'Allow', exact: true }).click();
    await workbench.approvalDialog('Bash').waitFor({ timeout: TOUR_TIMEOUT_MS });
    await workbench.page.getByRole('button', { name: 'Allow', exact: true }).click();
    await workbench.replyDone(reply, TOUR_TIMEOUT_MS);
    assert.notEqual(workbench.readFile(TOUR_FILE), ORIGINAL, 'the allowed edit is on disk');
    const text = await workbench.replyText(reply);
    assert.match(text, /✓ Edit/);
    await workbench.screenshot('chat-4-reply');

    await workbench.unfoldSteps(reply);
    await workbench.closeAllEditors();
    await workbench.clickReplyButton(reply, 'Open diff');
    await workbench.activeTabTitled('after edit').waitFor();
    await workbench.page.locator('.monaco-diff-editor .modified .view-lines', { hasText: 'greeting' }).first().waitFor();
    await workbench.screenshot('chat-5-diff');

    await workbench.clickReplyButton(reply, 'Open saved output');
    await workbench.page.locator('.editor-group-container.active .monaco-editor[data-uri*="tool-result"]').first().waitFor();
    await workbench.screenshot('chat-6-saved-output');
    await workbench.closeAllEditors();
  }));

test('the Tool Calls view shows the finished turn, and its timeline picture opens', () =>
  workbench.steps('tool-calls-view', async () => {
    await workbench.runCommand('Agent Tool Executor: Show Tool Calls');
    const view = workbench.page.locator('.pane', { has: workbench.page.locator('.pane-header', { hasText: 'Tool Calls' }) });
    // Each model round is a turn: the tour's first round read and searched in parallel.
    const turn = view.locator('.monaco-list-row', { hasText: '@executor tour' }).filter({ hasText: '2 calls' }).first();
    await turn.waitFor();
    await view.locator('.monaco-list-row', { hasText: 'Edit' }).first().waitFor();
    await workbench.screenshot('chat-10-tool-calls-view');
    await turn.hover();
    await turn.locator('.action-label[aria-label="Show Timeline"]').click();
    await workbench.activeTabTitled('Timeline').waitFor();
    const picture = workbench.page.frameLocator('iframe.webview').frameLocator('iframe').locator('svg[role="img"]');
    await picture.waitFor();
    assert.equal(await picture.locator('rect.running').count(), 2, 'a running bar for the Read and for the Grep');
    await workbench.screenshot('chat-11-timeline');
    await workbench.closeAllEditors();
  }));

test('a follow-up prompt sees the earlier tool results', () =>
  workbench.steps('chat-follow-up', async () => {
    const reply = await workbench.chat('@executor recap');
    await workbench.replyDone(reply);
    assert.match(await workbench.replyText(reply), /Earlier in this conversation I got \d+ tool results/);
  }));

test('/tools lists the tools and what the mode does; /run runs pasted calls; a model error is one sentence', () =>
  workbench.steps('chat-commands', async () => {
    const tools = await workbench.chat('@executor /tools');
    await workbench.replyDone(tools);
    const listing = await workbench.replyText(tools);
    assert.match(listing, /Read/);
    assert.match(listing, /Bash\s*changes: external, serial\s*asks/);
    assert.match(listing, /Glob\s*read-only, parallel\s*runs/);

    const run = await workbench.chat('@executor /run [{"name": "Read", "input": {"path": "src/greet.js"}}]');
    await workbench.replyDone(run);
    assert.match(await workbench.replyText(run), /✓ Read[\s\S]*Ran 1 call/);

    const plan = await workbench.chat('@executor /mode plan');
    await workbench.replyDone(plan);
    assert.match(await workbench.replyText(plan), /Permission mode for this window: plan/);
    const inPlan = await workbench.chat('@executor /tools');
    await workbench.replyDone(inPlan);
    assert.match(await workbench.replyText(inPlan), /Write\s*changes: workspace, serial\s*denied/, 'plan mode denies Write');
    const reset = await workbench.chat('@executor /mode reset');
    await workbench.replyDone(reset);
    assert.match(await workbench.replyText(reset), /follows the settings again: default/);

    const failed = await workbench.chat('@executor fail');
    await workbench.replyDone(failed);
    const message = await workbench.replyText(failed);
    assert.match(message, /blocked this request/);
    assert.doesNotMatch(message, /\bat \S+:\d+:\d+/, 'no stack trace');
    await workbench.screenshot('chat-7-commands');
  }));

test('the stop button during a long command ends it and its process tree', () =>
  workbench.steps('chat-stop', async () => {
    const reply = await workbench.chat('@executor slow');
    await workbench.approvalDialog('Bash').waitFor({ timeout: TOUR_TIMEOUT_MS });
    await workbench.page.getByRole('button', { name: 'Allow', exact: true }).click();
    await waitUntil('the slow command started', UI_TIMEOUT_MS, () => sleeping().length > 0);
    await reply.getByText(/Running Bash sleep 30/).first().waitFor();
    await workbench.screenshot('chat-8-running');
    await workbench.stopChat();
    await workbench.replyDone(reply);
    await waitUntil('the slow command and its tree ended', UI_TIMEOUT_MS, () => sleeping().length === 0);
    // VS Code takes no more reply text once stopped (and keeps no metadata of a stopped reply):
    // the reply ends where it was, and the command's process tree is gone.
    await workbench.screenshot('chat-9-stopped');
  }));

/** The demo's slow command (`sleep 30; echo done`) while it runs. */
function sleeping(): string[] {
  try {
    return execFileSync('pgrep', ['-f', '^sleep 30$'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}
