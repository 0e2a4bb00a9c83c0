// End to end, in the browser: the user's own models (agentToolExecutor.models) against a fake endpoint
// on 127.0.0.1 for each wire format. The key is typed into "Set API Key…" as a user does, the model is
// picked in the chat panel's model picker, `@executor` runs a Write through our approval modal, the stop
// button ends the HTTP request (the endpoint sees the connection close), and the key is then nowhere:
// not in settings, logs, the saved chat, our session files, or the error a refused key gives.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { FAKE_DONE_TEXT, FAKE_MODEL, startFakeEndpoint, type FakeEndpoint, type FakeFormat } from '../models/fakeEndpoint';
import { filesContaining, waitForSavedChat } from './savedFiles';
import { Workbench } from './workbench';

/** A key of the usual shape, unique enough that finding it anywhere means it leaked. */
const KEYS: Record<FakeFormat, string> = { openai: 'sk-e2e-openai-Q7w3Rt9Zp2Lm5Xc8Vb1N', anthropic: 'sk-ant-e2e-K4s8Df2Gh6Jk0Lq3We7R' };
const NAMES: Record<FakeFormat, string> = { openai: 'Fake OpenAI endpoint', anthropic: 'Fake Anthropic endpoint' };
/** A round trip is two model requests and one approval; generous for a 2-core machine. */
const REPLY_TIMEOUT_MS = 90_000;
/** Storing a secret takes milliseconds; this bounds a broken one. */
const KEY_STORE_TIMEOUT_MS = 10_000;
/** VS Code writes a chat to disk a few seconds after it changes. */
const SAVE_TIMEOUT_MS = 30_000;

let workbench: Workbench;
const endpoints = {} as Record<FakeFormat, FakeEndpoint>;

before(async () => {
  endpoints.openai = await startFakeEndpoint('openai');
  endpoints.anthropic = await startFakeEndpoint('anthropic');
  const models = (['openai', 'anthropic'] as const).map((format) => ({ name: NAMES[format], format, baseUrl: endpoints[format].baseUrl, model: FAKE_MODEL, maxInputTokens: 64000, maxOutputTokens: 2000 }));
  workbench = await Workbench.start(() => ({}), { userSettings: { 'agentToolExecutor.models': models } });
});

after(async () => {
  const left = await workbench?.stop();
  await endpoints.openai?.stop();
  await endpoints.anthropic?.stop();
  assert.deepEqual(left ?? [], [], 'no server, browser or watcher process is left');
});

test('activation offers the models and sends the endpoints nothing', () =>
  workbench.steps('models-activation', async () => {
    // The picker shows one of ours once VS Code has asked the provider for its models.
    await workbench.page.locator('.interactive-input-part .action-label.model-picker-split', { hasText: /Fake/ }).first().waitFor();
    assert.deepEqual([...endpoints.openai.requests, ...endpoints.anthropic.requests], []);
  }));

for (const format of ['openai', 'anthropic'] as const) {
  test(`${format}: the key typed into Set API Key…, the model picked, a Write through the modal, and Stop closes the connection`, () =>
    workbench.steps(`models-${format}`, async () => {
      const endpoint = endpoints[format];
      await setApiKey(NAMES[format], KEYS[format]);
      await pickModel(NAMES[format]);

      const file = `e2e-${format}.txt`;
      const reply = await workbench.chat(`@executor please write ${file}`);
      await workbench.approvalDialog('Write').waitFor({ timeout: REPLY_TIMEOUT_MS });
      await workbench.screenshot(`models-${format}-1-approval`);
      await workbench.page.getByRole('button', { name: 'Allow', exact: true }).click();
      await workbench.replyDone(reply, REPLY_TIMEOUT_MS);
      assert.match(await workbench.replyText(reply), new RegExp(FAKE_DONE_TEXT));
      assert.equal(workbench.readFile(file), 'written by the endpoint model\n');
      const chats = endpoint.requests.filter((request) => request.method === 'POST');
      assert.equal(chats.length, 2, 'the call, then its result back');
      assert.equal(format === 'openai' ? chats[0]!.headers.authorization : chats[0]!.headers['x-api-key'], format === 'openai' ? `Bearer ${KEYS[format]}` : KEYS[format], 'the stored key went to its endpoint');
      assert.match(JSON.stringify(chats[1]!.body.messages), format === 'openai' ? /"role":"tool"/ : /"type":"tool_result"/);
      await workbench.screenshot(`models-${format}-2-reply`);

      const closedBefore = endpoint.closedEarly.length;
      const asked = endpoint.requests.length;
      const waiting = await workbench.chat('@executor please wait');
      // The endpoint has streamed its first words and holds the answer open (the reply shows "Reasoning").
      for (const started = Date.now(); endpoint.requests.length === asked; await new Promise((resolve) => setTimeout(resolve, 100))) {
        if (Date.now() - started > REPLY_TIMEOUT_MS) throw new Error('the request did not reach the endpoint');
      }
      await workbench.stopChat();
      await endpoint.closed();
      assert.equal(endpoint.closedEarly.length, closedBefore + 1, 'the endpoint saw the connection close');
      await workbench.replyDone(waiting);
      await workbench.screenshot(`models-${format}-3-stopped`);
    }));
}

test('a refused key is one sentence, and no key is in settings, logs, the saved chat or our files', () =>
  workbench.steps('models-key-nowhere', async () => {
    endpoints.anthropic.answers.push({ status: 401, body: JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${KEYS.anthropic}` } }) });
    const reply = await workbench.chat('@executor hello');
    await workbench.replyDone(reply, REPLY_TIMEOUT_MS);
    const shown = await workbench.replyText(reply);
    assert.match(shown, /refused the API key \(HTTP 401\); set the right one with "Agent Tool Executor: Set API Key…"/);
    await workbench.screenshot('models-4-refused-key');

    await waitForSavedChat(workbench, FAKE_DONE_TEXT, SAVE_TIMEOUT_MS);
    for (const format of ['openai', 'anthropic'] as const) {
      const key = KEYS[format];
      const surfaces = {
        reply: shown.includes(key),
        settings: fs.readFileSync(path.join(workbench.userDataDir, 'User', 'settings.json'), 'utf8').includes(key),
        files: filesContaining([...workbench.statePaths(), workbench.workspace], key).map((file) => path.relative(path.dirname(workbench.workspace), file)),
      };
      assert.deepEqual(surfaces, { reply: false, settings: false, files: [] }, `the ${format} key reaches no surface`);
    }
  }));

/** Runs "Set API Key…" from the palette, picks the model, types the key into the password box. */
async function setApiKey(name: string, key: string): Promise<void> {
  const stored = () => workbench.loggedEvents().filter((event) => event === 'models.key_stored').length;
  const before = stored();
  await workbench.runCommand('Agent Tool Executor: Set API Key…');
  await workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().click();
  const box = workbench.page.locator('.quick-input-widget input[type="password"]');
  await box.waitFor();
  await box.fill(key);
  await workbench.page.keyboard.press('Enter');
  // Its notification may go straight to the notification centre: the extension's log says it is stored.
  await box.waitFor({ state: 'hidden' });
  for (const started = Date.now(); stored() === before; await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (Date.now() - started > KEY_STORE_TIMEOUT_MS) throw new Error(`the key for ${name} was not stored`);
  }
}

/** Picks a model in the chat input's model picker, by its search box, as a user does. */
async function pickModel(name: string): Promise<void> {
  const picker = workbench.page.locator('.interactive-input-part .action-label.model-picker-split').first();
  await picker.click();
  await workbench.page.keyboard.insertText(name);
  await workbench.page.locator(`.monaco-list-row[role="option"][aria-label^=${JSON.stringify(`${name},`)}]`).first().click();
  await workbench.page.locator(`.interactive-input-part .action-label.model-picker-split[aria-label=${JSON.stringify(`Models, ${name}`)}]`).first().waitFor();
}
