import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

const ROOT = join(__dirname, '..', '..', '..', '..');
const CLI = join(ROOT, 'out', 'src', 'cli', 'main.js');
const TOOLS = join(ROOT, 'test', 'fixtures', 'noop-tools.mjs');

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'tool-exec-cli-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[], stdin?: string) {
  const result = spawnSync(process.execPath, [CLI, ...args], { input: stdin ?? '', encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function callsFile(calls: unknown): string {
  const path = join(dir, `calls-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(calls));
  return path;
}

function jsonLines(stdout: string): Array<Record<string, any>> {
  return stdout.trim().split('\n').map((line) => JSON.parse(line));
}

describe('tool-exec run --json', () => {
  it('prints one line per call in call order with the contract fields, then a summary', () => {
    const file = callsFile([
      { id: 'a', name: 'echo', input: { text: 'hi' } },
      { id: 'b', name: 'echo', input: '{"text": "raw"}' },
      { id: 'c', name: 'echo', input: '{"text": ' },
      { id: 'd', name: 'missing', input: {} },
      { id: 'e', name: 'noop', input: {} },
    ]);
    const { code, stdout, stderr } = run(['run', '--workspace', dir, '--tools', TOOLS, '--json', file]);
    assert.equal(code, 0, stderr);
    const lines = jsonLines(stdout);
    assert.equal(lines.length, 6);
    const [a, b, c, d, e, summary] = lines;
    assert.deepEqual(Object.keys(a!), ['id', 'name', 'group', 'isError', 'errorKind', 'content', 'truncated', 'originalBytes', 'artifactPath', 'display', 'timing']);
    assert.deepEqual(Object.keys(a!.timing), ['totalMs', 'permissionWaitMs', 'queuedMs', 'startMs', 'endMs']);
    assert.equal(a!.content, `hi (a in ${dir})`);
    assert.equal(a!.errorKind, null);
    assert.equal(b!.content, `raw (b in ${dir})`);
    assert.equal(c!.errorKind, 'invocation');
    assert.match(c!.content, /^<tool_use_error>tool echo: invalid input: arguments are not valid JSON/);
    assert.equal(d!.content, 'unknown tool: missing');
    assert.equal(e!.content, '(noop completed with no output)');
    assert.deepEqual(lines.slice(0, 5).map((line) => line.id), ['a', 'b', 'c', 'd', 'e']);
    assert.deepEqual(Object.keys(summary!.summary), ['calls', 'errors', 'groups', 'wallMs']);
    assert.equal(summary!.summary.calls, 5);
    assert.equal(summary!.summary.errors, 2);
  });

  it('reads CALLS from stdin with -', () => {
    const { code, stdout } = run(['run', '--tools', TOOLS, '--json', '-'], JSON.stringify([{ id: '1', name: 'noop', input: {} }]));
    assert.equal(code, 0);
    assert.equal(jsonLines(stdout)[0]!.content, '(noop completed with no output)');
  });

  it('denies approvals when stdin is not a TTY, and --approve allow runs them', () => {
    const file = callsFile([{ id: 't', name: 'touch', input: { name: 'made.txt' } }]);
    const denied = jsonLines(run(['run', '--workspace', dir, '--tools', TOOLS, '--json', file]).stdout)[0]!;
    assert.equal(denied.errorKind, 'permission');
    assert.equal(existsSync(join(dir, 'made.txt')), false);
    const allowed = jsonLines(run(['run', '--workspace', dir, '--tools', TOOLS, '--approve', 'allow', '--json', file]).stdout)[0]!;
    assert.equal(allowed.isError, false, allowed.content);
    assert.equal(readFileSync(join(dir, 'made.txt'), 'utf8'), 'touched\n');
    const plan = jsonLines(run(['run', '--workspace', dir, '--tools', TOOLS, '--approve', 'allow', '--mode', 'plan', '--json', file]).stdout)[0]!;
    assert.equal(plan.errorKind, 'permission');
    assert.match(plan.content, /plan mode/);
  });

  it('cancels later groups after a stop-turn result, and reports timeouts with the schedule group', () => {
    const file = callsFile([
      { id: '1', name: 'sleeper', input: {} },
      { id: '2', name: 'stopper', input: {} },
      { id: '3', name: 'noop', input: {} },
    ]);
    const lines = jsonLines(run(['run', '--tools', TOOLS, '--json', file]).stdout);
    assert.equal(lines[0]!.errorKind, 'timeout');
    assert.match(lines[0]!.content, /^Tool 'sleeper' execution timed out after 50ms\./);
    assert.deepEqual(lines.slice(0, 3).map((line) => line.group), [0, 1, 2]);
    assert.equal(lines[2]!.content, 'Tool cancelled because a previous tool result requested a turn stop.');
  });

  it('returns 10,000 results in order for a 10,000-call batch', () => {
    const calls = Array.from({ length: 10_000 }, (_, i) => ({ id: `n${i}`, name: 'noop', input: {} }));
    const { code, stdout } = run(['run', '--tools', TOOLS, '--json', callsFile(calls)]);
    assert.equal(code, 0);
    const lines = jsonLines(stdout);
    assert.equal(lines.length, 10_001);
    lines.slice(0, -1).forEach((line, index) => assert.equal(line.id, `n${index}`));
    assert.equal(lines.at(-1)!.summary.calls, 10_000);
    assert.equal(lines.at(-1)!.summary.groups, 1000);
  });
});

describe('tool-exec misuse exits 2 and names the problem', () => {
  const cases: Array<[string, string[], string | undefined, RegExp]> = [
    ['no command', [], undefined, /missing command/],
    ['an unknown command', ['go'], undefined, /unknown command 'go'/],
    ['no CALLS', ['run'], undefined, /missing CALLS/],
    ['an unknown flag', ['run', '--frob', 'x.json'], undefined, /--frob/],
    ['a bad --approve', ['run', '--approve', 'maybe', '-'], undefined, /--approve must be allow or deny/],
    ['a bad --mode', ['run', '--mode', 'yolo', '-'], undefined, /--mode must be one of default, acceptEdits, plan, bypass/],
    ['a bad number', ['run', '--concurrency', '0', '-'], undefined, /--concurrency must be a positive whole number/],
    ['a missing file', ['run', '/nonexistent/calls.json'], undefined, /cannot read CALLS \/nonexistent\/calls.json: no such file/],
    ['invalid JSON', ['run', '-'], '[{', /CALLS stdin is not valid JSON/],
    ['not an array', ['run', '-'], '{}', /must be a JSON array/],
    ['an item without a name', ['run', '-'], '[{"id":"1","input":{}}]', /item 0: "name" must be a string/],
    ['a duplicate id', ['run', '-'], '[{"id":"1","name":"a"},{"id":"1","name":"b"}]', /item 1: duplicate id "1"/],
    ['an array input', ['run', '-'], '[{"id":"1","name":"a","input":[]}]', /item 0: "input" must be an object/],
    ['a missing tools module', ['run', '--tools', '/nonexistent/tools.mjs', '-'], '[]', /cannot load --tools \/nonexistent\/tools.mjs/],
    ['a missing workspace', ['run', '--workspace', '/nonexistent/ws', '-'], '[]', /--workspace \/nonexistent\/ws is not a directory/],
  ];
  for (const [label, args, stdin, message] of cases) {
    it(label, () => {
      const { code, stderr, stdout } = run(args, stdin);
      assert.equal(code, 2, stdout);
      assert.match(stderr, /^tool-exec: /);
      assert.match(stderr, message);
    });
  }

  it('prints usage on --help and exits 0', () => {
    const { code, stdout } = run(['--help']);
    assert.equal(code, 0);
    assert.match(stdout, /^Usage: tool-exec run/);
  });
});
