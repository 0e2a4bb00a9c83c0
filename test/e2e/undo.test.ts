// End to end, in the browser: undo of an `@executor` turn in the real chat panel. The scripted demo
// model's tour edits src/greet.js and its command creates numbers.txt; the reply's "Undo this turn"
// puts greet.js back byte for byte and removes numbers.txt, the outcome notification's Redo brings
// both back, and a file the user changed after the turn is listed in the conflict modal and kept on
// Skip. Screenshots of each step go to test-results/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { TOUR_FILE, TOUR_OUTPUT_FILE } from '../../src/vscode/demoModel/tour';
import { waitUntil, Workbench } from './workbench';

/** The copy the workspace starts from: greet.js's bytes before any tour. */
const ORIGINAL = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'examples', 'demo-workspace', TOUR_FILE));
/** A tour plays four model rounds with two approvals; generous for a 2-core machine. */
const TOUR_TIMEOUT_MS = 120_000;
/** An undo of two paths, its checkpoints and its notification; generous for a 2-core machine. */
const UNDO_TIMEOUT_MS = 60_000;

let workbench: Workbench;

before(async () => {
  workbench = await Workbench.start(() => ({}), { copyOf: 'examples/demo-workspace', userSettings: { 'agentToolExecutor.demoModel.enabled': true } });
});

after(async () => {
  const left = await workbench?.stop();
  assert.deepEqual(left ?? [], [], 'no server, browser or watcher process is left');
});

test('Undo this turn after the tour: greet.js has its bytes from before and numbers.txt is gone; Redo brings both back', () =>
  workbench.steps('undo-turn', async () => {
    const reply = await tour();
    const edited = read(TOUR_FILE);
    const created = read(TOUR_OUTPUT_FILE);
    await workbench.unfoldSteps(reply);
    await reply.getByText('Workspace changes:').first().waitFor();
    await workbench.screenshot('undo-1-tour-reply');

    await workbench.clickReplyButton(reply, 'Undo this turn');
    // Nobody changed the files since the turn: no modal; the undo writes at once.
    await waitUntil('greet.js has its bytes from before the turn and numbers.txt is gone', UNDO_TIMEOUT_MS, () => same(read(TOUR_FILE), ORIGINAL) && read(TOUR_OUTPUT_FILE) === undefined);
    const undone = await notification('Put back 2 paths.');
    assert.equal(await undoDialogs().count(), 0, 'no conflict modal for files nobody changed');
    await workbench.screenshot('undo-2-undone');

    await undone.getByRole('button', { name: 'Redo', exact: true }).click();
    await waitUntil('greet.js and numbers.txt have their bytes from after the turn again', UNDO_TIMEOUT_MS, () => same(read(TOUR_FILE), edited) && same(read(TOUR_OUTPUT_FILE), created));
    const redone = await notification('Redid 2 paths.');
    // A redo is reversed by Undo: a second "Redo" there would undo the turn again under the wrong name.
    assert.deepEqual(await redone.locator('.notification-list-item-buttons-container .monaco-button').allInnerTexts(), ['Show Changes', 'Undo']);
    await workbench.screenshot('undo-3-redone');

    // Show Changes lists what the redo put back; a row opens its diff.
    await redone.getByRole('button', { name: 'Show Changes', exact: true }).click();
    const row = workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: 'greet.js' }).first();
    await row.waitFor();
    await workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: TOUR_OUTPUT_FILE }).first().waitFor();
    await workbench.screenshot('undo-4-show-changes');
    await row.click();
    await workbench.activeTabTitled('before the redo').waitFor();
    await workbench.page.locator('.monaco-diff-editor .modified .view-lines', { hasText: 'greeting' }).first().waitFor();
    await workbench.screenshot('undo-5-redo-diff');
    await workbench.closeAllEditors();
  }));

test('a file the user changed after the turn: Undo lists it in the modal, Skip keeps the user’s bytes and removes the rest', () =>
  workbench.steps('undo-conflict', async () => {
    const reply = await tour();
    const mine = Buffer.from(`${read(TOUR_FILE)!.toString('utf8')}\n// The user's own line, written after the turn.\n`);
    fs.writeFileSync(path.join(workbench.workspace, TOUR_FILE), mine);

    await workbench.clickReplyButton(reply, 'Undo this turn');
    const dialog = undoDialogs();
    await dialog.waitFor({ timeout: UNDO_TIMEOUT_MS });
    const detail = await dialog.locator('.dialog-message-detail').innerText();
    assert.match(detail, /This file has changed since the turn, by you or another program:/);
    assert.match(detail, /Skip keeps it as it is now; Overwrite puts it back as it was before the turn\./);
    assert.match(detail, /• src\/greet\.js/);
    assert.doesNotMatch(detail, /numbers\.txt/, 'the file nobody changed since is not asked about');
    assert.ok(read(TOUR_OUTPUT_FILE) !== undefined, 'nothing is written while the modal asks');
    await workbench.screenshot('undo-6-conflict-modal');

    // Show Diffs opens the turn's bytes against the user's, then the same question comes back.
    await dialog.getByRole('button', { name: 'Show Diffs', exact: true }).click();
    await workbench.activeTabTitled('as the turn left it').waitFor();
    await workbench.page.locator('.monaco-diff-editor .modified .view-lines', { hasText: "The user's own line" }).first().waitFor();
    await dialog.waitFor();
    await workbench.screenshot('undo-7-conflict-diff');

    await dialog.getByRole('button', { name: 'Skip Changed Files', exact: true }).click();
    await waitUntil('numbers.txt is gone', UNDO_TIMEOUT_MS, () => read(TOUR_OUTPUT_FILE) === undefined);
    await notification('Put back 1 path; skipped 1 changed since.');
    assert.deepEqual(read(TOUR_FILE), mine, "Skip kept the user's bytes");
    await workbench.screenshot('undo-8-skipped');
    await workbench.closeAllEditors();
  }));

test("the Tool Calls view's turn menu: Undo This Turn on a round of the tour undoes the whole request", () =>
  workbench.steps('undo-tool-calls-view', async () => {
    await tour();
    await workbench.runCommand('Agent Tool Executor: Show Tool Calls');
    const view = workbench.page.locator('.pane', { has: workbench.page.locator('.pane-header', { hasText: 'Tool Calls' }) });
    // The view lists the newest turn first; each model round of the request is a turn of its own.
    const round = view.locator('.monaco-list-row', { hasText: '@executor tour (round 2)' }).first();
    await round.waitFor();
    await round.click({ button: 'right' });
    // Chosen with the keyboard: a click landing while the menu still opens is dropped and leaves it open.
    const item = workbench.page.getByRole('menuitem', { name: 'Undo This Turn' });
    await item.hover();
    await workbench.page.keyboard.press('Enter');
    await item.waitFor({ state: 'hidden' });
    await waitUntil('greet.js has its bytes from before the turn and numbers.txt is gone', UNDO_TIMEOUT_MS, () => same(read(TOUR_FILE), ORIGINAL) && read(TOUR_OUTPUT_FILE) === undefined);
    await notification('Put back 2 paths.');
    // Every round of the request is marked undone.
    await view.locator('.monaco-list-row', { hasText: '@executor tour (round 2)' }).first().filter({ hasText: 'undone' }).waitFor({ timeout: UNDO_TIMEOUT_MS });
    await view.locator('.monaco-list-row', { hasText: '@executor tour (round 3)' }).first().filter({ hasText: 'undone' }).waitFor({ timeout: UNDO_TIMEOUT_MS });
    await workbench.screenshot('undo-9-tool-calls-view');
    // Undo again: no modal over the paths the undo put back, but the turn is undone already, with Redo.
    await workbench.runCommand('Notifications: Clear All Notifications');
    await round.click({ button: 'right' });
    await item.hover();
    await workbench.page.keyboard.press('Enter');
    await item.waitFor({ state: 'hidden' });
    const again = await notification('This turn is already undone.');
    await workbench.screenshot('undo-10-already-undone');
    await again.getByRole('button', { name: 'Redo' }).click();
    await waitUntil('the redo put the turn back', UNDO_TIMEOUT_MS, () => !same(read(TOUR_FILE), ORIGINAL) && read(TOUR_OUTPUT_FILE) !== undefined);
    await view.locator('.monaco-list-row', { hasText: '@executor tour (round 2)' }).first().filter({ hasNotText: 'undone' }).waitFor({ timeout: UNDO_TIMEOUT_MS });
  }));

/**
 * Puts greet.js back as the sample has it (so the tour edits it again), removes numbers.txt and
 * clears the notifications, then runs the tour in the chat and allows its Edit and its command.
 * Resolves with the finished reply once the turn's changes are on disk.
 */
async function tour(): Promise<Locator> {
  await workbench.runCommand('Notifications: Clear All Notifications');
  fs.writeFileSync(path.join(workbench.workspace, TOUR_FILE), ORIGINAL);
  fs.rmSync(path.join(workbench.workspace, TOUR_OUTPUT_FILE), { force: true });
  const reply = await workbench.chat('@executor tour');
  await workbench.approvalDialog('Edit').waitFor({ timeout: TOUR_TIMEOUT_MS });
  await workbench.page.getByRole('button', { name: 'Allow', exact: true }).click();
  await workbench.approvalDialog('Bash').waitFor({ timeout: TOUR_TIMEOUT_MS });
  await workbench.page.getByRole('button', { name: 'Allow', exact: true }).click();
  await workbench.replyDone(reply, TOUR_TIMEOUT_MS);
  await reply.locator('.monaco-button', { hasText: 'Undo this turn' }).first().waitFor();
  assert.notDeepEqual(read(TOUR_FILE), ORIGINAL, 'the tour edited greet.js');
  assert.ok((read(TOUR_OUTPUT_FILE)?.length ?? 0) > 0, 'the tour created numbers.txt');
  return reply;
}

/** Our conflict modal (the Copilot sign-in dialog shares its class). */
function undoDialogs(): Locator {
  return workbench.page.locator('.monaco-dialog-box', { has: workbench.page.locator('.dialog-message-text', { hasText: /^Undo "/ }) });
}

/**
 * The notification whose message is `message`, in the notification centre (with the smoke-test driver
 * on, VS Code shows no toasts: every notification goes to the centre), expanded so its buttons show.
 */
async function notification(message: string): Promise<Locator> {
  const center = workbench.page.locator('.notifications-center');
  if (!(await center.isVisible())) await workbench.runCommand('Notifications: Show Notifications');
  await center.waitFor();
  const item = center
    .locator('.notification-list-item')
    .filter({ has: workbench.page.locator('.notification-list-item-message', { hasText: message }) })
    .first();
  await item.waitFor({ timeout: UNDO_TIMEOUT_MS });
  const expand = item.locator('.action-label[aria-label^="Expand"]');
  if (await expand.isVisible()) await expand.click();
  await item.locator('.notification-list-item-buttons-container').waitFor();
  return item;
}

/** A workspace file's bytes, or undefined when it does not exist. */
function read(name: string): Buffer | undefined {
  const file = path.join(workbench.workspace, name);
  return fs.existsSync(file) ? fs.readFileSync(file) : undefined;
}

function same(actual: Buffer | undefined, expected: Buffer | undefined): boolean {
  return actual !== undefined && expected !== undefined && actual.equals(expected);
}
