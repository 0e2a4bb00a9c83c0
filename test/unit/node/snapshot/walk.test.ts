import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { LISTING_RACY_MS, walkWorkspace, type ListingCache } from '../../../../src/node/snapshot/walk';

/** Folders whose mtime is an hour old, and (ctime being now) a wait until the walk keeps their listings. */
async function age(folders: readonly string[]): Promise<void> {
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const folder of folders) utimesSync(folder, hourAgo, hourAgo);
  await sleep(LISTING_RACY_MS + 20);
}

describe('walkWorkspace with the listings of an earlier walk', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'walk-'));
  });
  after(() => {
    rmSync(root, { recursive: true, force: true });
  });
  const files = async (listings: ListingCache) => [...(await walkWorkspace(root, {}, undefined, listings)).files.keys()].map((file) => path.relative(root, file)).sort();

  it('lists a folder from them while its inode, mtime and ctime are unchanged', async () => {
    mkdirSync(path.join(root, 'kept'), { recursive: true });
    writeFileSync(path.join(root, 'kept', 'a.txt'), 'a');
    await age([root, path.join(root, 'kept')]);
    const listings: ListingCache = new Map();
    assert.deepEqual(await files(listings), ['kept/a.txt']);
    const kept = listings.get(path.join(root, 'kept'));
    assert.ok(kept, 'the listing of an unchanged folder is kept');
    // A listing that differs from the disk shows that the walk used it instead of reading again.
    listings.set(path.join(root, 'kept'), { ...kept, entries: [] });
    assert.deepEqual(await files(listings), []);
    listings.clear();
  });

  it('reads a folder again once a name in it was created, deleted or renamed, and forgets folders gone', async () => {
    mkdirSync(path.join(root, 'x', 'y'), { recursive: true });
    writeFileSync(path.join(root, 'x', 'y', 'old.txt'), 'o');
    writeFileSync(path.join(root, 'x', 'y', 'gone.txt'), 'g');
    mkdirSync(path.join(root, 'z'));
    await age([root, path.join(root, 'kept'), path.join(root, 'x'), path.join(root, 'x', 'y'), path.join(root, 'z')]);
    const listings: ListingCache = new Map();
    assert.deepEqual(await files(listings), ['kept/a.txt', 'x/y/gone.txt', 'x/y/old.txt']);
    assert.ok(listings.has(path.join(root, 'x', 'y')) && listings.has(path.join(root, 'z')));
    writeFileSync(path.join(root, 'x', 'y', 'new.txt'), 'n');
    unlinkSync(path.join(root, 'x', 'y', 'gone.txt'));
    renameSync(path.join(root, 'x', 'y', 'old.txt'), path.join(root, 'x', 'y', 'renamed.txt'));
    rmSync(path.join(root, 'z'), { recursive: true });
    assert.deepEqual(await files(listings), ['kept/a.txt', 'x/y/new.txt', 'x/y/renamed.txt']);
    assert.ok(!listings.has(path.join(root, 'z')), 'a folder no longer walked is forgotten');
  });
});
