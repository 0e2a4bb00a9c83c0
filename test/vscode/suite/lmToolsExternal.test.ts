/// <reference types="mocha" />
// Other extensions' tools through our pipeline. The fixture extension
// test/vscode/fixtures/fake-tools registers two tools with `vscode.lm.registerTool`; the setting
// `agentToolExecutor.externalTools.include` selects them; `@executor` offers the registry's tools to its
// model and offers each call to a turn, as done here.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { ToolCall } from '../../../src/executor/contract/contract';
import type { ApprovalRequest } from '../../../src/executor/ports/approvalClient';
import type { ToolCallResult } from '../../../src/executor/contract/result';
import { extensionApi, waitFor } from './helpers';

const FIXTURE_ID = 'agent-tool-executor-tests.fake-tools';
const SETTING = 'externalTools.include';
const PLANTED_SECRET = 'ghp_Zx9KqT4mWb7Lc2Vn8Rd5Hs3Jf6Pg1Ya0Ue4K';

async function select(patterns: string[] | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('agentToolExecutor').update(SETTING, patterns, vscode.ConfigurationTarget.Global);
}

/** One round as `@executor`'s model loop runs it: every registry tool offered, the calls offered to a turn. */
async function runAsModelLoop(calls: ToolCall[]): Promise<ToolCallResult[]> {
  const api = await extensionApi();
  const offered = new Set(api.registry.describe().map((tool) => tool.name));
  const turn = api.executor.beginTurn({ offeredTools: offered, context: { toolInvocationToken: undefined } });
  for (const call of calls) turn.offer(call);
  turn.end();
  return turn.results();
}

suite('Other extensions\u2019 tools through our pipeline', () => {
  let requests: ApprovalRequest[] = [];

  suiteSetup(async () => {
    await vscode.extensions.getExtension(FIXTURE_ID)?.activate();
    await waitFor('the fake tools in vscode.lm.tools', () => (vscode.lm.tools.some((tool) => tool.name === 'fakeTools_leakyLog') ? true : undefined));
  });

  setup(async () => {
    requests = [];
    (await extensionApi()).testing.setApprovalResponder((request) => {
      requests.push(request);
      return { kind: 'allowOnce' };
    });
  });

  teardown(async () => {
    (await extensionApi()).testing.setApprovalResponder(undefined);
  });

  suiteTeardown(async () => {
    await select(undefined);
  });

  test('none is wrapped by default; the setting selects by glob, and deselecting removes them', async () => {
    const api = await extensionApi();
    assert.equal(api.registry.has('fakeTools_leakyLog'), false);
    await select(['fakeTools_*']);
    await waitFor('the fake tools in our registry', () => (api.registry.has('fakeTools_leakyLog') && api.registry.has('fakeTools_lookup') ? true : undefined));
    const offered = api.registry.describe().find((tool) => tool.name === 'fakeTools_lookup');
    assert.deepEqual(offered?.inputSchema, vscode.lm.tools.find((tool) => tool.name === 'fakeTools_lookup')?.inputSchema);
    await select([]);
    await waitFor('the fake tools to go', () => (!api.registry.has('fakeTools_leakyLog') ? true : undefined));
  });

  test('our own tools are never wrapped, whatever the patterns', async () => {
    const api = await extensionApi();
    await select(['agentToolExecutor_*', 'fakeTools_lookup']);
    await waitFor('the lookup tool', () => (api.registry.has('fakeTools_lookup') ? true : undefined));
    assert.deepEqual(api.registry.names().filter((name) => name.startsWith('agentToolExecutor_')), []);
  });

  test('a selected tool asks (no safety information), runs through invokeTool, and its secret comes back redacted', async () => {
    const api = await extensionApi();
    await select(['fakeTools_*']);
    await waitFor('the leaky tool', () => (api.registry.has('fakeTools_leakyLog') ? true : undefined));
    const [result] = await runAsModelLoop([{ id: 'x1', name: 'fakeTools_leakyLog', input: {} }]);
    assert.equal(requests.length, 1);
    assert.equal(requests[0]?.toolName, 'fakeTools_leakyLog');
    assert.equal(result?.isError, false, result?.modelContent);
    assert.match(result?.modelContent ?? '', /build finished/);
    assert.match(result?.modelContent ?? '', /\[REDACTED:/);
    assert.doesNotMatch(result?.modelContent ?? '', new RegExp(PLANTED_SECRET));
    const invocations = await vscode.commands.executeCommand<Array<{ name: string }>>('fakeTools.invocations');
    assert.ok(invocations.some((invocation) => invocation.name === 'fakeTools_leakyLog'));
  });

  test('a large output is saved as an artifact, redacted there too', async () => {
    const api = await extensionApi();
    await select(['fakeTools_*']);
    await waitFor('the leaky tool', () => (api.registry.has('fakeTools_leakyLog') ? true : undefined));
    const [result] = await runAsModelLoop([{ id: 'x2', name: 'fakeTools_leakyLog', input: { size: 2_000_000 } }]);
    assert.equal(result?.isError, false, result?.modelContent);
    assert.ok(result?.artifact, `the output was saved as an artifact: ${JSON.stringify({ strategy: result?.strategy, originalBytes: result?.originalBytes, modelBytes: result?.modelBytes, head: result?.modelContent.slice(0, 300) })}`);
    assert.ok((result?.modelContent.length ?? Infinity) < 100_000, 'the model got a preview, not the whole output');
    const saved = fs.readFileSync(result!.artifact!.path, 'utf8');
    assert.ok(saved.length > 1_000_000);
    assert.doesNotMatch(saved, new RegExp(PLANTED_SECRET));
    assert.match(saved, /\[REDACTED:/);
  });

  test('a tool its extension tags read-only runs without asking', async () => {
    const api = await extensionApi();
    await select(['fakeTools_lookup']);
    await waitFor('the lookup tool', () => (api.registry.has('fakeTools_lookup') ? true : undefined));
    const [result] = await runAsModelLoop([{ id: 'x3', name: 'fakeTools_lookup', input: { word: 'tool' } }]);
    assert.equal(requests.length, 0);
    assert.equal(result?.modelContent, 'tool: a word');
  });

  test('input that does not match the tool\u2019s schema is refused before it runs', async () => {
    const api = await extensionApi();
    await select(['fakeTools_lookup']);
    await waitFor('the lookup tool', () => (api.registry.has('fakeTools_lookup') ? true : undefined));
    const [result] = await runAsModelLoop([{ id: 'x4', name: 'fakeTools_lookup', input: {} }]);
    assert.equal(result?.errorKind, 'invocation');
    assert.match(result?.modelContent ?? '', /word/);
  });
});

suite('Other extensions\u2019 tools offered to @executor in the chat', () => {
  suiteSetup(async () => {
    await vscode.extensions.getExtension(FIXTURE_ID)?.activate();
  });

  teardown(async () => {
    (await extensionApi()).testing.setApprovalResponder(undefined);
    await select(undefined);
  });

  test('the model is offered the selected tool, calls it, and gets its output redacted', async function () {
    this.timeout(60_000);
    const api = await extensionApi();
    const asked: string[] = [];
    api.testing.setApprovalResponder((request) => {
      asked.push(request.toolName);
      return { kind: 'allowOnce' };
    });
    await select(['fakeTools_*']);
    await waitFor('the leaky tool', () => (api.registry.has('fakeTools_leakyLog') ? true : undefined));
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@executor show me the build log' });
    const saw = await waitFor('the model to get the tool result', async () => {
      const records = await vscode.commands.executeCommand<Array<{ offered: string[]; results: string[] }>>('fakeTools.modelSaw');
      return records.find((record) => record.results.length > 0) ?? (records.length > 0 ? records[records.length - 1] : undefined);
    });
    assert.ok(saw.offered.includes('fakeTools_leakyLog'), `offered: ${saw.offered.join(', ')}`);
    assert.ok(!saw.offered.some((name) => name.startsWith('agentToolExecutor_')));
    assert.deepEqual(asked, ['fakeTools_leakyLog']);
    const [text] = saw.results;
    assert.match(text ?? '', /build finished/);
    assert.match(text ?? '', /\[REDACTED:/);
    assert.doesNotMatch(text ?? '', new RegExp(PLANTED_SECRET));
    // No chat request's toolInvocationToken reached the tool: with one, VS Code draws the call's raw output in the chat.
    const invocations = await vscode.commands.executeCommand<Array<{ name: string; hasToken?: boolean }>>('fakeTools.invocations');
    assert.equal(invocations.filter((invocation) => invocation.name === 'fakeTools_leakyLog').at(-1)?.hasToken, false);
  });
});
