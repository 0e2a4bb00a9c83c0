// The reference agent over real stdio pipes, both ways round: headless (it starts `tool-exec serve --stdio`
// and sends `initialize`) and as an editor starts it (this test is the editor: it sends LSP `initialize`
// and serves the executor methods from the client side), including a crash in the middle of a turn.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { REFERENCE_AGENT_NAME } from '../../../examples/agent/agent';
import type { AgentScript } from '../../../examples/agent/script';
import { bindBridge } from '../../../src/bridge/bind';
import { EventNotification, ProgressNotification, PromptRequest, PROTOCOL_VERSION, type AgentInitializationOptions } from '../../../src/bridge/protocol';
import { BridgeService } from '../../../src/bridge/service';
import type { ToolCall } from '../../../src/executor/contract/contract';
import { ToolExecutor } from '../../../src/executor/executor';
import { FixedApprovalClient } from '../../../src/node/approval/fixedApprovalClient';
import { ProcessSupervisor, registerBuiltinTools } from '../../../src/tools/index';

const ROOT = join(__dirname, '..', '..', '..', '..');
const CLI = join(ROOT, 'out', 'src', 'cli', 'main.js');
const AGENT = join(ROOT, 'out', 'examples', 'agent', 'agent.js');
const DEMO_SCRIPT = join(ROOT, 'examples', 'agent', 'sessions', 'demo.json');
const TOOLS = join(ROOT, 'test', 'fixtures', 'noop-tools.mjs');

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'bridge-agent-'));
  writeFileSync(join(dir, 'hello.txt'), 'hello\n');
});
after(() => rmSync(dir, { recursive: true, force: true }));

function transcript(file: string): Array<Record<string, any>> {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line)) : [];
}

describe('reference agent, headless: it starts tool-exec serve --stdio and speaks first', () => {
  it('initializes, lists the tools (--tools ones too) and runs a turn with an unknown tool, events streamed', () => {
    const log = join(dir, 'headless.jsonl');
    const result = spawnSync(
      process.execPath,
      [AGENT, '--script', DEMO_SCRIPT, '--transcript', log, '--prompt', 'look around', '--', process.execPath, CLI, 'serve', '--stdio', '--workspace', dir, '--tools', TOOLS],
      { encoding: 'utf8', timeout: 30_000 },
    );
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /I can use \d+ tools: .*Read.*echo/);
    assert.match(result.stdout, /- Glob glob-1: ok\n- NoSuchTool nope-1: invocation: unknown tool: NoSuchTool/);
    const entries = transcript(log);
    const init = entries.find((entry) => entry.kind === 'initialize')!;
    assert.equal(init.direction, 'agent→executor');
    assert.equal(init.protocolVersion, PROTOCOL_VERSION);
    assert.ok(init.tools.includes('echo'));
    const events = entries.filter((entry) => entry.kind === 'event').map((entry) => entry.event.type);
    assert.equal(events[0], 'turnStarted');
    assert.ok(events.includes('toolCallFailed'));
    assert.equal(events.at(-1), 'turnEnded');
  });
});

describe('reference agent, headless: the demo\'s undo', () => {
  it('"edit the greeting" edits hello.txt; "undo", in a later session, puts it back through executor/undoTurn', () => {
    const folder = mkdtempSync(join(tmpdir(), 'bridge-agent-undo-'));
    try {
      const workspace = join(folder, 'ws');
      mkdirSync(workspace);
      writeFileSync(join(workspace, 'hello.txt'), 'hello\n');
      const run = (prompt: string) =>
        spawnSync(process.execPath, [AGENT, '--script', DEMO_SCRIPT, '--prompt', prompt, '--', process.execPath, CLI, 'serve', '--stdio', '--workspace', workspace, '--artifacts', join(folder, 'artifacts'), '--approve', 'allow'], {
          encoding: 'utf8',
          timeout: 30_000,
        });
      const edited = run('edit the greeting');
      assert.equal(edited.status, 0, edited.stderr);
      assert.equal(readFileSync(join(workspace, 'hello.txt'), 'utf8'), 'hello, bridge\n');
      const undone = run('undo');
      assert.equal(undone.status, 0, undone.stderr);
      assert.match(undone.stdout, /Undid ".*": 1 put back, 0 changed since/);
      assert.equal(readFileSync(join(workspace, 'hello.txt'), 'utf8'), 'hello\n');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

interface Editor {
  readonly agent: ChildProcess;
  readonly connection: MessageConnection;
  readonly service: BridgeService;
  readonly progress: string[];
  readonly offered: ToolCall[];
  readonly exited: Promise<number | null>;
  /** Resolves when the connection closed and the service cancelled what was open. */
  readonly closed: Promise<void>;
  readonly transcript: string;
}

const editors: Editor[] = [];
const executors: { executor: ToolExecutor; supervisor: ProcessSupervisor }[] = [];
afterEach(async () => {
  for (const editor of editors.splice(0)) {
    editor.connection.dispose();
    editor.agent.kill();
    await editor.exited;
  }
  for (const { executor, supervisor } of executors.splice(0)) {
    await executor.dispose();
    await supervisor.dispose();
  }
});

/** This test as the editor: starts the agent, answers executor/* from the client side, sends LSP initialize. */
async function startAsEditor(script: AgentScript | string): Promise<Editor> {
  const supervisor = new ProcessSupervisor();
  const executor = new ToolExecutor({ workspaceFolders: [dir], approvalClient: new FixedApprovalClient({ kind: 'allowOnce' }) });
  registerBuiltinTools(executor.registry, { backgroundTasks: executor, supervisor });
  // A read that runs a process until cancelled: it starts while the agent still offers (early dispatch).
  executor.registry.register({
    name: 'slowRead',
    description: 'Waits on a child process',
    readOnly: true,
    concurrentSafe: true,
    sideEffectScope: 'none',
    jsonSchema: { type: 'object', properties: { marker: { type: 'string' } }, required: ['marker'] },
    handler: (input, ctx) =>
      new Promise((resolve) => {
        const child = spawn('sh', ['-c', `sleep 30 # ${(input as { marker: string }).marker}`], { signal: ctx.signal, stdio: 'ignore' });
        child.on('error', () => {});
        child.on('exit', () => resolve({ content: 'ended' }));
      }),
  });
  executors.push({ executor, supervisor });
  let scriptFile = script as string;
  if (typeof script !== 'string') {
    scriptFile = join(dir, `script-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(scriptFile, JSON.stringify(script));
  }
  const log = join(dir, `editor-${Math.random().toString(36).slice(2)}.jsonl`);
  const agent = spawn(process.execPath, [AGENT, '--script', scriptFile, '--transcript', log], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => agent.once('exit', (code) => resolve(code)));
  const connection = createMessageConnection(new StreamMessageReader(agent.stdout!), new StreamMessageWriter(agent.stdin!));
  const offered: ToolCall[] = [];
  const service = new BridgeService({
    executor,
    notify: (params) => void connection.sendNotification(EventNotification, params).catch(() => {}),
    executorInfo: { name: 'test-editor', version: '0' },
    approvals: 'interactive',
    host: { observe: () => ({ offered: (call) => offered.push(call) }) },
  });
  bindBridge(connection, service, { requireInitialize: false });
  const progress: string[] = [];
  connection.onNotification(ProgressNotification, (params) => {
    progress.push(params.text);
  });
  // As LanguageClient does: a closed connection is disposed (its pending requests fail), open turns cancelled.
  const closed = new Promise<void>((resolve) =>
    connection.onClose(() => {
      connection.dispose();
      void service.closeAll('the agent exited').then(resolve);
    }),
  );
  connection.listen();
  const initializationOptions: AgentInitializationOptions = { executor: service.info() };
  const answer = await connection.sendRequest<{ serverInfo: { name: string }; agent: { protocolVersion: number; prompts: boolean } }>('initialize', { processId: process.pid, capabilities: {}, rootUri: null, initializationOptions });
  assert.equal(answer.serverInfo.name, REFERENCE_AGENT_NAME);
  assert.deepEqual(answer.agent, { protocolVersion: PROTOCOL_VERSION, prompts: true });
  await connection.sendNotification('initialized', {});
  const editor = { agent, connection, service, progress, offered, exited, closed, transcript: log };
  editors.push(editor);
  return editor;
}

describe('reference agent, started by an editor: the editor sends initialize and serves executor/* itself', () => {
  it('gets the executor info in initializationOptions and plays a prompt: a batch that edits a file', async () => {
    const editor = await startAsEditor(DEMO_SCRIPT);
    const answer = await editor.connection.sendRequest(PromptRequest, { promptId: 'p1', prompt: 'please edit the greeting' });
    assert.deepEqual(answer, { stopReason: 'done' });
    const text = editor.progress.join('');
    assert.match(text, /Reading the greeting/);
    assert.match(text, /- Read read-1: ok\n- Edit edit-1: ok/);
    assert.match(text, /Done\.$/);
    assert.equal(readFileSync(join(dir, 'hello.txt'), 'utf8'), 'hello, bridge\n');
    assert.deepEqual(editor.offered.map((call) => call.id), ['read-1', 'edit-1']);
    const entries = transcript(editor.transcript);
    const init = entries.find((entry) => entry.kind === 'initialize')!;
    assert.equal(init.direction, 'editor→agent');
    assert.ok(init.tools.includes('Edit'));
    assert.ok(entries.some((entry) => entry.kind === 'event' && entry.event.type === 'toolCallResult'));
  });

  it('survives the agent crashing in the middle of a turn: pending calls end cancelled, nothing hangs, no process left', async () => {
    const marker = `bridge-crash-${process.pid}-${Date.now()}`;
    const editor = await startAsEditor({
      prompts: [
        {
          steps: [
            { say: 'about to crash' },
            {
              turn: [
                { id: 'slow', name: 'slowRead', input: { marker } },
                { id: 'write', name: 'Write', input: { path: 'never.txt', content: 'never' } },
              ],
              offerDelayMs: 300,
              crash: 'beforeEnd',
            },
          ],
        },
      ],
    });
    const results: string[][] = [];
    let closedTurn = false;
    // Watch the turn's results as the editor's chat reply would.
    editor.service['options'].host!.observe = (turn) => {
      void turn.results().then((all) => results.push(all.map((result) => `${result.callId}:${result.errorKind}:${result.timing.startMs === null ? 'never ran' : 'ran'}`)));
      return { closed: () => (closedTurn = true) };
    };
    const started = Date.now();
    await assert.rejects(editor.connection.sendRequest(PromptRequest, { promptId: 'p2', prompt: 'go' }));
    assert.equal(await editor.exited, 3);
    await editor.closed;
    assert.ok(Date.now() - started < 10_000, 'nothing hangs');
    assert.deepEqual(results, [['slow:cancelled:ran', 'write:cancelled:never ran']]);
    assert.ok(closedTurn);
    assert.equal(editor.service.openTurns, 0);
    assert.ok(!existsSync(join(dir, 'never.txt')));
    // The command the turn started is stopped with its process tree.
    const deadline = Date.now() + 5000;
    let left = '';
    do {
      left = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(marker) && !line.includes('ps -eo')).join('\n');
      if (!left) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } while (Date.now() < deadline);
    assert.equal(left, '', 'no process of the turn is left');
  });
});
