/// <reference types="mocha" />
// The user's own models (agentToolExecutor.models) in the real extension host, against a fake endpoint
// on 127.0.0.1 in each wire format: the model is offered without a request to the endpoint, `@executor`
// runs a tool round trip with it (the Write approved), cancelling ends the HTTP request (the endpoint
// sees the connection close), a refused key is one sentence, and Add Model from Endpoint lists and adds.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ADD_MODEL_COMMAND, ENDPOINT_VENDOR, MODELS_SETTING } from '../../../src/vscode/models/modelSettings';
import { FAKE_DONE_TEXT, FAKE_MODEL, startFakeEndpoint, type FakeEndpoint } from '../../models/fakeEndpoint';
import { EXTENSION_ID, extensionApi, recordingStream, waitFor, workspaceRoot } from './helpers';

const config = () => vscode.workspace.getConfiguration();

async function endpointModel(name: string): Promise<vscode.LanguageModelChat> {
  return waitFor(`the model ${name}`, async () => (await vscode.lm.selectChatModels({ vendor: ENDPOINT_VENDOR, id: name }))[0]);
}

async function prompt(text: string, model: vscode.LanguageModelChat, token = new vscode.CancellationTokenSource().token) {
  const api = await extensionApi();
  const request = { prompt: text, references: [], toolReferences: [], toolInvocationToken: undefined, model } as unknown as vscode.ChatRequest;
  const { stream, text: reply } = recordingStream();
  const result = await api.testing.modelPrompt!(request, { history: [] }, stream, token);
  return { result, reply: reply() };
}

/** Whether the code that talks to endpoints (scripts/build.mjs: `dist/endpoint-models.js`) is loaded in this extension host. */
function endpointCodeLoaded(): boolean {
  const file = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'endpoint-models.js');
  return require.cache[fs.realpathSync(file)] !== undefined;
}

for (const format of ['openai', 'anthropic'] as const) {
  suite(`your own model: ${format} format`, () => {
    let endpoint: FakeEndpoint;
    /** Loaded before this suite's first request: by an earlier suite's request or command. */
    let loadedBefore: boolean;
    const name = `Fake ${format}`;
    const file = `byom-${format}.txt`;

    suiteSetup(async () => {
      loadedBefore = endpointCodeLoaded();
      endpoint = await startFakeEndpoint(format);
      await config().update(MODELS_SETTING, [{ name, format, baseUrl: endpoint.baseUrl, model: FAKE_MODEL, maxInputTokens: 64000, maxOutputTokens: 2000 }], vscode.ConfigurationTarget.Global);
    });

    suiteTeardown(async () => {
      (await extensionApi()).testing.setApprovalResponder(undefined);
      await config().update(MODELS_SETTING, undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(vscode.Uri.joinPath(workspaceRoot(), file).fsPath, { force: true });
      await endpoint.stop();
    });

    test('the model is offered from the setting alone, and the endpoint hears nothing', async () => {
      const model = await endpointModel(name);
      assert.equal(model.maxInputTokens, 64000);
      assert.equal(model.family, FAKE_MODEL);
      assert.ok((await model.countTokens('four score and seven years ago')) > 0);
      assert.deepEqual(endpoint.requests, [], 'listing and counting send nothing');
      if (!loadedBefore) assert.equal(endpointCodeLoaded(), false, 'listing and counting load no wire format');
    });

    test('@executor runs a tool round trip with it: the call, the approval, the result back, the answer', async () => {
      const api = await extensionApi();
      const asked: string[] = [];
      api.testing.setApprovalResponder((request) => {
        asked.push(request.toolName);
        return { kind: 'allowOnce' };
      });
      const { result, reply } = await prompt(`please write ${file}`, await endpointModel(name));
      assert.equal(result.errorDetails, undefined, reply);
      assert.deepEqual(asked, ['Write']);
      assert.equal(fs.readFileSync(vscode.Uri.joinPath(workspaceRoot(), file).fsPath, 'utf8'), 'written by the endpoint model\n');
      assert.match(reply, new RegExp(FAKE_DONE_TEXT));
      assert.ok(endpointCodeLoaded(), 'the request loaded the code that talks to endpoints');
      const chats = endpoint.requests.filter((request) => request.method === 'POST');
      assert.equal(chats.length, 2);
      const back = JSON.stringify(chats[1]!.body.messages);
      assert.match(back, format === 'openai' ? /"role":"tool","tool_call_id":"call_fake_write_1"/ : /"type":"tool_result","tool_use_id":"toolu_fake_write_1"/);
    });

    test('cancelling the request ends the HTTP request: the endpoint sees the connection close', async () => {
      const source = new vscode.CancellationTokenSource();
      const before = endpoint.requests.length;
      const running = prompt('please wait', await endpointModel(name), source.token);
      await waitFor('the request to reach the endpoint', () => (endpoint.requests.length > before ? true : undefined));
      source.cancel();
      const closed = await endpoint.closed();
      assert.match(JSON.stringify(closed.body), /please wait/);
      await running;
    });

    test('a refused key is one sentence naming the command that sets it', async () => {
      endpoint.answers.push({ status: 401, body: JSON.stringify({ error: { message: 'invalid x-api-key' } }) });
      const { result } = await prompt('hello', await endpointModel(name));
      assert.match(result.errorDetails?.message ?? '', new RegExp(`^${name} could not answer: ${name} \\(http://127\\.0\\.0\\.1:\\d+/v1\\) refused the API key \\(HTTP 401\\); set the right one with "Agent Tool Executor: Set API Key…"\\.$`));
    });

    test('Add Model from Endpoint lists the endpoint models and adds the one named', async () => {
      const added = await vscode.commands.executeCommand(ADD_MODEL_COMMAND, { format, baseUrl: endpoint.baseUrl, model: FAKE_MODEL, name: `Added ${format}` });
      assert.ok(added, 'the command added an entry');
      assert.ok(endpoint.requests.some((request) => request.method === 'GET' && request.path === '/v1/models'));
      const entries = config().inspect<{ name: string }[]>(MODELS_SETTING)?.globalValue ?? [];
      assert.deepEqual(entries.map((entry) => entry.name), [name, `Added ${format}`]);
      await endpointModel(`Added ${format}`);
    });
  });
}
