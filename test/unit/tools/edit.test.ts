import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { makeWorkspace, type Workspace } from './helpers';

describe('Edit', () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.dispose());

  async function readFirst(relative: string, content: string | Buffer): Promise<string> {
    const file = ws.write(relative, content);
    await ws.run('Read', { path: relative });
    return file;
  }

  it('replaces a unique match and shows the edited lines with a file_diff display', async () => {
    await readFirst('a.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const result = await ws.run('Edit', { path: 'a.ts', old_string: 'const b = 2;', new_string: 'const b = 20;' });
    assert.equal(result.isError, false);
    assert.equal(ws.read('a.ts'), 'const a = 1;\nconst b = 20;\nconst c = 3;\n');
    assert.match(result.modelContent, /^Edited a\.ts: replaced 1 occurrence\.\n {5}1\tconst a = 1;\n {5}2\tconst b = 20;/);
    assert.ok(result.display?.kind === 'file_diff' && /-const b = 2;\n\+const b = 20;/.test(result.display.diff));
  });

  it('needs a Read first, and a fresh one after an outside change', async () => {
    ws.write('a.txt', 'hello');
    const unread = await ws.run('Edit', { path: 'a.txt', old_string: 'hello', new_string: 'bye' });
    assert.match(unread.modelContent, /has not been read in this session\. Read it first/);
    await ws.run('Read', { path: 'a.txt' });
    ws.write('a.txt', 'hello world');
    const stale = await ws.run('Edit', { path: 'a.txt', old_string: 'hello', new_string: 'bye' });
    assert.match(stale.modelContent, /has changed since it was last read/);
    assert.equal(ws.read('a.txt'), 'hello world');
  });

  it('allows a second edit without a new Read', async () => {
    await readFirst('a.txt', 'one two');
    await ws.run('Edit', { path: 'a.txt', old_string: 'one', new_string: '1' });
    const second = await ws.run('Edit', { path: 'a.txt', old_string: 'two', new_string: '2' });
    assert.equal(second.isError, false);
    assert.equal(ws.read('a.txt'), '1 2');
  });

  it('says how many places match, on which lines, and what to do', async () => {
    await readFirst('a.txt', 'x = 1\ny = 2\nx = 1\n');
    const result = await ws.run('Edit', { path: 'a.txt', old_string: 'x = 1', new_string: 'x = 3' });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /old_string matches 2 places in .*a\.txt \(lines 1, 3\)\. Include more surrounding lines to make it unique, or set replace_all to true/);
  });

  it('replaces every occurrence with replace_all', async () => {
    await readFirst('a.txt', 'x = 1\ny = 2\nx = 1\n');
    const result = await ws.run('Edit', { path: 'a.txt', old_string: 'x = 1', new_string: 'x = $&3', replace_all: true });
    assert.match(result.modelContent, /replaced 2 occurrences/);
    assert.equal(ws.read('a.txt'), 'x = $&3\ny = 2\nx = $&3\n');
  });

  it('shows the closest lines when old_string is not found', async () => {
    await readFirst('a.py', 'def main():\n    return compute_total(items)\n');
    const result = await ws.run('Edit', { path: 'a.py', old_string: '  return compute_totals(items)', new_string: 'pass' });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /old_string was not found in .*a\.py\. It must match the file exactly/);
    assert.match(result.modelContent, /Closest lines in the file:\n {2}2: {5}return compute_total\(items\)/);
  });

  it('keeps CRLF line endings when the model sends LF', async () => {
    const file = await readFirst('win.txt', 'one\r\ntwo\r\nthree\r\n');
    await ws.run('Edit', { path: 'win.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' });
    assert.equal(fs.readFileSync(file, 'utf8'), 'uno\r\ndos\r\nthree\r\n');
  });

  it('keeps a UTF-8 BOM and a UTF-16LE encoding', async () => {
    const bom = await readFirst('bom.txt', Buffer.from('\uFEFFcafé', 'utf8'));
    const wide = await readFirst('wide.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('naïve text', 'utf16le')]));
    await ws.run('Edit', { path: 'bom.txt', old_string: 'café', new_string: 'thé' });
    await ws.run('Edit', { path: 'wide.txt', old_string: 'naïve', new_string: 'plain' });
    assert.deepEqual(fs.readFileSync(bom), Buffer.from('\uFEFFthé', 'utf8'));
    assert.deepEqual(fs.readFileSync(wide), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('plain text', 'utf16le')]));
  });

  it('keeps bytes that are not UTF-8 (Latin-1) intact', async () => {
    const file = await readFirst('latin.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6f, 0x6b]));
    await ws.run('Edit', { path: 'latin.txt', old_string: 'ok', new_string: 'fine' });
    assert.deepEqual(fs.readFileSync(file), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x66, 0x69, 0x6e, 0x65]));
  });

  it('matches curly quotes in the file against straight quotes from the model', async () => {
    await readFirst('q.md', 'He said \u201chello\u201d.\n');
    const result = await ws.run('Edit', { path: 'q.md', old_string: 'said "hello"', new_string: 'said "bye"' });
    assert.equal(result.isError, false);
    assert.equal(ws.read('q.md'), 'He said "bye".\n');
  });

  it('refuses an edit that changes nothing', async () => {
    await readFirst('a.txt', 'same');
    const result = await ws.run('Edit', { path: 'a.txt', old_string: 'same', new_string: 'same' });
    assert.match(result.modelContent, /old_string and new_string are the same/);
  });

  it('creates a missing file when old_string is empty, and refuses that on a non-empty file', async () => {
    const created = await ws.run('Edit', { path: 'new/file.txt', old_string: '', new_string: 'fresh' });
    assert.equal(created.isError, false);
    assert.equal(ws.read('new/file.txt'), 'fresh');
    await readFirst('full.txt', 'content');
    const refused = await ws.run('Edit', { path: 'full.txt', old_string: '', new_string: 'x' });
    assert.match(refused.modelContent, /old_string is empty but .* is not/);
  });

  it('tells the model when the file does not exist', async () => {
    const result = await ws.run('Edit', { path: 'missing.txt', old_string: 'a', new_string: 'b' });
    assert.match(result.modelContent, /File does not exist: .*missing\.txt/);
  });
});

describe('Edit approval: the whole change for Review Diff', () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.dispose());

  const prepare = (input: Record<string, unknown>) =>
    ws.executor.registry.get('Edit')!.def.prepareApproval!(input, new AbortController().signal, { workspaceFolders: [ws.dir] });

  it('shows the file as the edit would leave it, without writing it', async () => {
    ws.write('a.txt', 'one\ntwo\nthree\n');
    const prepared = await prepare({ path: 'a.txt', old_string: 'two', new_string: 'TWO' });
    assert.deepEqual(prepared.preview?.change, { path: ws.file('a.txt'), before: 'one\ntwo\nthree\n', after: 'one\nTWO\nthree\n' });
    assert.equal(ws.read('a.txt'), 'one\ntwo\nthree\n');
  });

  it('offers no diff where the edit would fail (not found, not unique), as the handler would', async () => {
    ws.write('b.txt', 'x x\n');
    assert.equal((await prepare({ path: 'b.txt', old_string: 'missing', new_string: 'y' })).preview?.change, undefined);
    assert.equal((await prepare({ path: 'b.txt', old_string: 'x', new_string: 'y' })).preview?.change, undefined);
    assert.equal((await prepare({ path: 'b.txt', old_string: 'x', new_string: 'y', replace_all: true })).preview?.change?.after, 'y y\n');
  });
});
