import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { judgePath } from '../../../src/executor/policy/path/judgePath';
import { makeWorkspace, type Workspace } from './helpers';

describe('Write', () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.dispose());

  it('creates a new file and its parent folders, with a file_diff display', async () => {
    const result = await ws.run('Write', { path: 'deep/er/new.txt', content: 'one\ntwo\n' });
    assert.equal(result.isError, false);
    assert.equal(result.modelContent.split('\n')[0], 'Created deep/er/new.txt (2 lines, 8 B).');
    assert.equal(ws.read('deep/er/new.txt'), 'one\ntwo\n');
    assert.equal(result.display?.kind, 'file_diff');
    if (result.display?.kind !== 'file_diff') return;
    assert.equal(result.display.before, '');
    assert.equal(result.display.after, 'one\ntwo\n');
    assert.match(result.display.diff, /\+one\n\+two/);
  });

  it('refuses to overwrite a file that was not read in this session', async () => {
    ws.write('a.txt', 'original');
    const result = await ws.run('Write', { path: 'a.txt', content: 'new' });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /<tool_use_error>.*a\.txt has not been read in this session\. Read it first, then write to it\.<\/tool_use_error>/);
    assert.equal(ws.read('a.txt'), 'original');
  });

  it('overwrites a file that was read, and shows the diff', async () => {
    ws.write('a.txt', 'one\ntwo\n');
    await ws.run('Read', { path: 'a.txt' });
    const result = await ws.run('Write', { file_path: 'a.txt', content: 'one\nTWO\n' });
    assert.equal(result.isError, false);
    assert.match(result.modelContent, /^Updated a\.txt \(2 lines, 8 B\)\./);
    assert.equal(ws.read('a.txt'), 'one\nTWO\n');
    assert.ok(result.display?.kind === 'file_diff' && /-two\n\+TWO/.test(result.display.diff));
  });

  it('refuses when the file changed after it was read', async () => {
    ws.write('a.txt', 'one');
    await ws.run('Read', { path: 'a.txt' });
    ws.write('a.txt', 'changed by the user');
    const result = await ws.run('Write', { path: 'a.txt', content: 'mine' });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /has changed since it was last read .*Read it again, then write to it\./);
    assert.equal(ws.read('a.txt'), 'changed by the user');
  });

  it('needs no new Read to write again a file it just wrote', async () => {
    await ws.run('Write', { path: 'a.txt', content: 'first' });
    const again = await ws.run('Write', { path: 'a.txt', content: 'second' });
    assert.equal(again.isError, false);
    assert.equal(ws.read('a.txt'), 'second');
  });

  it('keeps the BOM and UTF-16 encoding of an existing file', async () => {
    const bomFile = ws.write('bom.txt', Buffer.from('\uFEFFold', 'utf8'));
    const utf16 = ws.write('wide.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('old', 'utf16le')]));
    await ws.run('Read', { path: 'bom.txt' });
    await ws.run('Read', { path: 'wide.txt' });
    await ws.run('Write', { path: 'bom.txt', content: 'new' });
    await ws.run('Write', { path: 'wide.txt', content: 'new' });
    assert.deepEqual(fs.readFileSync(bomFile), Buffer.from('\uFEFFnew', 'utf8'));
    assert.deepEqual(fs.readFileSync(utf16), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('new', 'utf16le')]));
  });

  it('refuses a directory path', async () => {
    fs.mkdirSync(ws.file('sub'));
    const result = await ws.run('Write', { path: 'sub', content: 'x' });
    assert.match(result.modelContent, /is a directory; give a file path/);
  });

  it('reports a file-system failure as a result, not a crash', async () => {
    fs.writeFileSync(ws.file('blocker'), 'a file where a folder should be');
    const result = await ws.run('Write', { path: 'blocker/child.txt', content: 'x' });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /cannot write .*blocker\/child\.txt: .*(ENOTDIR|EEXIST)/);
  });

  it('offers an approval preview of the content, and the whole change for a diff editor', async () => {
    const def = ws.executor.registry.get('Write')!.def;
    const prepared = await def.prepareApproval!({ path: 'x.txt', content: 'a\nb' }, new AbortController().signal, { workspaceFolders: [ws.dir] });
    assert.deepEqual(prepared.preview, { title: 'Write x.txt', detail: '2 lines (3 B):\na\nb', change: { path: ws.file('x.txt'), before: '', after: 'a\nb' } });
    assert.equal(fs.existsSync(ws.file('x.txt')), false, 'nothing was written');
  });

  it('shows in the diff the file the permission was judged on, not what its name points at by now', async () => {
    ws.write('a.txt', 'judged\n');
    ws.write('.env', 'TOKEN=secret\n');
    const judged = await judgePath('a.txt', [ws.dir]);
    fs.rmSync(ws.file('a.txt'));
    fs.symlinkSync(ws.file('.env'), ws.file('a.txt'));
    const def = ws.executor.registry.get('Write')!.def;
    const prepared = await def.prepareApproval!({ path: 'a.txt', content: 'new' }, new AbortController().signal, { workspaceFolders: [ws.dir], judgePath: async () => judged });
    // The judged file is a link now: no diff rather than the secret file's content.
    assert.equal(prepared.preview?.change, undefined);
  });
});
