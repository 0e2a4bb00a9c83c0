// loadWithCodeCache (src/node/runtime/codeCache.ts), as the extension's launcher uses it: the main file runs as its
// own module; save() writes the cache once; the next process loads with it; a changed file is not run from
// the old cache. Each load is a fresh Node process with its own XDG cache folder.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';

const CODE_CACHE = path.resolve(__dirname, '..', '..', '..', 'src', 'node', 'runtime', 'codeCache.js');

/** Loads `main` through loadWithCodeCache in a child, calls its exported `run()`, saves when `save`; prints what happened. */
function load(cacheHome: string, main: string, save: boolean, off = ''): { value: unknown; cache: string; debug: string[] } {
  const script = `
    const { loadWithCodeCache } = require(${JSON.stringify(CODE_CACHE)});
    const debug = [];
    const loaded = loadWithCodeCache(${JSON.stringify(main)}, (line) => debug.push(line));
    const value = loaded.module.exports.run();
    if (${save}) loaded.save();
    if (${save}) loaded.save();
    process.stdout.write(JSON.stringify({ value, cache: loaded.cache, debug }));
  `;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: cacheHome, TOOL_EXEC_NO_CODE_CACHE: off } });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as { value: unknown; cache: string; debug: string[] };
}

describe('loadWithCodeCache', () => {
  const root = fs.mkdtempSync(path.join(tmpdir(), 'ate-codecache-'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('runs the file as its own module, writes the cache once on save(), and the next load uses it', () => {
    const cacheHome = path.join(root, 'cache-a');
    const main = path.join(root, 'main-a.js');
    fs.writeFileSync(main, "exports.run = () => ({ file: __filename, dir: __dirname, same: module.exports === exports, cached: require.cache[__filename] === module });\n");
    const first = load(cacheHome, main, true);
    assert.deepEqual(first.value, { file: main, dir: root, same: true, cached: true });
    assert.equal(first.cache, 'missing');
    assert.equal(first.debug.filter((line) => line.startsWith('written ')).length, 1, first.debug.join('\n'));
    const second = load(cacheHome, main, true);
    assert.deepEqual(second.value, first.value);
    assert.equal(second.cache, 'used');
    assert.ok(second.debug.some((line) => line.startsWith('used ')), second.debug.join('\n'));
    assert.ok(!second.debug.some((line) => line.startsWith('written ')), 'a used cache is not written again');
  });

  it('a file changed to the same length does not run from the old cache', () => {
    const cacheHome = path.join(root, 'cache-b');
    const main = path.join(root, 'main-b.js');
    fs.writeFileSync(main, 'exports.run = () => "old";\n');
    load(cacheHome, main, true);
    fs.writeFileSync(main, 'exports.run = () => "new";\n');
    const changed = load(cacheHome, main, false);
    assert.equal(changed.value, 'new');
    assert.equal(changed.cache, 'missing');
    assert.ok(!changed.debug.some((line) => line.startsWith('used ')), changed.debug.join('\n'));
  });

  it('says when no cache was used at all (TOOL_EXEC_NO_CODE_CACHE=1)', () => {
    const cacheHome = path.join(root, 'cache-c');
    const main = path.join(root, 'main-c.js');
    fs.writeFileSync(main, 'exports.run = () => "plain";\n');
    const plain = load(cacheHome, main, true, '1');
    assert.deepEqual([plain.value, plain.cache], ['plain', 'off']);
    assert.ok(!fs.existsSync(path.join(cacheHome, 'agent-tool-executor', 'code-cache')), 'no cache folder when it is off');
  });
});
