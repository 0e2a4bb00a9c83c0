// W's "six calls, six outcomes" (seed 002) through the built CLI, with the
// three fake tools of the seed, `--tools` and `--max-result-bytes 400`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';

const repo = path.resolve(__dirname, '../../../..');
const cli = path.join(repo, 'dist', 'cli.js');
const fixture = path.join(repo, 'test', 'fixtures', 'wTools.mjs');

interface JsonResult {
  id: string;
  name: string;
  isError: boolean;
  errorKind: string | null;
  content: string;
  truncated: boolean;
  originalBytes: number;
  artifactPath: string | null;
}

describe("W's six calls, six outcomes, through tool-exec", () => {
  let workspace: string;
  let artifacts: string;
  let results: JsonResult[];

  before(() => {
    // The CLI under test is the bundle a user runs.
    execFileSync(process.execPath, [path.join(repo, 'scripts', 'build.mjs')], { cwd: repo, stdio: 'pipe' });
    workspace = mkdtempSync(path.join(tmpdir(), 'w-six-'));
    artifacts = mkdtempSync(path.join(tmpdir(), 'w-six-artifacts-'));
    writeFileSync(path.join(workspace, 'report.txt'), 'line\n\n'.slice(0, 6));
    writeFileSync(path.join(workspace, 'old.log'), 'old log');
    const calls = [
      { id: '1', name: 'quiet_writer', input: { text: 'hi' } },
      { id: '2', name: 'quiet_writer', input: {} },
      { id: '3', name: 'rm_rf', input: {} },
      { id: '4', name: 'print_lines', input: { n: 200 } },
      { id: '5', name: 'print_lines', input: { n: 2000 } },
      { id: '6', name: 'crasher', input: {} },
    ];
    writeFileSync(path.join(workspace, '..', `${path.basename(workspace)}.calls.json`), JSON.stringify(calls));
    const stdout = execFileSync(
      process.execPath,
      [
        cli,
        'run',
        '--workspace', workspace,
        '--tools', fixture,
        '--max-result-bytes', '400',
        '--artifacts', artifacts,
        '--approve', 'allow',
        '--json',
        path.join(workspace, '..', `${path.basename(workspace)}.calls.json`),
      ],
      { encoding: 'utf8' },
    );
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    results = lines.filter((line) => !('summary' in line)) as unknown as JsonResult[];
  });

  after(() => {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(`${workspace}.calls.json`, { force: true });
    rmSync(artifacts, { recursive: true, force: true });
  });

  it('gives one result per call, in order', () => {
    assert.deepEqual(
      results.map((result) => `${result.id} ${result.name}`),
      ['1 quiet_writer', '2 quiet_writer', '3 rm_rf', '4 print_lines', '5 print_lines', '6 crasher'],
    );
  });

  it('[1] the executor reports what the quiet tool changed', () => {
    const [first] = results;
    assert.equal(first!.isError, false);
    assert.equal(first!.errorKind, null);
    assert.equal(
      first!.content,
      'ok\n\n[Workspace Changes]\n+ notes.md (created, 8 B)\n~ report.txt (modified, 6 B → 1.5 KB)\n- old.log (deleted)',
    );
  });

  it('[2] a missing required field is refused before the tool runs (invocation)', () => {
    const second = results[1]!;
    assert.equal(second.isError, true);
    assert.equal(second.errorKind, 'invocation');
    assert.equal(second.content, '<tool_use_error>tool quiet_writer: invalid input: missing required field text</tool_use_error>');
  });

  it('[3] an unknown tool is refused (invocation)', () => {
    const third = results[2]!;
    assert.equal(third.isError, true);
    assert.equal(third.errorKind, 'invocation');
    assert.equal(third.content, 'unknown tool: rm_rf');
  });

  it('[4] 200 lines of a read-only tool get 3× the budget and keep the head and tail thirds', () => {
    const fourth = results[3]!;
    assert.equal(fourth.isError, false);
    assert.equal(fourth.truncated, true);
    assert.equal(fourth.originalBytes, 6000);
    const lines = fourth.content.split('\n');
    assert.equal(lines[0], 'line 0001 of a long build log');
    assert.match(fourth.content, /\n\.\.\.\[truncated \d+ chars; showing lines 1-\d+ and \d+-201 of 201 total; use read with offset=\d+ to see middle\]\.\.\.\n/);
    assert.equal(lines.at(-2), 'line 0200 of a long build log');
    assert.ok(Buffer.byteLength(fourth.content) <= 1200 + 200);
  });

  it('[5] 60000 chars spill to an artifact; the model gets its path and how to read it', () => {
    const fifth = results[4]!;
    assert.equal(fifth.isError, false);
    assert.equal(fifth.truncated, true);
    assert.ok(fifth.artifactPath);
    assert.ok(fifth.artifactPath.startsWith(artifacts + path.sep), fifth.artifactPath);
    assert.match(fifth.content, /Result too large \(60000 chars, 58\.6 KB\)\. Full output was saved to: /);
    assert.ok(fifth.content.includes(fifth.artifactPath));
    assert.match(fifth.content, /Use the read tool on this path/);
    assert.equal(readFileSync(fifth.artifactPath, 'utf8').length, 60000);
    assert.equal(statSync(fifth.artifactPath).mode & 0o777, 0o600);
  });

  it('[6] a crash becomes an execution error, not a dead process', () => {
    const sixth = results[5]!;
    assert.equal(sixth.isError, true);
    assert.equal(sixth.errorKind, 'execution');
    assert.match(sixth.content, /^tool crasher crashed: Cannot set properties of null/);
  });

  it('leaves the workspace as the tools left it', () => {
    assert.equal(existsSync(path.join(workspace, 'old.log')), false);
    assert.equal(readFileSync(path.join(workspace, 'notes.md'), 'utf8'), '# notes\n');
  });
});
