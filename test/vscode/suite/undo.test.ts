/// <reference types="mocha" />
// Undo of an `@executor` request in the real extension host: the reply offers "Undo this turn" once the
// request wrote a file, the command puts the workspace back, and undoing the undo is the redo.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CheckpointStore } from '../../../src/node/checkpoints/checkpointStore';
import { StatPool, STAT_POOL_MIN_PATHS } from '../../../src/node/checkpoints/statPool';
import type { UndoOutcome } from '../../../src/node/checkpoints/undo';
import { extensionApi, recordingStream, waitFor, workspaceRoot } from './helpers';

async function writeThroughChat(name: string, text: string) {
  const api = await extensionApi();
  const model = await waitFor('the window model', async () => (await vscode.lm.selectChatModels({ vendor: 'window-model', id: 'window-8k' }))[0]);
  const request = { prompt: `write-once ${name} ${text}`, references: [], toolReferences: [], toolInvocationToken: undefined, model } as unknown as vscode.ChatRequest;
  const { stream, parts } = recordingStream();
  await api.testing.modelPrompt!(request, { history: [] }, stream, new vscode.CancellationTokenSource().token);
  return parts;
}

/** The reply's undo buttons (a reply also has Open diff buttons for its edits). */
function undoButtons(parts: readonly { method: string; args: unknown[] }[]): vscode.Command[] {
  return parts.filter((part) => part.method === 'button').map((part) => part.args[0] as vscode.Command).filter((button) => button.command.startsWith('agentToolExecutor.undo'));
}

suite('undo of a chat turn', () => {
  const name = 'undo-me.txt';
  const file = () => path.join(workspaceRoot().fsPath, name);
  teardown(async () => {
    (await extensionApi()).testing.setApprovalResponder(undefined);
    fs.rmSync(file(), { force: true });
  });

  test('"Undo this turn" removes the file the turn wrote; undoing the undo brings it back', async () => {
    (await extensionApi()).testing.setApprovalResponder(() => ({ kind: 'allowOnce' }));
    const parts = await writeThroughChat(name, 'written by the turn');
    assert.equal(fs.readFileSync(file(), 'utf8'), 'written by the turn');
    const buttons = undoButtons(parts);
    assert.deepEqual(buttons.map((button) => [button.title, button.command]), [
      ['Undo this turn', 'agentToolExecutor.undoTurn'],
      ['Undo back to here', 'agentToolExecutor.undoBackTo'],
    ]);
    const undo = await vscode.commands.executeCommand<UndoOutcome>(buttons[0]!.command, ...(buttons[0]!.arguments ?? []));
    assert.deepEqual(undo.restored.map((entry) => [path.basename(entry.path), entry.kind]), [[name, 'created']]);
    assert.equal(fs.existsSync(file()), false);
    const redo = await vscode.commands.executeCommand<UndoOutcome>('agentToolExecutor.undoTurn', undo.record!.turnId);
    assert.equal(redo.record?.kind, 'redo');
    assert.equal(fs.readFileSync(file(), 'utf8'), 'written by the turn');
  });

  test("the reply's Workspace changes list is a list of its own: the model's next words are not part of its last item", async () => {
    (await extensionApi()).testing.setApprovalResponder(() => ({ kind: 'allowOnce' }));
    const parts = await writeThroughChat(name, 'written by the turn');
    // Anchors shown by their label, as the chat renders them inline.
    const shown = parts
      .filter((part) => part.method === 'markdown' || part.method === 'anchor')
      .map((part) => (part.method === 'anchor' ? `[${String(part.args[1])}]` : typeof part.args[0] === 'string' ? part.args[0] : (part.args[0] as vscode.MarkdownString).value))
      .join('');
    const list = /Workspace changes:\n([\s\S]*?)Wrote /.exec(shown);
    assert.ok(list, `a Workspace changes list, then the model's words: ${JSON.stringify(shown)}`);
    assert.match(list[1]!, /^\n- \\\+ \[undo-me\.txt\]\n\n$/, `one item marked created, and a blank line before the next paragraph: ${JSON.stringify(list[1])}`);
  });

  test('a request that wrote nothing offers no undo', async () => {
    fs.writeFileSync(file(), 'read me');
    const model = await waitFor('the window model', async () => (await vscode.lm.selectChatModels({ vendor: 'window-model', id: 'window-8k' }))[0]);
    const request = { prompt: `read-once ${name}`, references: [], toolReferences: [], toolInvocationToken: undefined, model } as unknown as vscode.ChatRequest;
    const { stream, parts } = recordingStream();
    await (await extensionApi()).testing.modelPrompt!(request, { history: [] }, stream, new vscode.CancellationTokenSource().token);
    assert.deepEqual(undoButtons(parts), []);
  });
});

suite('checkpoints in the extension host', () => {
  test('a later checkpoint of a large folder shares its stats with a worker thread, which runs in this host', async function () {
    this.timeout(60_000);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'host-stat-pool-'));
    const stats = new StatPool();
    try {
      const folder = path.join(root, 'ws');
      const files = Array.from({ length: STAT_POOL_MIN_PATHS + 100 }, (_, index) => path.join(folder, `d${index % 10}`, `f${index}.txt`));
      for (const file of files) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, file);
      }
      const store = new CheckpointStore(path.join(root, 'store'), { stats });
      // Past the racy window, so the later checkpoint trusts the stats of files it did not see change.
      await new Promise((resolve) => setTimeout(resolve, 100));
      await store.take([folder]);
      await waitFor('the stat worker runs', () => (stats.state === 'running' ? true : stats.state === 'failed' ? assert.fail('the worker failed to start in the host') : undefined));
      // The worker alone states a list it is given before anyone asks.
      const list = stats.lstatAhead(files);
      await waitFor('the worker states every path', () => (list.progress().finished === files.length ? true : undefined));
      assert.equal(list.at(0)?.size, fs.statSync(files[0]!).size);
      list.finish();
      assert.equal(stats.counts.worker, files.length);
      fs.appendFileSync(files[7]!, ' changed');
      const later = await store.take([folder]);
      assert.equal(later.read, 1, 'only the changed file is read');
    } finally {
      stats.stop();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
