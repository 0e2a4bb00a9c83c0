import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FileChangeEvent } from '../../../../src/executor/ports/fileChangeFeed';
import { ChokidarChangeFeed } from '../../../../src/node/snapshot/chokidarFeed';

const never = new AbortController().signal;

// settle() must not return before the watcher's event for a change the kernel already reported:
// the snapshot takes the kind of a change past the walk's limits from that event.
describe('ChokidarChangeFeed.settle', () => {
  let feed: ChokidarChangeFeed;
  let root: string;
  before(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'feed-'));
    mkdirSync(path.join(root, 'a', 'b', 'c', 'd', 'e'), { recursive: true });
    // One file per round: chokidar drops a second change of one file within 50 ms.
    for (let round = 0; round < 5; round++) writeFileSync(path.join(root, 'a', 'b', 'c', 'd', 'e', `old-${round}.txt`), 'old');
    feed = new ChokidarChangeFeed();
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
