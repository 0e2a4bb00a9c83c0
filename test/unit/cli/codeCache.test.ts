// The launcher's V8 code cache (src/cli/launch/cliCodeCache.ts: a fresh CLI process), through the built
// dist/cli.js (a copy of dist/, so one test can change the bundle): the second run uses the cache of the
// first, the output is the same with, without, and while writing it, and a cache that is not ours, not
// for this content, or damaged is not used.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cacheFileName, cacheKey, NO_CODE_CACHE_ENV, writeCache } from '../../../src/cli/launch/cliCodeCache';

const repo = path.resolve(__dirname, '../../../..');
const TOOLS = path.join(repo, 'test', 'fixtures', 'noop-tools.mjs');

let scratch: string;
let dist: string;
let cli: string;
let main: string;
let workspace: string;
let calls: string;

before(() => {
  scratch = fs.mkdtempSync(path.join(tmpdir(), 'tool-exec-code-cache-'));
  dist = path.join(scratch, 'dist');
  fs.cpSync(path.join(repo, 'dist'), dist, { recursive: true });
  cli = path.join(dist, 'cli.js');
  main = path.join(dist, 'cli-main.js');
  workspace = path.join(scratch, 'workspace');
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'a.txt'), 'alpha\n');
  calls = path.join(scratch, 'calls.json');
  // A Read, a Bash command (its parser is dist/unbash.js, found through the bundle's __dirname) and a
  // tool of a --tools ES module (imported by dist/cli-import.js).
  fs.writeFileSync(
    calls,
    JSON.stringify([
      { id: 'r', name: 'Read', input: { path: 'a.txt' } },
      { id: 'b', name: 'Bash', input: { command: 'echo hi' } },
      { id: 'e', name: 'echo', input: { text: 'hello' } },
    ]),
  );
});
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A fresh XDG_CACHE_HOME and the code cache directory in it. */
function cacheHome(): { home: string; dir: string } {
  const home = fs.mkdtempSync(path.join(scratch, 'xdg-'));
  return { home, dir: path.join(home, 'agent-tool-executor', 'code-cache') };
}

function runCli(home: string, args: string[] = ['run', '--workspace', workspace, '--tools', TOOLS, '--approve', 'allow', '--json', calls], env: NodeJS.ProcessEnv = {}) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: home, TOOL_EXEC_LOG: 'debug', ...env };
  if (!(NO_CODE_CACHE_ENV in env)) delete childEnv[NO_CODE_CACHE_ENV];
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: workspace, env: childEnv, encoding: 'utf8' });
  const cacheLines = result.stderr
    .split('\n')
    .filter((line) => line.includes(' debug code cache: '))
    .map((line) => line.slice(line.indexOf('code cache: ') + 'code cache: '.length));
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, cache: cacheLines };
}

/** The results without what changes from run to run (timings). */
function results(stdout: string): unknown[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => {
      const value = JSON.parse(line) as Record<string, any>;
      delete value.timing;
      if (value.summary) delete value.summary.wallMs;
      // Bash says how long the command took, which changes the result's length too.
      if (typeof value.content === 'string' && /after \d+ ?ms/.test(value.content)) {
        value.content = value.content.replace(/after \d+ ?ms/g, 'after N ms');
        delete value.originalBytes;
      }
      return value;
    });
}

function cacheFiles(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.v8cache')) : [];
}

describe('tool-exec code cache', () => {
  it('the first run writes it, the next runs use it, and the output is the same as without it', () => {
    const { home, dir } = cacheHome();
    const without = runCli(home, undefined, { [NO_CODE_CACHE_ENV]: '1' });
    assert.equal(without.code, 0, without.stderr);
    assert.deepEqual(without.cache, [`off (${NO_CODE_CACHE_ENV}=1)`]);
    assert.equal(fs.existsSync(dir), false, 'no directory when off');

    const first = runCli(home);
    assert.equal(first.code, 0, first.stderr);
    const file = path.join(dir, cacheFileName(main, cacheKey(fs.readFileSync(main))));
    assert.equal(first.cache.length, 1, first.stderr);
    assert.match(first.cache[0]!, new RegExp(`^written ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+ bytes\\)$`));
    assert.deepEqual(cacheFiles(dir), [path.basename(file)]);
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);

    const second = runCli(home);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(second.cache, [`used ${file}`]);
    const third = runCli(home);
    assert.deepEqual(third.cache, [`used ${file}`]);

    const expected = results(without.stdout);
    assert.equal((expected as Array<{ isError?: boolean }>).filter((line) => line.isError === false).length, 3, without.stdout);
    for (const run of [first, second, third]) assert.deepEqual(results(run.stdout), expected);
    // stderr is the CLI's own either way (no warning from the launcher).
    const rest = (stderr: string) => stderr.split('\n').filter((line) => !/^\S+ (debug|info) /.test(line) && line !== '');
    assert.deepEqual(rest(second.stderr), rest(without.stderr));
  });

  it("the main file runs as its own CommonJS module: stack traces (lines and columns), __filename, __dirname, require, module", () => {
    const dir = fs.mkdtempSync(path.join(scratch, 'module-'));
    const mainFile = path.join(dir, 'main.js');
    fs.writeFileSync(
      mainFile,
      [
        'function one() { throw new Error([__filename, __dirname, module.filename, require.cache[__filename] === module, module.exports === exports, typeof require("node:path").join].join(" ")); }',
        'try { one(); } catch (error) { process.stdout.write(`${error.stack.split("\\n").slice(0, 3).join("\\n")} ${this === exports}\\n`); }',
        '  if (process.env.THROW) throw new Error("uncaught");',
        '',
      ].join('\n'),
    );
    const launcher = path.join(dir, 'launcher.js');
    fs.writeFileSync(launcher, `require(${JSON.stringify(path.join(repo, 'out', 'src', 'cli', 'launch', 'cliCodeCache.js'))}).launch(${JSON.stringify(mainFile)});\n`);
    const { home, dir: cacheDir } = cacheHome();
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: home, TOOL_EXEC_LOG: 'debug' };
    delete env[NO_CODE_CACHE_ENV];
    const cacheFile = path.join(cacheDir, cacheFileName(mainFile, cacheKey(fs.readFileSync(mainFile))));
    // Without a cache (written at its exit 0), from the cache, and from the cache ending with an uncaught error.
    for (const [throws, cacheLine] of [[false, /^written /], [false, /^used /], [true, /^used /]] as const) {
      const runEnv = throws ? { ...env, THROW: '1' } : env;
      const direct = spawnSync(process.execPath, [mainFile], { encoding: 'utf8', env: runEnv });
      const launched = spawnSync(process.execPath, [launcher], { encoding: 'utf8', env: runEnv });
      assert.equal(launched.stdout, direct.stdout);
      assert.match(launched.stdout, new RegExp(`^Error: ${mainFile} ${dir} ${mainFile} true true function\\n    at one \\(${mainFile}:1:24\\)\\n    at Object\\.<anonymous> \\(${mainFile}:2:7\\) true\\n$`));
      assert.equal(launched.status, direct.status);
      assert.equal(launched.status, throws ? 1 : 0);
      const cacheLines = launched.stderr.split('\n').filter((line) => line.includes(' debug code cache: '));
      assert.equal(cacheLines.length, 1, launched.stderr);
      assert.match(cacheLines[0]!.slice(cacheLines[0]!.indexOf('code cache: ') + 'code cache: '.length), cacheLine);
      assert.ok(cacheLines[0]!.includes(cacheFile));
      // An uncaught error as Node prints it: the line, the caret under the column, the frame.
      const printed = (stderr: string) => stderr.split('\n').filter((line) => !line.includes(' debug code cache: ')).slice(0, 6);
      assert.deepEqual(printed(launched.stderr), printed(direct.stderr));
    }
  });

  it('--help and --version do not write it (a run that did no work would make a poor cache)', () => {
    const { home, dir } = cacheHome();
    const version = runCli(home, ['--version']);
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
    runCli(home, ['--help']);
    assert.deepEqual(cacheFiles(dir), []);
  });

  it('a damaged cache file, or one V8 rejects, is not used and is replaced', () => {
    const { home, dir } = cacheHome();
    assert.equal(runCli(home).code, 0);
    const key = cacheKey(fs.readFileSync(main));
    const file = path.join(dir, cacheFileName(main, key));
    const good = fs.readFileSync(file);
    const damaged = Buffer.from(good);
    damaged[Math.floor(damaged.length / 2)]! ^= 0xff;
    for (const [what, write, reason] of [
      ['garbage', () => fs.writeFileSync(file, randomBytes(4096)), 'not a tool-exec code cache'],
      ['a flipped byte', () => fs.writeFileSync(file, damaged), 'digest mismatch'],
      ['empty', () => fs.writeFileSync(file, ''), 'too short'],
    ] as const) {
      write();
      const run = runCli(home);
      assert.equal(run.code, 0, `${what}: ${run.stderr}`);
      assert.match(run.cache[0] ?? '', new RegExp(`^ignored .*: ${reason}`), what);
      assert.match(run.cache[1] ?? '', /^written /, what);
      assert.deepEqual(runCli(home).cache, [`used ${file}`], `${what}: replaced`);
    }
    // Ours, for this content, intact, but not V8's (another V8 would write such a file): V8 rejects it.
    writeCache(dir, path.basename(file), key, randomBytes(4096));
    const rejected = runCli(home);
    assert.equal(rejected.code, 0, rejected.stderr);
    assert.deepEqual(rejected.cache.map((line) => line.split(' ')[0]), ['rejected', 'written']);
    assert.deepEqual(runCli(home).cache, [`used ${file}`]);
  });

  it('a directory writable by group or others, a link, or one of another user is not used', () => {
    const made = (mode: number) => (dir: string) => {
      fs.mkdirSync(dir, { recursive: true });
      fs.chmodSync(dir, mode);
    };
    const cases: Array<[string, (dir: string) => void, RegExp]> = [
      ['group-writable', made(0o770), /writable by group or others/],
      ['other-writable', made(0o703), /writable by group or others/],
      [
        'a link to a directory',
        (dir) => {
          fs.mkdirSync(path.dirname(dir), { recursive: true });
          fs.symlinkSync(fs.mkdtempSync(path.join(scratch, 'elsewhere-')), dir);
        },
        /is not a directory/,
      ],
    ];
    if (process.getuid?.() === 0) {
      cases.push([
        'owned by another user',
        (dir) => {
          made(0o700)(dir);
          fs.chownSync(dir, 65534, 65534);
        },
        /is owned by uid 65534/,
      ]);
    }
    const expected = results(runCli(cacheHome().home, undefined, { [NO_CODE_CACHE_ENV]: '1' }).stdout);
    for (const [what, make, reason] of cases) {
      const { home, dir } = cacheHome();
      make(dir);
      for (let run = 0; run < 2; run++) {
        const result = runCli(home);
        assert.equal(result.code, 0, `${what}: ${result.stderr}`);
        assert.equal(result.cache.length, 1, `${what}: ${result.stderr}`);
        assert.match(result.cache[0]!, new RegExp(`^not used: .*${reason.source}`), what);
        assert.deepEqual(results(result.stdout), expected, what);
      }
      assert.deepEqual(fs.readdirSync(dir), [], `${what}: nothing written in it`);
    }
  });

  it('the cache of other content is not used (even of the same length, which is all V8 checks), and is deleted', () => {
    const { home, dir } = cacheHome();
    const original = fs.readFileSync(main, 'utf8');
    try {
      assert.equal(runCli(home).code, 0);
      const old = cacheFiles(dir);
      assert.equal(old.length, 1);
      // Same length, other content: the version the CLI prints (0.1.0 becomes 1.2.1).
      const version = (JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string }).version;
      const other = version.replace(/\d/g, (digit) => String((Number(digit) + 1) % 10));
      const changed = original.replaceAll(version, other);
      assert.notEqual(changed, original);
      assert.equal(changed.length, original.length);
      fs.writeFileSync(main, changed);
      const printed = runCli(home, ['--version']);
      assert.equal(printed.stdout, `${other}\n`);
      assert.deepEqual(printed.cache, [], 'no cache found for this content, none written for --version');
      const run = runCli(home);
      assert.equal(run.code, 0, run.stderr);
      const file = cacheFileName(main, cacheKey(Buffer.from(changed)));
      assert.match(run.cache[0] ?? '', /^written /);
      assert.deepEqual(cacheFiles(dir), [file], 'the cache of the old content is deleted');
      assert.deepEqual(runCli(home, ['--version']).cache, [`used ${path.join(dir, file)}`]);
    } finally {
      fs.writeFileSync(main, original);
    }
  });
});
