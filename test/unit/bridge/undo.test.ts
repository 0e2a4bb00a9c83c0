// Undo of bridge turns: `tool-exec serve --stdio` over real pipes checkpoints each turn that writes (a
// tool's write and a shell command's alike), and the agent lists and undoes them through the protocol; a
// path changed since the turn is skipped and named unless the agent says `force`. Then the bridge service
// in-process: a checkpoint the host gives (VS Code: the chat prompt's) is used instead of the turn's own.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { createMessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { BridgeService } from '../../../src/bridge/service';
import { ToolExecutor } from '../../../src/executor/executor';
import type { TurnCheckpoint } from '../../../src/executor/ports/workspace/turnCheckpoint';
import { RulesPolicy } from '../../../src/executor/policy/rulesPolicy';
import { createRedactor } from '../../../src/executor/results/redaction/patternRedactor';
import { ProcessSupervisor, registerBuiltinTools } from '../../../src/tools/index';
import { rejection } from './responses';

const ROOT = join(__dirname, '..', '..', '..', '..');
const CLI = join(ROOT, 'out', 'src', 'cli', 'main.js');

const base = fs.realpathSync(fs.mkdtempSync(join(tmpdir(), 'bridge-undo-')));
after(() => fs.rmSync(base, { recursive: true, force: true }));
let folders = 0;

interface Served {
  readonly connection: MessageConnection;
  readonly workspace: string;
  readonly artifacts: string;
}

const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin!.end();
    await exited;
  }
});

/** A `tool-exec serve` over a new workspace, or over `reuse`'s (its checkpoints too); `--approve allow` unless `approve` is false. */
async function serve(reuse?: Served, approve = true): Promise<Served> {
  const workspace = reuse?.workspace ?? join(base, `ws-${++folders}`);
  const artifacts = reuse?.artifacts ?? join(base, `artifacts-${folders}`);
  fs.mkdirSync(workspace, { recursive: true });
  const child = spawn(process.execPath, [CLI, 'serve', '--stdio', '--workspace', workspace, '--artifacts', artifacts, ...(approve ? ['--approve', 'allow'] : [])], { stdio: ['pipe', 'pipe', 'ignore'] });
  children.push(child);
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  connection.listen();
  const info = await connection.sendRequest<{ capabilities: { checkpoints?: boolean } }>('initialize', { protocolVersion: 1 });
  assert.equal(info.capabilities.checkpoints, true);
  return { connection, workspace, artifacts };
}

interface UndoAnswer {
  undone: string;
  redoId?: string;
  restored: { path: string; was: string }[];
  skipped: { path: string; laterTurns: string[] }[];
  cancelled: boolean;
}

describe('tool-exec serve: undo of a bridge turn through the protocol', () => {
  it('a turn writes a.txt and runs a command that creates b.txt; executor/undoTurn removes both, undoing the undo brings them back', async () => {
    const { connection, workspace, artifacts } = await serve();
    fs.writeFileSync(join(workspace, 'kept.txt'), 'kept\n');
    const answer = await connection.sendRequest<{ results: { isError: boolean; content: string }[]; undoId?: string }>('executor/executeBatch', {
      turnId: 'agent-turn-1',
      label: 'write and shell',
      calls: [
        { id: 'w', name: 'Write', input: { file_path: join(workspace, 'a.txt'), content: 'from Write\n' } },
        { id: 'b', name: 'Bash', input: { command: "printf 'from the shell\\n' > b.txt" } },
      ],
    });
    assert.deepEqual(answer.results.map((result) => result.isError), [false, false], JSON.stringify(answer.results));
    assert.equal(fs.readFileSync(join(workspace, 'b.txt'), 'utf8'), 'from the shell\n');
    assert.ok(answer.undoId, 'the answer names what undoes the turn');

    const listed = await connection.sendRequest<{ turns: { undoId: string; kind: string; title: string }[] }>('executor/listCheckpoints', {});
    assert.deepEqual(listed.turns.map((turn) => [turn.undoId, turn.kind, turn.title]), [[answer.undoId, 'turn', 'write and shell']]);
    // The same store `tool-exec undo` reads.
    const cli = spawnSync(process.execPath, [CLI, 'checkpoints', 'list', '--workspace', workspace, '--artifacts', artifacts, '--json'], { encoding: 'utf8' });
    assert.equal((JSON.parse(cli.stdout.trim()) as { turn: string }).turn, answer.undoId);

    const undo = await connection.sendRequest<UndoAnswer>('executor/undoTurn', { undoId: answer.undoId });
    assert.deepEqual(undo.restored.map((entry) => [entry.path, entry.was]).sort(), [
      [join(workspace, 'a.txt'), 'created'],
      [join(workspace, 'b.txt'), 'created'],
    ]);
    assert.equal(fs.existsSync(join(workspace, 'a.txt')), false);
    assert.equal(fs.existsSync(join(workspace, 'b.txt')), false);
    assert.equal(fs.readFileSync(join(workspace, 'kept.txt'), 'utf8'), 'kept\n');
    assert.ok(undo.redoId);
    // Undone already: refused with the undo that stands, nothing written.
    await assert.rejects(connection.sendRequest('executor/undoTurn', { undoId: answer.undoId }), (error: { code?: number; message?: string }) => {
      assert.equal(error.code, -32017);
      assert.equal(error.message, `turn ${answer.undoId} is already undone (by ${undo.redoId}); undoing ${undo.redoId} redoes it`);
      return true;
    });
    assert.equal(fs.existsSync(join(workspace, 'a.txt')), false);

    const redo = await connection.sendRequest<UndoAnswer>('executor/undoTurn', { undoId: undo.redoId });
    assert.equal(redo.restored.length, 2);
    assert.equal(fs.readFileSync(join(workspace, 'a.txt'), 'utf8'), 'from Write\n');
    assert.equal(fs.readFileSync(join(workspace, 'b.txt'), 'utf8'), 'from the shell\n');
    const kinds = (await connection.sendRequest<{ turns: { kind: string }[] }>('executor/listCheckpoints', {})).turns.map((turn) => turn.kind);
    assert.deepEqual(kinds, ['turn', 'undo', 'redo']);
  });

  it('a file changed since the turn is reported, not overwritten; force overwrites it', async () => {
    const { connection, workspace } = await serve();
    const file = join(workspace, 'c.txt');
    fs.writeFileSync(file, 'before\n');
    await connection.sendRequest('executor/beginTurn', { turnId: 't' });
    await connection.sendRequest('executor/offer', { turnId: 't', call: { id: 'e', name: 'Bash', input: { command: "printf 'by the turn\\n' > c.txt" } } });
    const { undoId } = await connection.sendRequest<{ undoId: string }>('executor/endTurn', { turnId: 't' });
    fs.writeFileSync(file, 'by the user afterwards\n');

    const careful = await connection.sendRequest<UndoAnswer>('executor/undoTurn', { undoId });
    assert.deepEqual(careful.restored, []);
    assert.deepEqual(careful.skipped, [{ path: file, laterTurns: [] }]);
    assert.equal(fs.readFileSync(file, 'utf8'), 'by the user afterwards\n');

    const forced = await connection.sendRequest<UndoAnswer>('executor/undoTurn', { undoId, force: true });
    assert.deepEqual(forced.restored.map((entry) => [entry.path, entry.was]), [[file, 'modified']]);
    assert.deepEqual(forced.skipped, []);
    assert.equal(fs.readFileSync(file, 'utf8'), 'before\n');
  });

  it('an agent may not undo without --approve allow: nobody could be asked, so nothing is written', async () => {
    const first = await serve();
    const answer = await first.connection.sendRequest<{ undoId?: string }>('executor/executeBatch', {
      turnId: 't',
      calls: [{ id: 'w', name: 'Write', input: { file_path: join(first.workspace, 'a.txt'), content: 'from Write\n' } }],
    });
    assert.ok(answer.undoId);
    const unasked = await serve(first, false);
    await assert.rejects(unasked.connection.sendRequest('executor/undoTurn', { undoId: answer.undoId }), /nobody to ask whether the agent may undo a turn/);
    assert.equal(fs.readFileSync(join(first.workspace, 'a.txt'), 'utf8'), 'from Write\n');
  });

  it('a turn that wrote nothing has no undoId; an unknown id and bad params are errors', async () => {
    const { connection, workspace } = await serve();
    fs.writeFileSync(join(workspace, 'r.txt'), 'read me\n');
    const read = await connection.sendRequest<{ undoId?: string }>('executor/executeBatch', { turnId: 'r', calls: [{ id: 'r', name: 'Read', input: { file_path: join(workspace, 'r.txt') } }] });
    assert.equal(read.undoId, undefined);
    assert.deepEqual((await connection.sendRequest<{ turns: unknown[] }>('executor/listCheckpoints', {})).turns, []);
    const unknown = await rejection(connection.sendRequest('executor/undoTurn', { undoId: 'nope' }));
    assert.equal(unknown.code, -32015);
    assert.match(unknown.message, /no checkpoints are kept for "nope"/);
    const bad = await rejection(connection.sendRequest('executor/undoTurn', { undoId: 'x', force: 'yes' }));
    assert.equal(bad.code, -32602);
    assert.match(bad.message, /force/);
  });
});

describe('the bridge service with a checkpoint from its host', () => {
  it('uses the host\'s checkpoint for the turn and begins none of its own', async () => {
    const workspace = join(base, `ws-${++folders}`);
    fs.mkdirSync(workspace);
    const supervisor = new ProcessSupervisor();
    const policy = new RulesPolicy({ mode: 'bypass' });
    const executor = new ToolExecutor({ workspaceFolders: [workspace], permissionPolicy: policy, redactor: createRedactor({ env: {} }) });
    registerBuiltinTools(executor.registry, { backgroundTasks: executor, supervisor });
    try {
      const asked: string[] = [];
      const hosts: TurnCheckpoint = { beforeWrite: async () => void asked.push('host') };
      const begun: string[] = [];
      const service = new BridgeService({
        executor,
        notify: () => {},
        executorInfo: { name: 'test', version: '0' },
        approvals: 'settings',
        host: { turnOptions: (turnId) => (turnId === 'in-prompt' ? { checkpoint: hosts } : {}) },
        checkpoints: {
          begin: (title) => {
            begun.push(title);
            return { checkpoint: { beforeWrite: async () => void asked.push('own') }, end: async () => undefined };
          },
          turns: () => [],
          undoFromAgent: () => Promise.reject(new Error('not in this test')),
        },
      });
      const write = (turnId: string) => service.executeBatch({ turnId, label: turnId, calls: [{ id: 'w', name: 'Write', input: { file_path: join(workspace, `${turnId}.txt`), content: 'x' } }] });
      const inPrompt = await write('in-prompt');
      assert.ok(!(inPrompt instanceof ResponseError) && !inPrompt.results[0]!.isError, JSON.stringify(inPrompt));
      assert.deepEqual([asked, begun], [['host'], []]);
      await write('alone');
      assert.deepEqual([asked, begun], [['host', 'own'], ['alone']]);
    } finally {
      await executor.dispose();
      await supervisor.dispose();
    }
  });
});
