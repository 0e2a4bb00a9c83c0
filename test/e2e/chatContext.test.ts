// End to end, in the browser: what `@executor` gives its model, in the real chat panel with the
// scripted demo model on a small window (agentToolExecutor.demoModel.windowTokens). A file attached
// from the chat input reaches the model, the reply lists the instruction files it loaded, and a
// session longer than the window says in one line that older context was shortened. Screenshots go
// to test-results/.
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Workbench } from './workbench';

/** The demo model's window here: small enough that a few reads of NOTES fill it. */
const WINDOW_TOKENS = 4000;
const NOTES = ['# Release notes (planted first line)', ...Array.from({ length: 120 }, (_, index) => `- change ${index}: the parser reads one more kind of token`)].join('\n');

let workbench: Workbench;

before(async () => {
  workbench = await Workbench.start(
    () => ({ 'AGENTS.md': 'Keep answers short (a planted project rule).\n', 'notes.md': `${NOTES}\n`, 'small.md': '# Small file (planted first line)\nonly two lines\n' }),
    { userSettings: { 'agentToolExecutor.demoModel.enabled': true, 'agentToolExecutor.demoModel.windowTokens': WINDOW_TOKENS } },
  );
});

after(async () => {
  const left = await workbench?.stop();
  assert.deepEqual(left ?? [], [], 'no server, browser or watcher process is left');
});

test('a file attached from the chat input is used by the model, and the reply lists the instruction files', () =>
  workbench.steps('chat-context-attach', async () => {
    await workbench.attachFile('small.md');
    await workbench.screenshot('chat-context-1-attached');
    const reply = await workbench.chat('@executor what is in the attached file?');
    await workbench.replyDone(reply);
    const text = await workbench.replyText(reply);
    assert.match(text, /small\.md` starts with: # Small file \(planted first line\)|small\.md starts with: # Small file \(planted first line\)/);
    assert.doesNotMatch(text, /AGENTS\.md` starts with|AGENTS\.md starts with/, 'AGENTS.md, which VS Code attaches itself, goes with the instructions, not again as an attachment');
    // The references list ("Used 1 reference"), unfolded: AGENTS.md.
    await workbench.unfoldSteps(reply);
    const used = reply.getByText(/^Used \d+ references?/).first();
    await used.waitFor();
    await used.click();
    await reply.getByText('AGENTS.md').first().waitFor();
    await workbench.screenshot('chat-context-2-used-attachment-and-references');
  }));

test('a session longer than the window finishes, and the reply says older context was shortened', () =>
  workbench.steps('chat-context-shortened', async () => {
    const reply = await workbench.chat('@executor read notes.md 6 times');
    await workbench.replyDone(reply, 120_000);
    const text = await workbench.replyText(reply);
    assert.match(text, /Context shortened to fit Scripted demo \(offline\)'s window of 4,000 tokens/);
    assert.match(text, /Read `?notes\.md`? 6 times\./);
    await workbench.screenshot('chat-context-3-shortened');
  }));
