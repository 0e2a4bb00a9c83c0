// Fault catalogue: what a hostile ACP agent or bridge client tried on the wire (grants, terminals,
// sessions, framing, scale), each under the defect class it belongs to, through the core.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { ResponseError } from 'vscode-jsonrpc';
import { Grants } from '../../../src/acp/grants';
import { requestPermission } from '../../../src/acp/permissions';
import { Terminals } from '../../../src/acp/terminals';
import { BRIDGE_MAX_FRAME_BYTES } from '../../../src/bridge/framing';
import { MAX_TURN_CALLS } from '../../../src/bridge/params';
import { BridgeErrorCodes } from '../../../src/bridge/protocol';
import { BridgeService } from '../../../src/bridge/service';
import { serveConnection } from '../../../src/cli/serve';
import { ToolExecutor } from '../../../src/executor/executor';
import { RulesPolicy } from '../../../src/executor/policy/rulesPolicy';
import type { ApprovalRequest } from '../../../src/executor/ports/approvalClient';
import { ProcessSupervisor, registerBuiltinTools } from '../../../src/tools/index';
import { FrameParser, frame, request } from '../../unit/bridge/frames';
import { entries, startAcp } from '../../unit/acp/harness';
import { core } from '../define';

/** A fresh folder for `work`, removed after it with what `work` registered to close. */
async function inFolder(work: (dir: string, cleanups: Array<() => Promise<void> | void>) => Promise<void>): Promise<void> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'fault-wire-')));
  const cleanups: Array<() => Promise<void> | void> = [() => rmSync(dir, { recursive: true, force: true })];
  try {
    await work(dir, cleanups);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

/** A real executor with the built-in tools in bypass mode, and ACP terminals on it. */
async function withTerminals(work: (terminals: Terminals) => Promise<void>): Promise<void> {
  await inFolder(async (dir, cleanups) => {
    const supervisor = new ProcessSupervisor();
    const executor = new ToolExecutor({ workspaceFolders: [dir], permissionPolicy: new RulesPolicy({ mode: 'bypass' }) });
    registerBuiltinTools(executor.registry, { backgroundTasks: executor, supervisor });
    cleanups.push(async () => {
      await executor.dispose();
      await supervisor.dispose();
    });
    await work(new Terminals({ executor }));
  });
}

async function terminalRun(terminals: Terminals, command: string): Promise<{ output: string; truncated: boolean; exitCode: number | null }> {
  const signal = new AbortController().signal;
  const created = await terminals.create({ sessionId: 's', command }, signal);
  assert.ok(created.ok, JSON.stringify(created));
  const terminalId = created.value.terminalId;
  const exit = await terminals.waitForExit({ sessionId: 's', terminalId }, signal);
  const output = await terminals.output({ sessionId: 's', terminalId }, signal);
  assert.ok(exit.ok && output.ok);
  return { output: output.value.output, truncated: output.value.truncated, exitCode: exit.value.exitCode ?? null };
}

const seq = (n: number) => `${Array.from({ length: n }, (_, index) => index + 1).join('\n')}\n`;

/** `serveConnection` on an in-memory stdin: what it answered, logged and how it ended. */
async function serveBytes(bytes: Buffer, end = false): Promise<{ parser: FrameParser; errors: string[]; framing?: string }> {
  const stdin = new PassThrough();
  const parser = new FrameParser();
  const errors: string[] = [];
  const executor = new ToolExecutor({ workspaceFolders: ['/'] });
  try {
    const served = serveConnection(executor, { stdin, stdout: { write: (text) => parser.push(text) }, logger: { debug() {}, info() {}, warn() {}, error: (message) => void errors.push(message) }, signal: new AbortController().signal });
    stdin.write(bytes);
    // Left open unless `end`: after a framing error the server must end by itself.
    if (end) stdin.end();
    const { framing } = await served;
    stdin.end();
    return { parser, errors, ...(framing !== undefined ? { framing } : {}) };
  } finally {
    await executor.dispose();
  }
}

// ── 1. What the user allowed covers nothing else ─────────────────────────────────────────────────────
core('acp-grant-own-kind', 1, 'ACP: a delete the user allowed, then fs/write_text_file of the same file; a write of A allowed, then one of B', 'neither grant is used by the write: it asks', async () => {
  const executor = new ToolExecutor({ workspaceFolders: ['/'] });
  registerBuiltinTools(executor.registry, { supervisor: new ProcessSupervisor() });
  try {
    const deleted = await requestPermission(
      { executor, policy: new RulesPolicy(), approvals: { requestApproval: async () => ({ kind: 'allowOnce' }) }, workspaceFolders: () => ['/w'] },
      { sessionId: 's', toolCall: { toolCallId: 't', kind: 'delete', title: 'rm', locations: [{ path: '/w/notes.txt' }] }, options: [{ optionId: 'yes', name: 'Yes', kind: 'allow_once' }] },
      new AbortController().signal,
    );
    assert.equal(deleted.granted, undefined);
  } finally {
    await executor.dispose();
  }
  const grants = new Grants();
  grants.add({ tool: 'Write', target: '/w/notes.txt', content: 'A' });
  assert.equal(grants.consume('Write', { path: '/w/notes.txt', content: 'B' }), false);
  assert.equal(grants.consume('Write', { path: '/w/notes.txt', content: 'A' }), true);
});
core('acp-answer-never-wider', 1, 'ACP: the agent offers only allow_always and reject_once; the answer is allow once', 'the dialog offers no "once"; a once that still comes is answered with reject', async () => {
  const asked: ApprovalRequest[] = [];
  const executor = new ToolExecutor({ workspaceFolders: ['/'] });
  const answer = await requestPermission(
    { executor, policy: new RulesPolicy(), approvals: { requestApproval: async (request) => (asked.push(request), { kind: 'allowOnce' }) }, workspaceFolders: () => ['/'] },
    { sessionId: 's', toolCall: { toolCallId: 't', kind: 'fetch', title: 'Fetch' }, options: [{ optionId: 'always', name: 'Always', kind: 'allow_always' }, { optionId: 'no', name: 'No', kind: 'reject_once' }] },
    new AbortController().signal,
  );
  assert.equal(asked[0]!.onceAllowed, false);
  assert.deepEqual(answer.response, { outcome: { outcome: 'selected', optionId: 'no' } });
  assert.equal(answer.granted, undefined);
});

// ── 5. Processes that escape ─────────────────────────────────────────────────────────────────────────
core('acp-unknown-session', 5, 'ACP: terminal/create under a sessionId never opened', 'refused (resource not found) before anything runs', () =>
  inFolder(async (dir, cleanups) => {
    const harness = await startAcp(dir, { mode: 'bypass' }, cleanups);
    await harness.prompt([{ run: 'echo should-not-run', sessionId: 'made-up' }]);
    assert.equal(entries(harness, 'error')[0]!.error.code, -32002);
    assert.equal(entries(harness, 'terminal/create').length, 0);
  }),
);
core('acp-oversized-message', 5, 'ACP: one 50 MB line from the agent (over the SDK\'s 32 MiB)', 'that prompt fails saying so, the agent process is stopped (its host starts it again)', () =>
  inFolder(async (dir, cleanups) => {
    const harness = await startAcp(dir, { mode: 'bypass' }, cleanups);
    await assert.rejects(harness.prompt([{ huge: 50 * 1024 * 1024 }]), /agent was stopped: .*limit/);
    await harness.connection.exited;
  }),
);

// ── 6. Errors misreported ────────────────────────────────────────────────────────────────────────────
core('acp-terminal-exit-code', 6, 'ACP: wait_for_exit of a command that exits 0 after printing 589 KB', 'exitCode 0 (not null)', () =>
  withTerminals(async (terminals) => assert.equal((await terminalRun(terminals, 'seq 1 100000')).exitCode, 0)),
);
core('bash-command-too-long', 6, 'a 1 MB command line', '"command too long", not `spawn E2BIG`', () =>
  withTerminals(async (terminals) => {
    const created = await terminals.create({ sessionId: 's', command: `echo ${'x'.repeat(1024 * 1024)}` }, new AbortController().signal);
    assert.ok(!created.ok && /command too long/.test(created.message) && !/E2BIG/.test(created.message), JSON.stringify(created).slice(0, 300));
  }),
);

// ── 7. Unbounded sizes ───────────────────────────────────────────────────────────────────────────────
core('acp-terminal-output-whole', 7, 'ACP: terminal/output after `seq 1 100000` (589 KB, under the 1 MiB default limit)', 'exactly what was printed, truncated false, none of our markers', () =>
  withTerminals(async (terminals) => {
    const run = await terminalRun(terminals, 'seq 1 100000');
    assert.ok(run.output === seq(100_000), `${run.output.length} chars`);
    assert.equal(run.truncated, false);
  }),
);
core('acp-terminal-output-20mb', 7, 'ACP: 20 MB printed to a terminal with the default limit', 'exactly its last 1 MiB, truncated true; the terminal keeps at most its limit', () =>
  withTerminals(async (terminals) => {
    const whole = seq(2_900_000);
    const run = await terminalRun(terminals, 'seq 1 2900000');
    assert.ok(run.output === whole.slice(whole.length - 1024 * 1024));
    assert.equal(run.truncated, true);
  }),
);
core('bridge-frame-2gb', 7, 'bridge: `Content-Length: 2147483648` and the body coming', `refused at the header (over BRIDGE_MAX_FRAME_BYTES, ${BRIDGE_MAX_FRAME_BYTES} bytes): answered, logged, the body not read`, async () => {
  const served = await serveBytes(Buffer.concat([Buffer.from('Content-Length: 2147483648\r\n\r\n'), Buffer.alloc(1024 * 1024, 'x')]));
  assert.match(served.framing ?? '', /over the limit/);
  assert.ok(served.parser.answers.some((answer) => answer.id === null && /framing error/.test(answer.error?.message ?? '')));
  assert.ok(served.errors.includes('serve.framing_error'));
});
core('bridge-batch-too-large', 7, `bridge: executeBatch of 100,000 calls`, `refused with TooManyCalls (over MAX_TURN_CALLS, ${MAX_TURN_CALLS}) before any call runs`, async () => {
  const executor = new ToolExecutor({ workspaceFolders: ['/'] });
  const bridge = new BridgeService({ executor, notify: () => {}, executorInfo: { name: 'test', version: '0' }, approvals: 'settings' });
  const answer = await bridge.executeBatch({ turnId: 't', calls: Array.from({ length: 100_000 }, (_, index) => ({ id: `c${index}`, name: 'noop', input: {} })) });
  assert.ok(answer instanceof ResponseError && answer.code === BridgeErrorCodes.TooManyCalls, String(answer));
  assert.equal(bridge.openTurns, 0);
  await executor.dispose();
});

// ── –. Malformed input ───────────────────────────────────────────────────────────────────────────────
core('bridge-framing-missing-length', 0, 'bridge: a frame without Content-Length, or with a negative one, then a request', 'a framing error answered with id null and logged; the server ends instead of going on out of step', async () => {
  for (const header of ['Content-Type: application/json\r\n\r\n', 'Content-Length: -5\r\n\r\n']) {
    const served = await serveBytes(Buffer.concat([frame(request(1), header), frame(request(2))]));
    assert.ok(served.framing, header);
    assert.ok(served.parser.answers.some((answer) => answer.id === null && /framing error/.test(answer.error?.message ?? '')));
    assert.ok(served.errors.includes('serve.framing_error'));
  }
});
core('bridge-bad-body', 0, 'bridge: a body that is not JSON, a batch, an id of null', 'each answered (-32700, -32600) and the next request still is', async () => {
  const served = await serveBytes(Buffer.concat([frame('{nope'), frame([request(5)]), frame({ jsonrpc: '2.0', id: null, method: 'x' }), frame(request(2, 'initialize', { protocolVersion: 1 }))]), true);
  assert.equal(served.framing, undefined);
  assert.deepEqual(served.parser.answers.filter((answer) => answer.id === null).map((answer) => answer.error?.code), [-32700, -32600, -32600]);
  assert.ok(served.parser.answers.some((answer) => answer.id === 2 && answer.result));
});
