import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FileChangeEvent } from '../../../../src/executor/ports/workspace/fileChangeFeed';
import { FsWatchChangeFeed } from '../../../../src/node/snapshot/fsWatchFeed';

const never = new AbortController().signal;

// settle() must not return before the watcher's event for a change the kernel already reported:
// the snapshot takes the kind of a change past the walk's limits from that event.
describe('FsWatchChangeFeed.settle', () => {
  let feed: FsWatchChangeFeed;
  let root: string;
  before(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'feed-'));
    mkdirSync(path.join(root, 'a', 'b', 'c', 'd', 'e'), { recursive: true });
    // One file per round, so each round's modification is its own.
    for (let round = 0; round < 5; round++) writeFileSync(path.join(root, 'a', 'b', 'c', 'd', 'e', `old-${round}.txt`), 'old');
    feed = new FsWatchChangeFeed();
    await feed.start([root], never);
  });
  after(async () => {
    await feed.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  const collect = () => {
    const seen: string[] = [];
    const stop = feed.onChange((event: FileChangeEvent) => seen.push(`${event.kind} ${path.relative(root, event.path)}`));
    return { seen, stop };
  };

  it('returns only after the events of files created, modified and deleted before it was called', async () => {
    for (let round = 0; round < 5; round++) {
      const { seen, stop } = collect();
      const since = Date.now() - 1;
      const created = path.join('a', 'b', 'c', 'd', 'e', `new-${round}.txt`);
      writeFileSync(path.join(root, created), 'new');
      writeFileSync(path.join(root, 'a', 'b', 'c', 'd', 'e', `old-${round}.txt`), `changed ${round}`);
      writeFileSync(path.join(root, `top-${round}.txt`), 'top');
      if (round > 0) unlinkSync(path.join(root, `top-${round - 1}.txt`));
      await feed.settle(since);
      stop();
      assert.ok(seen.includes(`created ${created}`), `round ${round}: ${seen.join(', ')}`);
      assert.ok(seen.includes(`created top-${round}.txt`), `round ${round}: ${seen.join(', ')}`);
      assert.ok(seen.includes(`modified ${path.join('a', 'b', 'c', 'd', 'e', `old-${round}.txt`)}`), `round ${round}: ${seen.join(', ')}`);
      if (round > 0) assert.ok(seen.includes(`deleted top-${round - 1}.txt`), `round ${round}: ${seen.join(', ')}`);
    }
  });

  it('names the folder of each name created, deleted or renamed by the time it returns', async () => {
    const folders = new Set<string | undefined>();
    const stop = feed.onFolderChange((folder) => folders.add(folder));
    const since = Date.now() - 1;
    writeFileSync(path.join(root, 'a', 'b', 'listed.txt'), 'x');
    renameSync(path.join(root, 'a', 'b', 'listed.txt'), path.join(root, 'a', 'b', 'c', 'moved.txt'));
    await feed.settle(since);
    stop();
    assert.ok(folders.has(path.join(root, 'a', 'b')), [...folders].join(', '));
    assert.ok(folders.has(path.join(root, 'a', 'b', 'c')), [...folders].join(', '));
  });

  it('returns only after the event of a folder created before it was called', async () => {
    const { seen, stop } = collect();
    const since = Date.now() - 1;
    mkdirSync(path.join(root, 'fresh', 'inner'), { recursive: true });
    await feed.settle(since);
    stop();
    assert.ok(seen.includes('created fresh'), seen.join(', '));
  });
});

// The watcher follows folders as they come and go; what it reports fills the walk's blind spots.
describe('FsWatchChangeFeed: folders created, removed and renamed', () => {
  let feed: FsWatchChangeFeed;
  let root: string;
  before(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'feed-'));
    feed = new FsWatchChangeFeed();
    await feed.start([root], never);
  });
  after(async () => {
    await feed.dispose();
    rmSync(root, { recursive: true, force: true });
  });
  const during = async (change: () => void) => {
    const seen: string[] = [];
    const stop = feed.onChange((event) => seen.push(`${event.kind} ${path.relative(root, event.path)}${event.directory ? '/' : ''}`));
    change();
    await feed.settle();
    stop();
    return seen;
  };

  it('reports every file of a folder tree created in one go, and a file written in it afterwards', async () => {
    const seen = await during(() => execFileSync('sh', ['-c', 'mkdir -p t/a/b/c/d/e && echo 1 > t/a/one.txt && echo 2 > t/a/b/c/d/e/two.txt'], { cwd: root }));
    for (const expected of ['created t/', 'created t/a/one.txt', 'created t/a/b/c/d/e/two.txt']) assert.ok(seen.includes(expected), `${expected}: ${seen.join(', ')}`);
    const next = await during(() => writeFileSync(path.join(root, 't/a/b/c/d/e/three.txt'), '3'));
    assert.equal(next[0], 'created t/a/b/c/d/e/three.txt', next.join(', '));
  });

  it('reports each file of a folder removed with its content, and of one renamed, at its old and new path', async () => {
    execFileSync('sh', ['-c', 'mkdir -p r/x m/y && echo 1 > r/x/f.txt && echo 2 > m/y/g.txt'], { cwd: root });
    await feed.settle();
    const removed = await during(() => rmSync(path.join(root, 'r'), { recursive: true }));
    for (const expected of ['deleted r/x/f.txt', 'deleted r/x/', 'deleted r/']) assert.ok(removed.includes(expected), `${expected}: ${removed.join(', ')}`);
    const renamed = await during(() => renameSync(path.join(root, 'm'), path.join(root, 'moved')));
    for (const expected of ['deleted m/y/g.txt', 'created moved/', 'created moved/y/g.txt']) assert.ok(renamed.includes(expected), `${expected}: ${renamed.join(', ')}`);
    assert.deepEqual(await during(() => writeFileSync(path.join(root, 'moved/y/g.txt'), 'changed')), ['modified moved/y/g.txt']);
  });

  it('keeps watching a folder removed and made again at once, which may get the same inode number', async () => {
    execFileSync('sh', ['-c', 'mkdir -p again/inner/deeper && echo 1 > again/inner/deeper/a.txt'], { cwd: root });
    await feed.settle();
    for (let round = 0; round < 5; round++) {
      await during(() => execFileSync('sh', ['-c', `rm -rf again/inner && mkdir -p again/inner/deeper && echo ${round} > again/inner/deeper/b.txt`], { cwd: root }));
      const later = await during(() => writeFileSync(path.join(root, 'again/inner/deeper/c.txt'), `${round}`));
      assert.equal(later[0], 'created again/inner/deeper/c.txt', `round ${round}: ${later.join(', ')}`);
    }
  });

  it('reports nothing for a name that came and went before it was looked at (the OS sandbox placeholders)', async () => {
    assert.deepEqual(
      await during(() => {
        writeFileSync(path.join(root, 'placeholder'), '');
        unlinkSync(path.join(root, 'placeholder'));
      }),
      [],
    );
  });
});

// What the events said exists must be what is on disk, whatever order creates, removes and renames come in.
describe('FsWatchChangeFeed: random creates, removes and renames', () => {
  const onDisk = (root: string): Set<string> => {
    const found = new Set<string>();
    const visit = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        found.add(entry.isDirectory() ? `${full}/` : full);
        if (entry.isDirectory()) visit(full);
      }
    };
    visit(root);
    return found;
  };

  for (const seed of [1, 2, 3]) {
    it(`agrees with the disk after each round (seed ${seed})`, async () => {
      const root = mkdtempSync(path.join(tmpdir(), 'feed-random-'));
      const feed = new FsWatchChangeFeed();
      try {
        await feed.start([root], never);
        const reported = new Set<string>();
        feed.onChange((event) => {
          const key = event.directory ? `${event.path}/` : event.path;
          if (event.kind === 'created') reported.add(key);
          else if (event.kind === 'deleted') reported.delete(key);
        });
        let state = seed;
        const next = (below: number) => (state = (state * 1103515245 + 12345) % 2147483648) % below;
        for (let round = 0; round < 15; round++) {
          const steps: string[] = [];
          for (let step = 0; step < 20; step++) {
            const dir = `d${next(3)}/e${next(3)}/f${next(2)}`;
            const file = `${dir}/x${next(4)}`;
            const pick = next(8);
            if (pick < 3) steps.push(`mkdir -p ${dir} && echo ${step} > ${file}`);
            else if (pick < 4) steps.push(`rm -f ${file}`);
            else if (pick < 5) steps.push(`rm -rf d${next(3)}/e${next(3)}`);
            else if (pick < 6) steps.push(`[ -d d${next(3)} ] && rm -rf m && mkdir m && mv d${next(3)} m/z || true`);
            else if (pick < 7) steps.push(`[ -d m/z ] && rm -rf d${next(3)} && mv m/z d${next(3)} || true`);
            else steps.push(`[ -f ${file} ] && mv ${file} ${dir}/y${next(3)} || true`);
          }
          execFileSync('sh', ['-c', steps.join('; ')], { cwd: root });
          await feed.settle();
          const disk = onDisk(root);
          assert.deepEqual([...reported].filter((key) => !disk.has(key)), [], `round ${round}: reported but gone`);
          assert.deepEqual([...disk].filter((key) => !reported.has(key)), [], `round ${round}: on disk but not reported`);
        }
      } finally {
        await feed.dispose();
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
});
