// End to end, in the browser: a real MCP server (the reference filesystem server, installed by npm ci
// and started by VS Code from the workspace's .vscode/mcp.json) behind `@executor`. A test model calls
// its read tool on a file with a key in it; our modal asks; the key must then reach no surface: not the
// model's requests, not the reply (every block unfolded), not anything VS Code saves of the chat.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { loadPaths } from '../vscode/harness/paths';
import { filesContaining, waitForSavedChat } from './savedFiles';
import { Workbench } from './workbench';

/** Built here so no file of the repository holds it whole; a grep of the run's folders finds only leaks. */
const SECRET = ['k9Tz2QmW', '7xLp4RvB', '8nYc3HdF'].join('');
const SECRET_FILE = 'service.env';
/** The server's entry point as npm ci installs it (an exact-pinned devDependency): nothing is downloaded at test time. */
const SERVER_ENTRY = path.join('node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
/** VS Code starts the server and lists its 14 tools within seconds; generous for a loaded 2-core machine. */
const SERVER_START_TIMEOUT_MS = 60_000;
/** A model round, an approval and the server's read; generous for a 2-core machine. */
const REPLY_TIMEOUT_MS = 120_000;
/** VS Code writes a chat session to disk shortly after it changes; this bounds the wait for it. */
const SAVE_TIMEOUT_MS = 60_000;
/** A reply of one tool call folds a step list and a tool block or two; more clicks mean a block that never unfolds. */
const UNFOLD_CLICKS = 20;
/** A clicked block re-renders within a frame or two; the next one is looked for after this. */
const UNFOLD_SETTLE_MS = 200;

let workbench: Workbench;
let recordFile: string;

before(async () => {
  const paths = await loadPaths();
  recordFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ate-mcp-model-')), 'requests.jsonl');
  workbench = await Workbench.start(
    (root) => ({
      [SECRET_FILE]: `# the billing service\nAPI_KEY=${SECRET}\nREGION=eu-west-1\n`,
      '.vscode/mcp.json': JSON.stringify({ servers: { filesystem: { type: 'stdio', command: paths.NODE_BIN, args: [path.join(paths.REPO_ROOT, SERVER_ENTRY), root] } } }, null, 2),
    }),
    {
      fixtureExtensions: ['test/e2e/fixtures/recording-model'],
      userSettings: { 'agentToolExecutor.externalTools.include': ['mcp_*'], 'recordingModel.file': recordFile },
    },
  );
});

after(async () => {
  const left = await workbench?.stop();
  if (recordFile) fs.rmSync(path.dirname(recordFile), { recursive: true, force: true });
  assert.deepEqual(left ?? [], [], 'no server, browser, MCP server or watcher process is left');
});

test('an MCP tool through @executor: our modal asks, and the key reaches neither the model, the reply nor the saved chat', () =>
  workbench.steps('mcp-no-leak', async () => {
    await startMcpServer();

    const reply = await workbench.chat(`@executor read ${path.join(workbench.workspace, SECRET_FILE)}`);
    const dialog = workbench.approvalDialog('read_text_file');
    await dialog.waitFor({ timeout: REPLY_TIMEOUT_MS });
    await workbench.screenshot('mcp-1-approval');
    await workbench.page.getByRole('button', { name: 'Allow', exact: true }).click();
    await workbench.replyDone(reply, REPLY_TIMEOUT_MS);
    assert.equal(await workbench.page.locator('.monaco-dialog-box').count(), 0, 'no other confirmation (VS Code asks nothing after our modal)');

    // The model received the file, redacted.
    const received = fs.readFileSync(recordFile, 'utf8');
    assert.match(received, /the billing service/, 'the model got the file through the MCP server');
    assert.match(received, /API_KEY=\[REDACTED:/);

    // The reply, with every folded step and tool block unfolded.
    await unfoldAll(reply);
    const shown = await workbench.replyText(reply);
    assert.match(shown, /The recording model got the file/);
    assert.match(shown, /read_text_file/, 'the reply names the call');
    await workbench.screenshot('mcp-2-reply-unfolded');

    // What VS Code saved of the chat, and everything else this run's server and browser wrote.
    await waitForSavedChat(workbench, 'The recording model got the file', SAVE_TIMEOUT_MS);
    const surfaces = {
      modelRequests: received.includes(SECRET),
      replyDom: shown.includes(SECRET),
      files: filesContaining(workbench.statePaths(), SECRET).map((file) => path.relative(path.dirname(workbench.workspace), file)),
    };
    assert.deepEqual(surfaces, { modelRequests: false, replyDom: false, files: [] }, 'the key reaches no surface');
  }));

/**
 * Starts the workspace's server as a user does: opens .vscode/mcp.json and clicks its Start lens.
 * Resolves once the lens counts the server's tools.
 */
async function startMcpServer(): Promise<void> {
  await workbench.page.locator('.explorer-folders-view .monaco-list-row', { hasText: '.vscode' }).first().click();
  await workbench.openFile('mcp.json');
  const start = workbench.page.locator('.contentWidgets .codelens-decoration a', { hasText: /^\s*Start\b/ }).first();
  await start.waitFor({ timeout: SERVER_START_TIMEOUT_MS });
  await start.click();
  await workbench.page.locator('.contentWidgets .codelens-decoration', { hasText: /\d+ tools/ }).first().waitFor({ timeout: SERVER_START_TIMEOUT_MS });
  await workbench.screenshot('mcp-0-server-started');
  await workbench.closeAllEditors();
}

/** Clicks every folded part of a reply ("Completed N steps", a tool block's header) until none is left. */
async function unfoldAll(reply: Locator): Promise<void> {
  const folded = reply.locator('[aria-expanded="false"]');
  for (let click = 0; click < UNFOLD_CLICKS && (await folded.count()) > 0; click++) {
    // One at a time: an unfolded block re-renders the reply, and what was counted before moves.
    await folded.first().dispatchEvent('click');
    await workbench.page.waitForTimeout(UNFOLD_SETTLE_MS);
  }
  const left = await folded.evaluateAll((elements) => elements.map((element) => element.outerHTML.slice(0, 200)));
  assert.deepEqual(left, [], 'every block of the reply unfolds');
}
