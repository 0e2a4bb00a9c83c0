/// <reference types="mocha" />
// The OS sandbox in the real extension host, turned on with the extension's own settings and
// every approval denied: a write in the workspace runs without asking; a write outside it, a read of a key
// under the (run's own) $HOME/.ssh and a request to a local HTTP server fail, and the results say what the
// sandbox blocked; the approval for a command that leaves the sandbox says it runs unsandboxed. With the
// sandbox off, the same command asks as before.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../../src/executor/ports/approvalClient';
import { approvalDetail } from '../../../src/vscode/permissions/approvalDialog';
import { extensionApi, waitFor, workspaceRoot } from './helpers';

const CAN_SANDBOX = process.platform === 'linux' && ['/usr/bin/bwrap', '/usr/bin/socat'].every((file) => fs.existsSync(file));
const KEY = 'FAKE-KEY-for-the-extension-sandbox-test';

suite('OS sandbox', function () {
  const asked: ApprovalRequest[] = [];
  const setting = () => vscode.workspace.getConfiguration('agentToolExecutor.sandbox');
  let server: Server;
  let port: number;
  let outsideDir: string;
  const keyFile = path.join(os.homedir(), '.ssh', 'id_sandbox_test');
  const run = async (id: string, input: Record<string, unknown>) => (await (await extensionApi()).executor.executeBatch([{ id, name: 'Bash', input }]))[0]!;

  suiteSetup(async function () {
    if (!CAN_SANDBOX) this.skip();
    fs.mkdirSync(path.dirname(keyFile), { recursive: true });
    fs.writeFileSync(keyFile, `${KEY}\n`);
    outsideDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-outside-'));
    server = createServer((_request, response) => response.end('served'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    const api = await extensionApi();
    api.testing.setApprovalResponder((request) => (asked.push(request), { kind: 'deny', reason: 'denied by the test' }));
  });

  suiteTeardown(async () => {
    if (!CAN_SANDBOX) return;
    (await extensionApi()).testing.setApprovalResponder(undefined);
    await setting().update('enabled', undefined, vscode.ConfigurationTarget.Workspace);
    server.close();
    fs.rmSync(keyFile, { force: true });
    fs.rmSync(outsideDir, { recursive: true, force: true });
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(workspaceRoot(), 'sandboxed.txt')).then(undefined, () => undefined);
  });

  test('off: a command asks as before', async () => {
    asked.length = 0;
    const result = await run('s0', { command: 'echo x > sandboxed.txt' });
    assert.equal(result.errorKind, 'permission');
    assert.equal(asked.length, 1);
    assert.doesNotMatch(approvalDetail(asked[0]!), /OS sandbox|OUTSIDE the sandbox/);
  });

  test('on: a write in the workspace runs unasked; what leaves it fails and is named', async () => {
    await setting().update('enabled', true, vscode.ConfigurationTarget.Workspace);
    asked.length = 0;
    // The settings reload (and the sandbox's start-up check) land within moments.
    const inside = await waitFor('the sandbox to run a write in the workspace', async () => {
      const result = await run('s1', { command: 'echo sandboxed > sandboxed.txt && cat sandboxed.txt' });
      return result.isError ? undefined : result;
    });
    assert.match(inside.modelContent, /^sandboxed\n/);
    asked.length = 0;

    const outside = path.join(outsideDir, 'x.txt');
    const write = await run('s2', { command: `echo x > ${outside}` });
    assert.equal(write.errorKind, 'execution');
    assert.match(write.modelContent, new RegExp(`The OS sandbox blocked: writing ${outside} \\(outside the folders the sandbox lets commands write`));
    assert.equal(fs.existsSync(outside), false);

    const read = await run('s3', { command: `cat ${keyFile}` });
    assert.equal(read.errorKind, 'execution');
    assert.ok(!read.modelContent.includes(KEY));
    assert.match(read.modelContent, new RegExp(`The OS sandbox blocked: reading ${keyFile} \\(the sandbox hides ${path.dirname(keyFile)}`));

    const fetch = await run('s4', { command: `curl -sS -m 5 http://127.0.0.1:${port}/` });
    assert.equal(fetch.errorKind, 'execution');
    assert.ok(!fetch.modelContent.includes('served'));
    assert.match(fetch.modelContent, new RegExp(`The OS sandbox blocked: network access to 127\\.0\\.0\\.1:${port}`));
    assert.equal(asked.length, 0, 'nothing asked');
  });

  test('on: the approval for a command leaving the sandbox says it runs unsandboxed', async () => {
    asked.length = 0;
    const result = await run('s5', { command: `echo x > ${path.join(outsideDir, 'escaped.txt')}`, dangerouslyDisableSandbox: true });
    assert.equal(result.errorKind, 'permission');
    assert.equal(asked.length, 1);
    assert.match(approvalDetail(asked[0]!), /Runs OUTSIDE the sandbox, because the model asked to run it outside the sandbox/);
    assert.equal(fs.existsSync(path.join(outsideDir, 'escaped.txt')), false);
  });
});
