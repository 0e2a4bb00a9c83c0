import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CheckpointStore } from '../../../../src/node/checkpoints/checkpointStore';
import { CHECKPOINT_MAX_FILE_BYTES } from '../../../../src/node/checkpoints/tree';
import { AlreadyReversedError, planUndo, undoTurn, type Conflict } from '../../../../src/node/checkpoints/undo';
import { treeHash, treeListing } from './treeHash';

const roots: string[] = [];
function workspace(files: Record<string, string | Buffer>): { folder: string; store: CheckpointStore } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ckpt-'));
  roots.push(root);
  const folder = path.join(root, 'ws');
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    fs.writeFileSync(path.join(folder, name), content);
  }
  fs.mkdirSync(folder, { recursive: true });
  return { folder, store: new CheckpointStore(path.join(root, 'storage'), { ignoreFiles: ['.aiignore'] }) };
}
after(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});
const never = (): 'cancel' => assert.fail('no conflict was expected');

describe('undo of a turn (real files, a real shell)', () => {
  let folder: string;
  let store: CheckpointStore;
  let original: string;
  let turned: string;
  const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, stdio: 'pipe' });

  before(async () => {
    ({ folder, store } = workspace({ 'b.txt': 'one\ntwo\n', c: 'see', e: 'gone soon', g: '#!/bin/sh\necho g\n', 'nested/inner.txt': 'inner v1\n' }));
    // Group-writable, so a restore that left the mode to the umask (022) would show.
    fs.chmodSync(path.join(folder, 'g'), 0o664);
    git(path.join(folder, 'nested'), 'init', '-q');
    git(path.join(folder, 'nested'), 'add', '-A');
    git(path.join(folder, 'nested'), 'commit', '-qm', 'v1');
    original = treeHash(folder);
    await store.beginTurn('t1', 'make changes', [folder]);
    // The tools' writes…
    fs.writeFileSync(path.join(folder, 'a.txt'), 'created by Write\n');
    fs.writeFileSync(path.join(folder, 'b.txt'), 'one\nTWO\n');
    // …the shell's…
    execFileSync('bash', ['-c', "mv c d && rm e && printf 'x\\r\\n' > f && chmod +x g && ln -s a h"], { cwd: folder });
    // …a file in a nested repository, and a binary file.
    fs.writeFileSync(path.join(folder, 'nested/inner.txt'), 'inner v2\n');
    fs.writeFileSync(path.join(folder, 'blob.bin'), Buffer.from([0, 255, 1, 254, 0, 10, 13]));
    await store.endTurn('t1');
    turned = treeHash(folder);
  });

  it('restores the tree byte for byte, with modes, links, and the nested repository untouched', async () => {
    const gitBefore = treeHash(path.join(folder, 'nested/.git'));
    const outcome = await undoTurn(store, 't1', never);
    assert.deepEqual(outcome.failed, []);
    assert.equal(treeHash(folder), original, treeListing(folder).join('\n'));
    assert.equal(treeHash(path.join(folder, 'nested/.git')), gitBefore, 'no .git is ever written');
    const kinds = Object.fromEntries(outcome.restored.map((entry) => [path.relative(folder, entry.path), entry.kind]));
    assert.deepEqual(kinds, { 'a.txt': 'created', 'b.txt': 'modified', c: 'deleted', d: 'created', e: 'deleted', f: 'created', g: 'modified', h: 'created', 'blob.bin': 'created', 'nested/inner.txt': 'modified' });
  });

  it('redo (the undo of the undo) brings the later tree back', async () => {
    const undo = store.turns().at(-1)!;
    assert.equal(undo.kind, 'undo');
    const outcome = await undoTurn(store, undo.turnId, never);
    assert.equal(outcome.record?.kind, 'redo');
    assert.equal(treeHash(folder), turned);
  });
});

describe('undo never loses what changed after the turn', () => {
  it('asks about a path the user edited since, and skipping keeps the edit', async () => {
    const { folder, store } = workspace({ 'x.txt': 'v1\n', 'y.txt': 'y1\n' });
    await store.beginTurn('t', 'edit', [folder]);
    fs.writeFileSync(path.join(folder, 'x.txt'), 'v2 by the agent\n');
    fs.writeFileSync(path.join(folder, 'y.txt'), 'y2 by the agent\n');
    await store.endTurn('t');
    fs.writeFileSync(path.join(folder, 'x.txt'), 'v3 by the user\n');
    let asked: readonly Conflict[] = [];
    const outcome = await undoTurn(store, 't', (conflicts) => {
      asked = conflicts;
      return 'skip';
    });
    assert.deepEqual(asked.map((conflict) => path.basename(conflict.path)), ['x.txt']);
    assert.deepEqual(asked[0]!.laterTurns, [], 'the user changed it, not a later turn');
    assert.equal(fs.readFileSync(path.join(folder, 'x.txt'), 'utf8'), 'v3 by the user\n');
    assert.equal(fs.readFileSync(path.join(folder, 'y.txt'), 'utf8'), 'y1\n');
    assert.deepEqual(outcome.skipped.map((entry) => path.basename(entry.path)), ['x.txt']);
  });

  it('cancel writes nothing; overwrite restores', async () => {
    const { folder, store } = workspace({ 'x.txt': 'v1\n' });
    await store.beginTurn('t', 'edit', [folder]);
    fs.writeFileSync(path.join(folder, 'x.txt'), 'v2\n');
    await store.endTurn('t');
    fs.writeFileSync(path.join(folder, 'x.txt'), 'v3\n');
    const cancelled = await undoTurn(store, 't', () => 'cancel');
    assert.equal(cancelled.cancelled, true);
    assert.equal(fs.readFileSync(path.join(folder, 'x.txt'), 'utf8'), 'v3\n');
    await undoTurn(store, 't', () => 'overwrite');
    assert.equal(fs.readFileSync(path.join(folder, 'x.txt'), 'utf8'), 'v1\n');
  });

  it('a turn already undone is not undone again (its restored paths are not conflicts), until its undo is redone', async () => {
    const { folder, store } = workspace({ 'x.txt': 'v1\n' });
    await store.beginTurn('t', 'edit', [folder]);
    fs.writeFileSync(path.join(folder, 'x.txt'), 'v2\n');
    await store.endTurn('t');
    const undo = (await undoTurn(store, 't', never)).record!;
    assert.throws(() => planUndo(store, 't'), (error: unknown) => error instanceof AlreadyReversedError && error.by.turnId === undo.turnId && /turn t is already undone \(by undo-t-[0-9a-f]+\); undoing undo-t-[0-9a-f]+ redoes it/.test(error.message));
    await assert.rejects(undoTurn(store, 't', never), AlreadyReversedError);
    assert.equal(fs.readFileSync(path.join(folder, 'x.txt'), 'utf8'), 'v1\n');
    const redo = (await undoTurn(store, undo.turnId, never)).record!;
    assert.throws(() => planUndo(store, undo.turnId), /undo undo-t-[0-9a-f]+ is already redone/);
    assert.equal(store.reversalOf('t'), undefined, 'a redone undo reverses nothing');
    assert.equal(fs.readFileSync(path.join(folder, 'x.txt'), 'utf8'), 'v2\n');
    await undoTurn(store, 't', never);
    assert.equal(fs.readFileSync(path.join(folder, 'x.txt'), 'utf8'), 'v1\n');
    assert.equal(redo.kind, 'redo');
    const standing = store.reversalOf('t');
    assert.ok(standing && standing.turnId !== undo.turnId && standing.kind === 'undo', 'the second undo is the one that stands');
  });

  it('an undo again after one that skipped a path asks about that path alone; a path put back by hand is not asked about', async () => {
    const { folder, store } = workspace({ 'x.txt': 'x1\n', 'y.txt': 'y1\n', 'z.txt': 'z1\n' });
    await store.beginTurn('t', 'edit', [folder]);
    fs.writeFileSync(path.join(folder, 'x.txt'), 'x2\n');
    fs.writeFileSync(path.join(folder, 'y.txt'), 'y2\n');
    fs.writeFileSync(path.join(folder, 'z.txt'), 'z2\n');
    await store.endTurn('t');
    fs.writeFileSync(path.join(folder, 'x.txt'), 'x3 by the user\n');
    fs.writeFileSync(path.join(folder, 'z.txt'), 'z1\n');
    const first = await undoTurn(store, 't', () => 'skip');
    assert.deepEqual(first.restored.map((entry) => path.basename(entry.path)), ['y.txt']);
    const plan = planUndo(store, 't');
    assert.deepEqual(plan.conflicts.map((entry) => path.basename(entry.path)), ['x.txt']);
    assert.deepEqual(plan.alreadyBack.map((file) => path.basename(file)).sort(), ['y.txt', 'z.txt']);
    await undoTurn(store, 't', () => 'overwrite');
    assert.equal(fs.readFileSync(path.join(folder, 'x.txt'), 'utf8'), 'x1\n');
    assert.throws(() => planUndo(store, 't'), AlreadyReversedError);
  });

  it('says which later turn changed a path of an earlier turn', async () => {
    const { folder, store } = workspace({ 'x.txt': 'v1\n' });
    await store.beginTurn('t1', 'first', [folder]);
    fs.writeFileSync(path.join(folder, 'x.txt'), 'v2\n');
    await store.endTurn('t1');
    await store.beginTurn('t2', 'second', [folder]);
    fs.writeFileSync(path.join(folder, 'x.txt'), 'v3\n');
    await store.endTurn('t2');
    const plan = planUndo(store, 't1');
    assert.deepEqual(plan.conflicts.map((conflict) => conflict.laterTurns), [['t2']]);
  });

  it('refuses to write through a link that replaced a folder', async () => {
    const { folder, store } = workspace({ 'dir/x.txt': 'v1\n' });
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ckpt-outside-'));
    roots.push(outside);
    await store.beginTurn('t', 'remove dir', [folder]);
    fs.rmSync(path.join(folder, 'dir'), { recursive: true });
    await store.endTurn('t');
    fs.symlinkSync(outside, path.join(folder, 'dir'));
    // The link is a change since the turn: asked about, and even when overwriting is chosen, never followed.
    const outcome = await undoTurn(store, 't', (conflicts) => {
      assert.deepEqual(conflicts.map((conflict) => path.relative(folder, conflict.path)), ['dir']);
      return 'overwrite';
    });
    assert.deepEqual(outcome.failed.map((entry) => `${path.relative(folder, entry.path)}: ${entry.error}`), ['dir/x.txt: dir is a link now, not a folder', 'dir: a link is there now, not a folder']);
    assert.deepEqual(fs.readdirSync(outside), []);
  });
});

describe('what a checkpoint leaves out is named', () => {
  it('ignored and oversized files are named as not restorable', async () => {
    const { folder, store } = workspace({ '.gitignore': 'build/\n', '.aiignore': 'secret.txt\n', 'keep.txt': 'k\n' });
    await store.beginTurn('t', 'build', [folder]);
    fs.mkdirSync(path.join(folder, 'build'));
    fs.writeFileSync(path.join(folder, 'build/out.js'), 'built');
    fs.writeFileSync(path.join(folder, 'secret.txt'), 's');
    fs.writeFileSync(path.join(folder, 'huge.bin'), Buffer.alloc(CHECKPOINT_MAX_FILE_BYTES + 1));
    await store.endTurn('t', [path.join(folder, 'build/out.js'), path.join(folder, 'secret.txt'), path.join(folder, 'huge.bin')]);
    const plan = planUndo(store, 't');
    assert.deepEqual(
      plan.notRestorable.map((entry) => [path.relative(folder, entry.path), entry.reason]).sort(),
      [['build/out.js', 'ignored'], ['secret.txt', 'ignored']],
    );
    // A file too large for the checkpoint that the turn created: removing it is still an undo.
    assert.deepEqual(plan.safe.map((entry) => [path.relative(folder, entry.path), entry.kind]), [['huge.bin', 'created']]);
  });

  it('a file too large before the turn cannot be restored, and says so', async () => {
    const { folder, store } = workspace({ 'huge.bin': Buffer.alloc(CHECKPOINT_MAX_FILE_BYTES + 1, 1) });
    await store.beginTurn('t', 'shrink', [folder]);
    fs.writeFileSync(path.join(folder, 'huge.bin'), 'small');
    await store.endTurn('t');
    const plan = planUndo(store, 't');
    assert.deepEqual(plan.notRestorable.map((entry) => [path.basename(entry.path), entry.reason]), [['huge.bin', 'too-large']]);
    assert.deepEqual(plan.safe, []);
  });
});

describe('a 5,000-file workspace', () => {
  it('checkpoints incrementally and undoes a 10-file turn exactly', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 5000; index++) files[`d${index % 50}/f${index}.txt`] = `file ${index}\n`;
    const { folder, store } = workspace(files);
    const original = treeHash(folder);
    const first = await store.take([folder]);
    assert.equal(first.read, 5000);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await store.beginTurn('t', 'ten files', [folder]);
    for (let index = 0; index < 10; index++) fs.writeFileSync(path.join(folder, `d${index}/f${index}.txt`), `changed ${index}\n`);
    const turn = await store.endTurn('t');
    assert.ok(turn);
    assert.equal(store.checkpoint(turn.after).read, 10, 'only the changed files are read again');
    const outcome = await undoTurn(store, 't', never);
    assert.equal(outcome.restored.length, 10);
    assert.equal(treeHash(folder), original);
  });
});

describe('retention', () => {
  it('prunes old turns without breaking what kept turns share', async () => {
    const { folder, store } = workspace({ 'shared.txt': 'shared by every checkpoint\n' });
    for (let index = 0; index < 5; index++) {
      await store.beginTurn(`t${index}`, `turn ${index}`, [folder]);
      fs.writeFileSync(path.join(folder, 'n.txt'), `v${index}\n`);
      await store.endTurn(`t${index}`);
    }
    const pruned = store.prune({ maxTurns: 2, maxDays: 7, maxBytes: Infinity });
    assert.equal(pruned.turns, 3);
    assert.ok(pruned.bytes > 0);
    assert.deepEqual(store.turns().map((turn) => turn.turnId), ['t3', 't4']);
    assert.throws(() => planUndo(store, 't0'), /no checkpoints are kept for turn t0/);
    await undoTurn(store, 't4', never);
    assert.equal(fs.readFileSync(path.join(folder, 'n.txt'), 'utf8'), 'v3\n');
    assert.equal(fs.readFileSync(path.join(folder, 'shared.txt'), 'utf8'), 'shared by every checkpoint\n');
  });
});
