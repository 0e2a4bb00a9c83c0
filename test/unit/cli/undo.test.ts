// `tool-exec undo` and `checkpoints` end to end: the real CLI runs a turn of tools and shell commands,
// then undoes and redoes it on real files.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { treeHash } from '../node/checkpoints/treeHash';

const ROOT = join(__dirname, '..', '..', '..', '..');
const CLI = join(ROOT, 'out', 'src', 'cli', 'main.js');
const base = fs.mkdtempSync(join(os.tmpdir(), 'cli-undo-'));
after(() => fs.rmSync(base, { recursive: true, force: true }));

function cli(args: string[], stdin = '') {
  const result = spawnSync(process.execPath, [CLI, ...args], { input: stdin, encoding: 'utf8', env: { ...process.env, TOOL_EXEC_LOG: 'error' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('tool-exec undo', () => {
  const workspace = join(base, 'ws');
  const artifacts = join(base, 'artifacts');
  fs.mkdirSync(workspace);
  fs.writeFileSync(join(workspace, 'b.txt'), 'alpha\nbeta\n');
  fs.writeFileSync(join(workspace, 'c'), 'c');
  fs.writeFileSync(join(workspace, 'e'), 'e');
  fs.writeFileSync(join(workspace, 'g'), 'g');
  const common = ['--workspace', workspace, '--artifacts', artifacts];
  let original = '';
  let turned = '';

  it('undoes a run of Write, Edit and a shell command, then redoes it', () => {
    original = treeHash(workspace);
    const calls = [
      { id: '1', name: 'Write', input: { file_path: join(workspace, 'a.txt'), content: 'new file\n' } },
      { id: '2', name: 'Read', input: { file_path: join(workspace, 'b.txt') } },
      { id: '3', name: 'Edit', input: { file_path: join(workspace, 'b.txt'), old_string: 'beta', new_string: 'BETA' } },
      { id: '4', name: 'Bash', input: { command: "mv c d && rm e && printf 'x\\r\\n' > f && chmod +x g && ln -s a h" } },
    ];
    const run = cli(['run', ...common, '--approve', 'allow', '--json', '-'], JSON.stringify(calls));
    assert.equal(run.code, 0, run.stderr);
    const results = run.stdout.trim().split('\n').slice(0, -1).map((line) => JSON.parse(line) as { isError: boolean });
    assert.deepEqual(results.map((result) => result.isError), [false, false, false, false], run.stdout);
    turned = treeHash(workspace);
    assert.notEqual(turned, original);

    const listed = cli(['checkpoints', 'list', ...common, '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    const turns = listed.stdout.trim().split('\n').map((line) => JSON.parse(line) as { turn: string; kind: string });
    assert.deepEqual(turns.map((turn) => turn.kind), ['turn']);

    const undo = cli(['undo', ...common, '--json']);
    assert.equal(undo.code, 0, undo.stderr);
    const summary = JSON.parse(undo.stdout) as { undone: string; restored: { path: string; was: string }[]; redoWith: string };
    assert.equal(summary.undone, turns[0]!.turn);
    assert.deepEqual(summary.restored.map((entry) => `${entry.was} ${entry.path}`).sort(), ['created a.txt', 'created d', 'created f', 'created h', 'deleted c', 'deleted e', 'modified b.txt', 'modified g']);
    assert.equal(treeHash(workspace), original);

    const redo = cli(['undo', ...common, '--turn', summary.redoWith]);
    assert.equal(redo.code, 0, redo.stderr);
    assert.match(redo.stdout, /^Undid turn undo-/);
    assert.equal(treeHash(workspace), turned);
  });

  it('skips a file changed since the turn unless --force, and says so', () => {
    fs.writeFileSync(join(workspace, 'a.txt'), 'the user wrote this\n');
    const turns = cli(['checkpoints', 'list', ...common, '--json']).stdout.trim().split('\n').map((line) => JSON.parse(line) as { turn: string; kind: string });
    const first = turns.find((turn) => turn.kind === 'turn')!;
    const undo = cli(['undo', ...common, '--turn', first.turn]);
    assert.equal(undo.code, 0, undo.stderr);
    assert.match(undo.stdout, /skipped, changed since by turn undo-run-\S+, undo-undo-run-\S+ \(--force overwrites\): a\.txt/);
    assert.equal(fs.readFileSync(join(workspace, 'a.txt'), 'utf8'), 'the user wrote this\n');
  });

  it('undoes the rest of a turn an undo skipped part of; refuses once nothing is left, naming the undo that redoes it', () => {
    const turns = cli(['checkpoints', 'list', ...common, '--json']).stdout.trim().split('\n').map((line) => JSON.parse(line) as { turn: string; kind: string });
    const first = turns.find((turn) => turn.kind === 'turn')!;
    const rest = cli(['undo', ...common, '--turn', first.turn, '--force']);
    assert.equal(rest.code, 0, rest.stderr);
    assert.match(rest.stdout, /^Undid turn run-\S+: 1 path put back\.\n  removed: a\.txt\n/);
    assert.equal(fs.existsSync(join(workspace, 'a.txt')), false);
    const before = treeHash(workspace);
    const again = cli(['undo', ...common, '--turn', first.turn]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, new RegExp(`turn ${first.turn} is already undone \\(by undo-${first.turn}-[0-9a-f]+\\); undoing undo-${first.turn}-[0-9a-f]+ redoes it`));
    assert.equal(treeHash(workspace), before);
  });

  it('names a missing turn and an empty store plainly', () => {
    const missing = cli(['undo', ...common, '--turn', 'nope']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no checkpoints are kept for turn nope/);
    const cleared = cli(['checkpoints', 'clear', ...common]);
    assert.match(cleared.stdout, /^Removed the checkpoints of \d+ turns\.$/m);
    const none = cli(['undo', ...common]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /nothing to undo/);
  });
});
