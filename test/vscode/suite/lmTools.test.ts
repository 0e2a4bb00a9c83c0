/// <reference types="mocha" />
// Our built-in tools as VS Code language model tools: any agent's call, here made
// with `vscode.lm.invokeTool` as Copilot's agent mode makes it, runs through our pipeline and asks in
// our approval (answered by the test seam instead of the modal).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExecutorEvent } from '../../../src/executor/contract/events';
import type { ApprovalRequest } from '../../../src/executor/ports/approvalClient';
import { builtinToolDeclarations } from '../../../src/vscode/lmTools/declarations';
import { extensionApi, readText, waitFor, workspaceRoot } from './helpers';

const WRITE = 'agentToolExecutor_write';

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

suite('Our tools for every agent (vscode.lm)', () => {
  teardown(async () => {
    (await extensionApi()).testing.setApprovalResponder(undefined);
  });

  test('every built-in tool is listed in vscode.lm.tools under our prefix, with its schema', async () => {
    const api = await extensionApi();
    const ours = vscode.lm.tools.filter((tool) => tool.name.startsWith('agentToolExecutor_'));
    // The names the registry's built-in tools declare (the unit tests hold package.json to the same list).
    const declared = builtinToolDeclarations().map((declaration) => declaration.name);
    assert.ok(declared.includes(WRITE), declared.join(', '));
    assert.deepEqual(ours.map((tool) => tool.name).sort(), [...declared].sort());
    const write = ours.find((tool) => tool.name === WRITE);
    assert.deepEqual(write?.inputSchema, api.registry.describe(['Write'])[0]?.inputSchema);
  });

  test('invokeTool of Write raises our approval and writes only after Allow', async () => {
    const api = await extensionApi();
    const target = vscode.Uri.joinPath(workspaceRoot(), 'lm-allowed.txt');
    const requests: ApprovalRequest[] = [];
    let existedWhenAsked: boolean | undefined;
    api.testing.setApprovalResponder(async (request) => {
      requests.push(request);
      existedWhenAsked = await exists(target);
      return { kind: 'allowOnce' };
    });
    const result = await vscode.lm.invokeTool(WRITE, { input: { path: 'lm-allowed.txt', content: 'written by another agent\n' }, toolInvocationToken: undefined });
    assert.equal(requests.length, 1);
    assert.equal(requests[0]?.toolName, 'Write');
    assert.deepEqual(requests[0]?.input, { path: 'lm-allowed.txt', content: 'written by another agent\n' });
    assert.equal(existedWhenAsked, false);
    assert.equal(await readText(target), 'written by another agent\n');
    assert.match(textOf(result), /lm-allowed\.txt/);
    assert.doesNotMatch(textOf(result), /tool_use_error/);
  });

  test('invokeTool of Write after Deny writes nothing and tells the model it was denied', async () => {
    const api = await extensionApi();
    const target = vscode.Uri.joinPath(workspaceRoot(), 'lm-denied.txt');
    let asked = 0;
    api.testing.setApprovalResponder(() => {
      asked++;
      return { kind: 'deny', reason: 'The user denied this tool call.' };
    });
    const result = await vscode.lm.invokeTool(WRITE, { input: { path: 'lm-denied.txt', content: 'must not appear\n' }, toolInvocationToken: undefined });
    assert.equal(asked, 1);
    assert.equal(await exists(target), false);
    assert.match(textOf(result), /denied/i);
  });

  test('a read runs without asking and returns the model content', async () => {
    const api = await extensionApi();
    let asked = 0;
    api.testing.setApprovalResponder(() => {
      asked++;
      return { kind: 'deny', reason: 'not expected' };
    });
    const result = await vscode.lm.invokeTool('agentToolExecutor_read', { input: { path: 'notes.txt' }, toolInvocationToken: undefined });
    assert.equal(asked, 0);
    assert.match(textOf(result), /first line/);
  });

  test('a command in the extension host writes to /dev/stdout and /dev/stderr, and the model gets both in order', async () => {
    const api = await extensionApi();
    api.testing.setApprovalResponder(() => ({ kind: 'allowOnce' }));
    const command = 'echo one; echo two > /dev/stderr; echo three > /dev/stdout; stat -L -c %F /proc/self/fd/1';
    const result = await vscode.lm.invokeTool('agentToolExecutor_bash', { input: { command }, toolInvocationToken: undefined });
    assert.match(textOf(result), /^one\ntwo\nthree\nfifo\n/);
    assert.doesNotMatch(textOf(result), /tool_use_error|No such device/);
  });

  test("a call cancelled by the caller's token ends as cancelled in our pipeline and in VS Code", async () => {
    const api = await extensionApi();
    api.testing.setApprovalResponder(() => ({ kind: 'allowOnce' }));
    const events: ExecutorEvent[] = [];
    const unsubscribe = api.executor.onEvent((event) => events.push(event));
    const cancellation = new vscode.CancellationTokenSource();
    try {
      const invocation = vscode.lm.invokeTool('agentToolExecutor_bash', { input: { command: 'sleep 30' }, toolInvocationToken: undefined }, cancellation.token);
      await waitFor('the command to start', () => (events.some((event) => event.type === 'toolCallStarted' && event.name === 'Bash') ? true : undefined));
      const started = Date.now();
      cancellation.cancel();
      await assert.rejects(Promise.resolve(invocation), (error: Error) => error instanceof vscode.CancellationError || error.name === 'Canceled');
      const finished = await waitFor('the call to finish', () => events.find((event) => (event.type === 'toolCallFailed' || event.type === 'toolCallResult') && event.result.name === 'Bash'));
      assert.ok(finished.type === 'toolCallFailed' || finished.type === 'toolCallResult');
      assert.equal(finished.result.errorKind, 'cancelled');
      assert.ok(Date.now() - started < 10_000, 'the command did not run its 30 s');
    } finally {
      unsubscribe();
      cancellation.dispose();
    }
  });
});
