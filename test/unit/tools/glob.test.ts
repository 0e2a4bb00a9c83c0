import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { GLOB_MAX_RESULTS } from '../../../src/tools/search/glob';
import { makeWorkspace, type Workspace } from './helpers';

describe('Glob', () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.dispose());

  /** Sets a file's modification time to `secondsAgo` before now. */
  function age(relative: string, secondsAgo: number): void {
    const when = new Date(Date.now() - secondsAgo * 1000);
    fs.utimesSync(ws.file(relative), when, when);
  }

  it('returns absolute paths, newest first', async () => {
    ws.write('src/old.ts', '');
    ws.write('src/new.ts', '');
    ws.write('src/mid.ts', '');
    ws.write('src/readme.md', '');
    age('src/old.ts', 300);
    age('src/mid.ts', 200);
    age('src/new.ts', 100);
    const result = await ws.run('Glob', { pattern: '**/*.ts' });
    assert.equal(result.modelContent, [ws.file('src/new.ts'), ws.file('src/mid.ts'), ws.file('src/old.ts')].join('\n'));
  });

  it('honours .gitignore files at every level, and skips .git', async () => {
    fs.mkdirSync(ws.file('.git'));
    ws.write('.git/config.ts', '');
    ws.write('.gitignore', 'node_modules/\n*.gen.ts\n');
    ws.write('node_modules/dep/index.ts', '');
    ws.write('src/a.ts', '');
    ws.write('src/a.gen.ts', '');
    ws.write('src/sub/.gitignore', 'secret.ts\n');
    ws.write('src/sub/secret.ts', '');
    ws.write('src/sub/open.ts', '');
    const result = await ws.run('Glob', { pattern: '**/*.ts' });
    assert.deepEqual(result.modelContent.split('\n').sort(), [ws.file('src/a.ts'), ws.file('src/sub/open.ts')]);
  });

  it('searches inside an ignored folder when asked to', async () => {
    ws.write('.gitignore', 'node_modules/\n');
    ws.write('node_modules/dep/index.js', '');
    const result = await ws.run('Glob', { pattern: '*.js', path: 'node_modules/dep' });
    assert.equal(result.modelContent, ws.file('node_modules/dep/index.js'));
  });

  it(`caps the list at ${GLOB_MAX_RESULTS} and says how many were left out`, async () => {
    for (let i = 0; i < GLOB_MAX_RESULTS + 7; i++) ws.write(`many/f${i}.txt`, '');
    const result = await ws.run('Glob', { pattern: 'many/*.txt' });
    const lines = result.modelContent.split('\n');
    assert.equal(lines.length, GLOB_MAX_RESULTS + 1);
    assert.equal(lines.at(-1), '(7 more files not shown; narrow the pattern or the path.)');
  });

  it('accepts an absolute pattern', async () => {
    ws.write('deep/x/y.json', '{}');
    const result = await ws.run('Glob', { pattern: `${ws.dir}/deep/**/*.json` });
    assert.equal(result.modelContent, ws.file('deep/x/y.json'));
  });

  it('says when nothing matches, and refuses a path that is not a folder', async () => {
    const none = await ws.run('Glob', { pattern: '**/*.zig' });
    assert.match(none.modelContent, /^No files match \*\*\/\*\.zig in /);
    ws.write('file.txt', '');
    const notDir = await ws.run('Glob', { pattern: '*', path: 'file.txt' });
    assert.equal(notDir.isError, true);
    assert.match(notDir.modelContent, /file\.txt is not a folder/);
  });
});
