// The one owner of opening a tool's path (src/tools/fileAccess/judgedFile.ts), with each swap the race test can
// only hit by chance made on purpose: a link where a file was judged, a folder turned into a link.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { closeQuietly, createNew, openForRead, openForReadSync, openForUpdate, PATH_CHANGED } from '../../../src/tools/fileAccess/judgedFile';

const CHANGED = (error: unknown) => (error as NodeJS.ErrnoException).code === PATH_CHANGED && /changed between its permission check and its open/.test((error as Error).message);

describe('judgedFile', () => {
  let root: string;
  let ws: string;
  let outside: string;
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'judged-file-')));
    ws = path.join(root, 'ws');
    outside = path.join(root, 'outside');
    fs.mkdirSync(ws);
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret'), 'secret\n');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('opens the judged file, and refuses a link that now stands in its place', async () => {
    const judged = path.join(ws, 'a.txt');
    fs.writeFileSync(judged, 'alpha\n');
    closeQuietly(openForReadSync(judged));
    closeQuietly(await openForRead(judged));
    fs.rmSync(judged);
    fs.symlinkSync(path.join(outside, 'secret'), judged);
    assert.throws(() => openForReadSync(judged), CHANGED);
    await assert.rejects(openForRead(judged), CHANGED);
    await assert.rejects(openForUpdate(judged), CHANGED);
    await assert.rejects(createNew(judged), CHANGED);
    assert.equal(fs.readFileSync(path.join(outside, 'secret'), 'utf8'), 'secret\n');
  });

  it('refuses a file reached through a folder that became a link since it was judged', async () => {
    const judged = path.join(ws, 'sub', 'secret');
    // `sub` was a real folder when judged; now it leads out of the workspace.
    fs.symlinkSync(outside, path.join(ws, 'sub'));
    assert.throws(() => openForReadSync(judged), (error) => CHANGED(error) && (error as Error).message.includes(`it is now ${path.join(outside, 'secret')}`));
    await assert.rejects(openForUpdate(judged), CHANGED);
  });

  it('never creates a file or folder through a link swapped in', async () => {
    // A new file under `sub/deeper`, judged when neither existed; `sub` is now a link out.
    fs.symlinkSync(outside, path.join(ws, 'sub'));
    await assert.rejects(createNew(path.join(ws, 'sub', 'deeper', 'new.txt')), CHANGED);
    // A dangling link where the new file goes.
    fs.symlinkSync(path.join(outside, 'created'), path.join(ws, 'new.txt'));
    await assert.rejects(createNew(path.join(ws, 'new.txt')), CHANGED);
    assert.deepEqual(fs.readdirSync(outside), ['secret']);
  });

  it('creates missing folders and the new file inside the judged folder, and names it in errors', async () => {
    const judged = path.join(ws, 'a', 'b', 'new.txt');
    const handle = await createNew(judged);
    await handle.write('new\n');
    await handle.close();
    assert.equal(fs.readFileSync(judged, 'utf8'), 'new\n');
    // Something appeared there since: not overwritten, and the error names the path, not a descriptor.
    await assert.rejects(createNew(judged), (error: NodeJS.ErrnoException) => error.code === 'EEXIST' && error.message.includes(judged) && !error.message.includes('/proc/'));
    assert.equal(await openForUpdate(path.join(ws, 'missing.txt')), undefined);
  });
});
