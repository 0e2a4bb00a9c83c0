// The incremental walk: what a later checkpoint may take from the last one (file stats, folder
// listings, ignore decisions) and what must make it look again. Real files; the clock is mocked only
// where a test needs a walk to start at a given instant.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, afterEach, describe, it, mock } from 'node:test';
import { ObjectStore } from '../../../../src/node/checkpoints/objectStore';
import { CHECKPOINT_COARSE_RACY_MS, CHECKPOINT_RACY_MS, entryAt, readTree, settled } from '../../../../src/node/checkpoints/tree';
import { WalkMemo, writeTree, type TreeResult } from '../../../../src/node/checkpoints/walk';

const roots: string[] = [];
after(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});
afterEach(() => mock.timers.reset());

/** Past the racy window of every stat written before it. */
const settle = () => new Promise((resolve) => setTimeout(resolve, CHECKPOINT_RACY_MS + 20));

function setup(files: Record<string, string>, ignoreFiles: readonly string[] = []) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ckpt-walk-'));
  roots.push(root);
  const folder = path.join(root, 'ws');
  fs.mkdirSync(folder);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    fs.writeFileSync(path.join(folder, name), content);
  }
  const store = new ObjectStore(path.join(root, 'objects'));
  const memo = new WalkMemo();
  let last: { tree: string; takenAt: number } | undefined;
  const walk = async (at?: string): Promise<TreeResult> => {
    const takenAt = Date.now();
    const result = await writeTree(at ?? folder, { store, ignoreFiles, skip: new Set(), memo, ...(last ? { previous: last } : {}) });
    last = { tree: result.tree, takenAt };
    return result;
  };
  const names = (tree: string, relative = ''): string[] => {
    let listing = readTree(store, tree);
    for (const part of relative.split('/').filter(Boolean)) {
      const entry = listing[part];
      assert.equal(entry?.k, 'd', `${relative} is a folder in the checkpoint`);
      listing = readTree(store, (entry as { h: string }).h);
    }
    return Object.keys(listing);
  };
  const content = (tree: string, relative: string): string | undefined => {
    const entry = entryAt(store, tree, relative);
    return entry?.k === 'f' ? store.get(entry.h).toString('utf8') : undefined;
  };
  return { root, folder, store, memo, walk, names, content };
}

describe('a later walk takes from the last one only what cannot have changed', () => {
  it('lists no folder and reads no file again when nothing changed', async () => {
    const { walk } = setup({ 'a.txt': 'a', 'd/b.txt': 'b', 'd/e/c.txt': 'c' });
    const first = await walk();
    assert.deepEqual([first.read, first.listed], [3, 3]);
    await settle();
    await walk();
    await settle();
    const later = await walk();
    assert.deepEqual([later.read, later.listed, later.files], [0, 0, 3]);
  });

  it('sees a file added, removed or renamed in an unchanged-looking tree, and lists only that folder', async () => {
    const { folder, walk, names } = setup({ 'a.txt': 'a', 'd/b.txt': 'b', 'd/e/c.txt': 'c', 'x/y.txt': 'y' });
    await walk();
    await settle();
    await walk();
    await settle();
    fs.writeFileSync(path.join(folder, 'd/e/new.txt'), 'new');
    fs.renameSync(path.join(folder, 'd/b.txt'), path.join(folder, 'd/renamed.txt'));
    fs.rmSync(path.join(folder, 'x/y.txt'));
    const later = await walk();
    assert.equal(later.listed, 3, 'd, d/e and x, not the root');
    assert.deepEqual(names(later.tree, 'd'), ['e', 'renamed.txt']);
    assert.deepEqual(names(later.tree, 'd/e'), ['c.txt', 'new.txt']);
    assert.deepEqual(names(later.tree, 'x'), []);
  });

  it('a folder replaced by a file, and a file by a folder, of the same names', async () => {
    const { folder, walk, names, content } = setup({ 'p/q/inner.txt': 'inner', 'p/file': 'was a file' });
    await walk();
    await settle();
    await walk();
    await settle();
    fs.rmSync(path.join(folder, 'p/q'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'p/q'), 'now a file');
    fs.rmSync(path.join(folder, 'p/file'));
    fs.mkdirSync(path.join(folder, 'p/file'));
    fs.writeFileSync(path.join(folder, 'p/file/inside.txt'), 'inside');
    const later = await walk();
    assert.equal(content(later.tree, 'p/q'), 'now a file');
    assert.deepEqual(names(later.tree, 'p/file'), ['inside.txt']);
    await settle();
    // And back: the memo of p/q as a folder must not answer for the file, nor the reverse.
    fs.rmSync(path.join(folder, 'p/q'));
    fs.mkdirSync(path.join(folder, 'p/q'));
    fs.writeFileSync(path.join(folder, 'p/q/again.txt'), 'again');
    const back = await walk();
    assert.deepEqual(names(back.tree, 'p/q'), ['again.txt']);
  });

  it('a folder listed in the same clock tick as its last change is listed again', async () => {
    const { folder, walk, names } = setup({ 'd/a.txt': 'a' });
    // The walk starts at the instant the root last changed (d changed after): a change in that tick may leave an mtime as it is.
    const base = Math.floor(fs.statSync(folder).mtimeMs);
    mock.timers.enable({ apis: ['Date'], now: base });
    await walk();
    mock.timers.setTime(base + 100 * CHECKPOINT_RACY_MS);
    const second = await walk();
    assert.equal(second.listed, 2, 'the root and d were read too close to their change to be trusted');
    mock.timers.setTime(base + 200 * CHECKPOINT_RACY_MS);
    const third = await walk();
    assert.equal(third.listed, 0, 'the second walk read them long after');
    assert.deepEqual(names(third.tree, 'd'), ['a.txt']);
  });

  it('a file written in the same clock tick as the last checkpoint is read again, whatever its stat', async () => {
    const { folder, store, memo } = setup({ 'f.txt': 'v1' });
    const first = await writeTree(folder, { store, ignoreFiles: [], skip: new Set(), memo });
    const { mtimeMs } = fs.statSync(path.join(folder, 'f.txt'));
    const racy = await writeTree(folder, { store, ignoreFiles: [], skip: new Set(), memo, previous: { tree: first.tree, takenAt: mtimeMs } });
    assert.equal(racy.read, 1);
    const trusted = await writeTree(folder, { store, ignoreFiles: [], skip: new Set(), memo, previous: { tree: racy.tree, takenAt: mtimeMs + 2 * CHECKPOINT_RACY_MS } });
    assert.equal(trusted.read, 0);
  });

  it('a stat in whole seconds (a coarse file system) is trusted only seconds later', () => {
    assert.equal(settled(1_000_000.25, 1_000_000.25, 1_000_000 + CHECKPOINT_RACY_MS + 1), true);
    assert.equal(settled(1_000_000, 1_000_000, 1_000_000 + CHECKPOINT_RACY_MS + 1), false);
    assert.equal(settled(1_000_000, 1_000_000, 1_000_000 + CHECKPOINT_COARSE_RACY_MS + 1), true);
    assert.equal(settled(1_000_000, 1_000_000.5, 1_000_000 + CHECKPOINT_RACY_MS), false, 'a ctime in the window');
  });

  it('follows a root that is a link, and sees what changes behind it', async () => {
    const { root, folder, walk, names } = setup({ 'a.txt': 'a' });
    const link = path.join(root, 'link');
    fs.symlinkSync(folder, link);
    await walk(link);
    await settle();
    await walk(link);
    await settle();
    fs.writeFileSync(path.join(folder, 'b.txt'), 'b');
    const later = await walk(link);
    assert.deepEqual(names(later.tree), ['a.txt', 'b.txt']);
  });
});

describe('ignore decisions kept between walks', () => {
  it('an ignore file edited between checkpoints: a formerly ignored file is recorded, a newly ignored one left out', async () => {
    const { folder, walk, names } = setup({ '.gitignore': 'build/\n*.log\n', 'sub/.gitignore': 'secret.txt\n', 'sub/secret.txt': 's', 'sub/keep.txt': 'k', 'build/out.js': 'o', 'a.log': 'l', 'src.ts': 's', '.aiignore': 'src.ts\n' }, ['.aiignore']);
    const first = await walk();
    assert.deepEqual(names(first.tree), ['.aiignore', '.gitignore', 'sub']);
    assert.deepEqual(names(first.tree, 'sub'), ['.gitignore', 'keep.txt']);
    await settle();
    await walk();
    await settle();
    // Edited in place: no folder's names change, only the rules.
    fs.writeFileSync(path.join(folder, '.gitignore'), '*.log\nkeep.txt\n');
    fs.writeFileSync(path.join(folder, 'sub/.gitignore'), '# nothing\n');
    fs.writeFileSync(path.join(folder, '.aiignore'), 'a.log\n');
    const later = await walk();
    assert.equal(later.listed, 1, 'only build, walked for the first time: the other folders kept their names, yet the decisions changed');
    assert.deepEqual(names(later.tree), ['.aiignore', '.gitignore', 'build', 'src.ts', 'sub']);
    assert.deepEqual(names(later.tree, 'sub'), ['.gitignore', 'secret.txt']);
    assert.deepEqual(names(later.tree, 'build'), ['out.js']);
  });

  it('an ignore file removed, then added back', async () => {
    const { folder, walk, names } = setup({ 'sub/.gitignore': 'x.txt\n', 'sub/x.txt': 'x', 'sub/y.txt': 'y' });
    assert.deepEqual(names((await walk()).tree, 'sub'), ['.gitignore', 'y.txt']);
    await settle();
    fs.rmSync(path.join(folder, 'sub/.gitignore'));
    assert.deepEqual(names((await walk()).tree, 'sub'), ['x.txt', 'y.txt']);
    await settle();
    fs.writeFileSync(path.join(folder, 'sub/.gitignore'), 'y.txt\n');
    assert.deepEqual(names((await walk()).tree, 'sub'), ['.gitignore', 'x.txt']);
  });
});
