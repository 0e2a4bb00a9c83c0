// `tool-exec serve --stdio` over real pipes: a test plays the agent with vscode-jsonrpc.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { CancellationTokenSource, createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  BeginTurnRequest,
  BridgeErrorCodes,
  CancelTurnRequest,
  EndTurnRequest,
  EventNotification,
  ExecuteBatchRequest,
  InitializeRequest,
  ListToolsRequest,
  OfferRequest,
  PROTOCOL_VERSION,
  type EventParams,
} from '../../../src/bridge/protocol';
import { rejection } from './responses';

const ROOT = join(__dirname, '..', '..', '..', '..');
const CLI = join(ROOT, 'out', 'src', 'cli', 'main.js');
const TOOLS = join(ROOT, 'test', 'fixtures', 'noop-tools.mjs');

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'tool-exec-serve-'));
  writeFileSync(join(dir, 'a.txt'), 'alpha\n');
});
after(() => rmSync(dir, { recursive: true, force: true }));

interface Server {
  readonly child: ChildProcess;
  readonly connection: MessageConnection;
  readonly events: EventParams[];
  readonly exited: Promise<number | null>;
  stderr(): string;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.connection.dispose();
    server.child.stdin!.end();
    await server.exited;
  }
});

function serve(...extra: string[]): Server {
  const child = spawn(process.execPath, [CLI, 'serve', '--stdio', '--workspace', dir, '--tools', TOOLS, ...extra], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const events: EventParams[] = [];
  connection.onNotification(EventNotification, (params) => {
    events.push(params);
  });
  connection.listen();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const server = { child, connection, events, exited, stderr: () => stderr };
  servers.push(server);
  return server;
}

async function initialized(...extra: string[]): Promise<Server> {
  const server = serve(...extra);
  await server.connection.sendRequest(InitializeRequest, { protocolVersion: PROTOCOL_VERSION, clientInfo: { name: 'test' } });
  return server;
}

describe('tool-exec serve --stdio', () => {
  it('answers initialize with the protocol version, capabilities and every tool (built-in and --tools)', async () => {
    const { connection } = serve();
    const info = await connection.sendRequest(InitializeRequest, { protocolVersion: PROTOCOL_VERSION });
    assert.equal(info.protocolVersion, PROTOCOL_VERSION);
    assert.equal(info.executor.name, 'tool-exec');
    assert.equal(info.capabilities.approvals, 'settings');
    assert.ok(info.capabilities.events.includes('toolCallResult'));
    const names = info.tools.map((tool) => tool.name);
    for (const name of ['Read', 'Edit', 'Bash', 'echo', 'noop']) assert.ok(names.includes(name), name);
    const listed = await connection.sendRequest(ListToolsRequest);
    assert.deepEqual(listed.tools.map((tool) => tool.name), names);
    const echo = listed.tools.find((tool) => tool.name === 'echo')!;
    assert.equal(echo.description, 'Echoes text');
    assert.deepEqual((echo.inputSchema as { required: string[] }).required, ['text']);
  });

  it('refuses every method before initialize, and another protocol version', async () => {
    const { connection } = serve();
    const early = await rejection(connection.sendRequest(ListToolsRequest));
    assert.equal(early.code, BridgeErrorCodes.ServerNotInitialized);
    assert.match(early.message, /before initialize/);
    const version = await rejection(connection.sendRequest(InitializeRequest, { protocolVersion: 99 }));
    assert.equal(version.code, BridgeErrorCodes.UnsupportedProtocolVersion);
    assert.match(version.message, /version 99 is not supported/);
  });

  it('answers unknown methods, bad params and unknown turn ids with readable errors', async () => {
    const { connection } = await initialized();
    const unknown = await rejection(connection.sendRequest('executor/frobnicate', {}));
    assert.equal(unknown.code, BridgeErrorCodes.MethodNotFound);
    assert.match(unknown.message, /unknown method "executor\/frobnicate": tool-exec serve answers .*executor\/offer/);
    const bad = await rejection(connection.sendRequest('executor/executeBatch', { turnId: 't', calls: [{ id: 'a' }] }));
    assert.equal(bad.code, BridgeErrorCodes.InvalidParams);
    assert.match(bad.message, /calls\.0\.name/);
    const missing = await rejection(connection.sendRequest(EndTurnRequest, { turnId: 'nope' }));
    assert.equal(missing.code, BridgeErrorCodes.UnknownTurn);
    assert.match(missing.message, /no open turn has the id "nope"/);
    await connection.sendRequest(BeginTurnRequest, { turnId: 'twice' });
    const twice = await rejection(connection.sendRequest(BeginTurnRequest, { turnId: 'twice' }));
    assert.equal(twice.code, BridgeErrorCodes.TurnExists);
    await connection.sendRequest(EndTurnRequest, { turnId: 'twice' });
    const late = await rejection(connection.sendRequest(OfferRequest, { turnId: 'twice', call: { id: 'x', name: 'noop', input: {} } }));
    assert.equal(late.code, BridgeErrorCodes.UnknownTurn);
  });

  it('runs a batch with an unknown tool: results in order in the --json shape, events streamed before the answer', async () => {
    const server = await initialized();
    const answer = await server.connection.sendRequest(ExecuteBatchRequest, {
      turnId: 'batch-1',
      calls: [
        { id: 'a', name: 'echo', input: { text: 'one' } },
        { id: 'b', name: 'NoSuchTool', input: {} },
        { id: 'c', name: 'Read', input: { path: 'a.txt' } },
      ],
    });
    assert.equal(answer.turnId, 'batch-1');
    assert.deepEqual(answer.results.map((result) => result.id), ['a', 'b', 'c']);
    const [a, b, c] = answer.results;
    assert.deepEqual(Object.keys(a!), ['id', 'name', 'group', 'isError', 'errorKind', 'content', 'truncated', 'originalBytes', 'artifactPath', 'display', 'timing']);
    assert.equal(a!.content, `one (a in ${dir})`);
    assert.equal(b!.errorKind, 'invocation');
    assert.equal(b!.content, 'unknown tool: NoSuchTool');
    assert.match(c!.content, /alpha/);
    const types = server.events.map((params) => params.event.type);
    assert.ok(server.events.every((params) => params.turnId === 'batch-1'));
    assert.equal(types[0], 'turnStarted');
    assert.equal(types.at(-1), 'turnEnded');
    for (const type of ['batchGroupStarted', 'toolCallQueued', 'toolCallStarted', 'toolCallResult', 'toolCallFailed', 'batchGroupEnded']) assert.ok(types.includes(type), type);
    const failed = server.events.find((params) => params.event.type === 'toolCallFailed')!;
    assert.equal((failed.event.result as { id: string }).id, 'b');
  });

  it('offers calls one by one (early dispatch: a read runs before endTurn) and ends the turn in order', async () => {
    const server = await initialized();
    const { connection } = server;
    await connection.sendRequest(BeginTurnRequest, { turnId: 'stream' });
    await connection.sendRequest(OfferRequest, { turnId: 'stream', call: { id: 'r', name: 'echo', input: { text: 'early' } } });
    const deadline = Date.now() + 5000;
    while (!server.events.some((params) => params.event.type === 'toolCallResult') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(server.events.some((params) => params.event.type === 'toolCallResult'), 'the read finished before endTurn');
    await connection.sendRequest(OfferRequest, { turnId: 'stream', call: { id: 't', name: 'touch', input: { name: 'made.txt' } } });
    const { results } = await connection.sendRequest(EndTurnRequest, { turnId: 'stream' });
    assert.deepEqual(results.map((result) => [result.id, result.isError, result.errorKind]), [
      ['r', false, null],
      // No --approve: nobody to ask, so the write is denied with a sentence saying how to allow it.
      ['t', true, 'permission'],
    ]);
    assert.match(results[1]!.content, /nobody to ask \(pass --approve allow/);
  });

  it('approvals come from --approve: allow runs the write', async () => {
    const { connection } = await initialized('--approve', 'allow');
    const { results } = await connection.sendRequest(ExecuteBatchRequest, { turnId: 'w', calls: [{ id: 't', name: 'touch', input: { name: 'allowed.txt' } }] });
    assert.equal(results[0]!.isError, false, results[0]!.content);
  });

  it('cancelTurn and $/cancelRequest end a running call as cancelled; the answer still has every result', async () => {
    const { connection } = await initialized('--approve', 'allow');
    await connection.sendRequest(BeginTurnRequest, { turnId: 'slow' });
    await connection.sendRequest(OfferRequest, { turnId: 'slow', call: { id: 's', name: 'Bash', input: { command: 'sleep 30' } } });
    await connection.sendRequest(OfferRequest, { turnId: 'slow', call: { id: 'n', name: 'noop', input: {} } });
    const ending = connection.sendRequest(EndTurnRequest, { turnId: 'slow' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cancelled = await connection.sendRequest(CancelTurnRequest, { turnId: 'slow' });
    assert.deepEqual(cancelled, { turnId: 'slow', cancelled: true });
    const started = Date.now();
    const { results } = await ending;
    assert.ok(Date.now() - started < 5000);
    assert.deepEqual(results.map((result) => result.errorKind), ['cancelled', 'cancelled']);

    const source = new CancellationTokenSource();
    const batch = connection.sendRequest(ExecuteBatchRequest, { turnId: 'slow2', calls: [{ id: 's2', name: 'Bash', input: { command: 'sleep 30' } }] }, source.token);
    await new Promise((resolve) => setTimeout(resolve, 300));
    source.cancel();
    const answer = await batch;
    assert.equal(answer.results[0]!.errorKind, 'cancelled');
  });

  it('ends with exit code 0 when the agent closes stdin, cancelling what still runs', async () => {
    const server = await initialized('--approve', 'allow');
    await server.connection.sendRequest(BeginTurnRequest, { turnId: 'open' });
    await server.connection.sendRequest(OfferRequest, { turnId: 'open', call: { id: 's', name: 'Bash', input: { command: 'sleep 30' } } });
    const started = Date.now();
    server.child.stdin!.end();
    assert.equal(await server.exited, 0, server.stderr());
    assert.ok(Date.now() - started < 10_000);
  });
});
