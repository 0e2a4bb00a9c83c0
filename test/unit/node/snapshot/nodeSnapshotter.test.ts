import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatWorkspaceChanges } from '../../../../src/executor/results/workspaceChanges';
import { FsWatchChangeFeed } from '../../../../src/node/snapshot/fsWatchFeed';
import { createNodeSnapshotter, type NodeWorkspaceSnapshotter } from '../../../../src/node/snapshot/nodeSnapshotter';
import { LISTING_RACY_MS } from '../../../../src/node/snapshot/walk';

const never = new AbortController().signal;

function hasPython(): boolean {
  try {
    execFileSync('python3', ['-c', 'import mmap'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function workspace(): string {
  return mkdtempSync(path.join(tmpdir(), 'snap-'));
}

function write(root: string, relative: string, content: string): void {
  mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  writeFileSync(path.join(root, relative), content);
}

for (const mode of ['walk and watcher', 'walk alone'] as const) {
  describe(`NodeWorkspaceSnapshotter (${mode})`, () => {
    let snapshotter: NodeWorkspaceSnapshotter;
    const roots: string[] = [];
    const make = () => {
      const root = workspace();
      roots.push(root);
      return root;
    };
    before(() => {
      snapshotter = createNodeSnapshotter(mode === 'walk alone' ? { feed: false } : {});
    });
    after(async () => {
      await snapshotter.dispose();
      for (const root of roots) rmSync(root, { recursive: true, force: true });
    });

    it("reports W's example exactly: created, modified and deleted with human sizes", async () => {
      const root = make();
      write(root, 'report.txt', 'line\n\n'.slice(0, 6));
      write(root, 'old.log', 'old');
      const session = await snapshotter.begin([root], never);
      write(root, 'notes.md', '# notes\n');
      write(root, 'report.txt', 'line\n'.repeat(300));
      unlinkSync(path.join(root, 'old.log'));
      const changes = await session.finish();
      assert.equal(
        formatWorkspaceChanges(changes),
        ['[Workspace Changes]', '+ notes.md (created, 8 B)', '~ report.txt (modified, 6 B → 1.5 KB)', '- old.log (deleted)'].join('\n'),
      );
      const report = changes.find((change) => change.path === 'report.txt')!;
      assert.equal(report.absolutePath, path.join(root, 'report.txt'));
      assert.equal(report.sizeAfter, 1500);
      assert.ok(report.mtimeAfterMs! > 0);
    });

    it('reports a command writing 7 levels deep', async () => {
      const root = make();
      const session = await snapshotter.begin([root], never);
      execFileSync('sh', ['-c', 'mkdir -p a/b/c/d/e/f && echo deep > a/b/c/d/e/f/g.txt'], { cwd: root });
      const changes = await session.finish();
      assert.deepEqual(
        changes.map((change) => `${change.kind} ${change.path}`),
        ['created a/b/c/d/e/f/g.txt'],
      );
    });

    it('skips .git, node_modules and .venv, and *.pyc, *.swp, *.tmp', async () => {
      const root = make();
      mkdirSync(path.join(root, 'node_modules'));
      const session = await snapshotter.begin([root], never);
      write(root, 'node_modules/x/index.js', 'x');
      write(root, '.git/HEAD', 'ref');
      write(root, '.venv/bin/python', '#');
      write(root, 'src/cache.pyc', 'b');
      write(root, 'src/.edit.swp', 's');
      write(root, 'build.tmp', 't');
      write(root, 'src/kept.ts', 'k');
      const changes = await session.finish();
      assert.deepEqual(
        changes.map((change) => change.path),
        ['src/kept.ts'],
      );
    });

    it('prefixes paths with the folder name when there are several folders', async () => {
      const first = make();
      const second = make();
      const session = await snapshotter.begin([first, second], never);
      write(second, 'b.txt', 'b');
      const changes = await session.finish();
      assert.deepEqual(
        changes.map((change) => change.path),
        [`${path.basename(second)}/b.txt`],
      );
    });

    it('runs to completion when the call was cancelled: finish takes no signal', async () => {
      const root = make();
      const controller = new AbortController();
      const session = await snapshotter.begin([root], controller.signal);
      write(root, 'half-written.txt', 'partial');
      controller.abort();
      const changes = await session.finish();
      assert.deepEqual(
        changes.map((change) => change.path),
        ['half-written.txt'],
      );
    });

    it('rejects begin when the signal is already aborted', async () => {
      const root = make();
      await assert.rejects(snapshotter.begin([root], AbortSignal.abort()));
    });
  });
}

describe('NodeWorkspaceSnapshotter: beyond the walk (watcher events)', () => {
  let snapshotter: NodeWorkspaceSnapshotter;
  let root: string;
  before(() => {
    snapshotter = createNodeSnapshotter();
    root = workspace();
  });
  after(async () => {
    await snapshotter.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  it('reports a modification deeper than 4 levels in a folder that already existed', async () => {
    write(root, 'deep/a/b/c/d/e/f.txt', 'before');
    const session = await snapshotter.begin([root], never);
    write(root, 'deep/a/b/c/d/e/f.txt', 'after, longer');
    const changes = await session.finish();
    assert.equal(formatWorkspaceChanges(changes), '[Workspace Changes]\n~ deep/a/b/c/d/e/f.txt (modified, 13 B)');
  });

  it('reports a deletion deeper than 4 levels of a file an earlier call created', async () => {
    const earlier = await snapshotter.begin([root], never);
    write(root, 'gone/a/b/c/d/e/f.txt', 'bye');
    assert.equal((await earlier.finish()).length, 1);
    const session = await snapshotter.begin([root], never);
    unlinkSync(path.join(root, 'gone/a/b/c/d/e/f.txt'));
    const changes = await session.finish();
    assert.deepEqual(
      changes.map((change) => `${change.kind} ${change.path}`),
      ['deleted gone/a/b/c/d/e/f.txt'],
    );
  });

  it('reports a change past file 500', async () => {
    const many = workspace();
    try {
      for (let index = 0; index < 600; index++) write(many, `f${String(index).padStart(4, '0')}.txt`, 'x');
      const session = await snapshotter.begin([many], never);
      write(many, 'f0599.txt', 'changed');
      const changes = await session.finish();
      assert.deepEqual(
        changes.map((change) => `${change.kind} ${change.path}`),
        ['modified f0599.txt'],
      );
    } finally {
      rmSync(many, { recursive: true, force: true });
    }
  });
});

// The before-snapshot of a call is the previous call's walk again when the watcher saw no change
// since: these fail if that walk were reused after a change.
describe('NodeWorkspaceSnapshotter: one call after another', () => {
  let feed: FsWatchChangeFeed;
  let snapshotter: NodeWorkspaceSnapshotter;
  let root: string;
  before(() => {
    feed = new FsWatchChangeFeed();
    snapshotter = createNodeSnapshotter({ feed });
    root = workspace();
  });
  after(async () => {
    await snapshotter.dispose();
    rmSync(root, { recursive: true, force: true });
  });
  const call = async (during: () => void) => {
    const session = await snapshotter.begin([root], never);
    during();
    return (await session.finish()).map((change) => `${change.kind} ${change.path}`);
  };

  it('reports a file modified in place during a call, in a folder whose listing did not change', async () => {
    write(root, 'src/a.txt', 'a');
    write(root, 'src/b.txt', 'b');
    write(root, 'src/deep/c/d/e.txt', 'e');
    await call(() => undefined);
    assert.deepEqual(await call(() => undefined), []);
    assert.deepEqual(await call(() => write(root, 'src/b.txt', 'b, longer')), ['modified src/b.txt']);
    assert.deepEqual(await call(() => write(root, 'src/deep/c/d/e.txt', 'e, longer')), ['modified src/deep/c/d/e.txt']);
  });

  it('does not report to a call what changed between it and the call before', async () => {
    write(root, 'keep/a.txt', 'a');
    write(root, 'keep/gone.txt', 'gone');
    await call(() => undefined);
    write(root, 'keep/a.txt', 'a, modified between calls');
    write(root, 'keep/new.txt', 'created between calls');
    write(root, 'keep/fresh/folder/f.txt', 'f');
    unlinkSync(path.join(root, 'keep/gone.txt'));
    // (An event that arrives after the next call began is that call's: a deletion would be reported.)
    await feed.settle();
    assert.deepEqual(await call(() => write(root, 'keep/during.txt', 'd')), ['created keep/during.txt']);
  });

  it('reports what changed in folders whose listings an earlier walk kept: in place, created, deleted, renamed', async () => {
    write(root, 'aged/one/two/same.txt', 'same');
    write(root, 'aged/one/two/gone.txt', 'gone');
    write(root, 'aged/one/two/old-name.txt', 'renamed');
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const folder of ['', 'aged', 'aged/one', 'aged/one/two']) utimesSync(path.join(root, folder), hourAgo, hourAgo);
    // Until their ctime (now) is old enough for the walk to keep their listings.
    await sleep(LISTING_RACY_MS + 20);
    await call(() => undefined);
    assert.deepEqual(await call(() => write(root, 'aged/one/two/same.txt', 'same, longer')), ['modified aged/one/two/same.txt']);
    assert.deepEqual(
      await call(() => {
        write(root, 'aged/one/two/new.txt', 'new');
        unlinkSync(path.join(root, 'aged/one/two/gone.txt'));
        renameSync(path.join(root, 'aged/one/two/old-name.txt'), path.join(root, 'aged/one/two/new-name.txt'));
      }),
      ['created aged/one/two/new-name.txt', 'created aged/one/two/new.txt', 'deleted aged/one/two/gone.txt', 'deleted aged/one/two/old-name.txt'],
    );
  });

  it('reports a file written through mmap, which the kernel does not report, in a folder whose listing was kept', { skip: !hasPython() && 'needs python3 for mmap' }, async () => {
    write(root, 'mapped/m.txt', 'abcdef');
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const folder of ['', 'mapped']) utimesSync(path.join(root, folder), hourAgo, hourAgo);
    utimesSync(path.join(root, 'mapped/m.txt'), hourAgo, hourAgo);
    await sleep(LISTING_RACY_MS + 20);
    await call(() => undefined);
    const mmapWrite = 'import mmap,sys\nwith open(sys.argv[1], "r+b") as f:\n  m = mmap.mmap(f.fileno(), 0)\n  m[0:3] = b"XYZ"\n  m.flush()\n  m.close()';
    assert.deepEqual(await call(() => execFileSync('python3', ['-c', mmapWrite, path.join(root, 'mapped/m.txt')])), ['modified mapped/m.txt']);
  });

  it('does not report to a call a file modified or created right before it began', async () => {
    write(root, 'soon/a.txt', 'a');
    await call(() => undefined);
    assert.deepEqual(await call(() => undefined), []);
    write(root, 'soon/a.txt', 'a, modified right before the call');
    write(root, 'soon/b.txt', 'created right before the call');
    assert.deepEqual(await call(() => undefined), []);
  });
});

describe('NodeWorkspaceSnapshotter: a workspace folder named like a skipped one', () => {
  it('still watches and walks it (only folders below it are skipped)', async () => {
    const parent = workspace();
    const root = path.join(parent, 'venv');
    mkdirSync(root);
    write(root, 'existing/a/b/c/d/e.txt', 'x');
    const snapshotter = createNodeSnapshotter();
    try {
      const session = await snapshotter.begin([root], never);
      write(root, 'existing/a/b/c/d/e.txt', 'changed');
      write(root, 'new.txt', 'n');
      const changes = await session.finish();
      assert.deepEqual(
        changes.map((change) => `${change.kind} ${change.path}`),
        ['created new.txt', 'modified existing/a/b/c/d/e.txt'],
      );
    } finally {
      await snapshotter.dispose();
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
