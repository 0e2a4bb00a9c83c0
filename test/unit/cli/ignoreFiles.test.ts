// Agents' ignore files through tool-exec: what `.aiignore` excludes is refused by Read,
// Write and Edit, skipped by Glob and Grep, asked for when a command names it (and so denied with
// --approve deny, even under an allow rule), and never listed as a workspace change.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

const ROOT = join(__dirname, '..', '..', '..', '..');
const CLI = join(ROOT, 'out', 'src', 'cli', 'main.js');
const SECRET = 'the private plan';

describe('tool-exec honours .aiignore', () => {
  let workspace: string;
  let results: Array<Record<string, any>>;

  before(() => {
    workspace = mkdtempSync(join(tmpdir(), 'tool-exec-aiignore-'));
    writeFileSync(join(workspace, '.aiignore'), 'private.txt\nvault/\n');
    writeFileSync(join(workspace, 'private.txt'), `${SECRET}\n`);
    mkdirSync(join(workspace, 'vault'));
    writeFileSync(join(workspace, 'vault', 'plan.md'), `${SECRET}\n`);
    writeFileSync(join(workspace, 'public.txt'), `not ${SECRET}\n`);
    const settings = join(workspace, 'settings.json');
    writeFileSync(join(workspace, 'make.sh'), 'echo made > vault/made.txt\necho made > made.txt\n');
    writeFileSync(settings, JSON.stringify({ permissions: { allow: ['Bash(cat:*)', 'Bash(touch:*)', 'Bash(bash make.sh)'] } }));
    const calls = [
      { id: 'read', name: 'Read', input: { path: 'private.txt' } },
      { id: 'read-dir', name: 'Read', input: { path: 'vault/plan.md' } },
      { id: 'glob', name: 'Glob', input: { pattern: '**/*' } },
      { id: 'grep', name: 'Grep', input: { pattern: 'private plan' } },
      { id: 'write', name: 'Write', input: { path: 'vault/new.md', content: 'x' } },
      { id: 'cat', name: 'Bash', input: { command: 'cat private.txt' } },
      { id: 'touch', name: 'Bash', input: { command: 'touch public-new.txt vault-free.txt' } },
      { id: 'script', name: 'Bash', input: { command: 'bash make.sh' } },
    ];
    const run = spawnSync(process.execPath, [CLI, 'run', '--workspace', workspace, '--settings', settings, '--mode', 'acceptEdits', '--approve', 'deny', '--json', '-'], { input: JSON.stringify(calls), encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    results = run.stdout.trim().split('\n').map((line) => JSON.parse(line)).filter((line) => 'id' in line);
  });
  after(() => rmSync(workspace, { recursive: true, force: true }));

  const byId = (id: string) => results.find((result) => result.id === id)!;

  it('Read refuses an excluded file and a file in an excluded folder, naming the ignore file', () => {
    for (const id of ['read', 'read-dir']) {
      assert.equal(byId(id).isError, true);
      assert.match(byId(id).content, /excluded by \.aiignore/);
      assert.ok(!byId(id).content.includes(SECRET));
    }
  });

  it('Glob and Grep skip what it excludes', () => {
    assert.match(byId('glob').content, /public\.txt/);
    assert.doesNotMatch(byId('glob').content, /private\.txt|vault/);
    assert.match(byId('grep').content, /public\.txt/);
    assert.doesNotMatch(byId('grep').content, /private\.txt|vault/);
  });

  it('Write refuses an excluded folder, and nothing is written', () => {
    assert.match(byId('write').content, /excluded by \.aiignore/);
    assert.equal(existsSync(join(workspace, 'vault', 'new.md')), false);
  });

  it('workspace changes leave out what it excludes', () => {
    assert.equal(existsSync(join(workspace, 'vault', 'made.txt')), true, 'the script ran');
    assert.match(byId('script').content, /\+ made\.txt/);
    assert.doesNotMatch(byId('script').content, /vault/);
  });

  it('a command naming an excluded file asks even under an allow rule (denied here), and others run', () => {
    assert.equal(byId('cat').errorKind, 'permission');
    assert.ok(!byId('cat').content.includes(SECRET));
    assert.equal(byId('touch').isError, false, byId('touch').content);
    assert.equal(readFileSync(join(workspace, 'private.txt'), 'utf8'), `${SECRET}\n`);
  });
});
