// Acceptance: 42 settings files in Claude Code's format (test/fixtures/claude-settings, shapes from its
// docs, JSON schema and issue tracker; each file's source is in expectations.json) load without refusal
// in the CLI and through the extension's settings path, and their commands are decided as documented.
// A rule that cannot be read is a warning said once; only broken JSON or a wrongly typed list refuses.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createPolicyFromSettings } from '../../../src/executor/policy/index';
import { loadStandardSettings } from '../../../src/node/settings/settingsFile';

const ROOT = join(__dirname, '..', '..', '..', '..');
const CLI = join(ROOT, 'out', 'src', 'cli', 'main.js');
const CORPUS = join(ROOT, 'test', 'fixtures', 'claude-settings');
const EXPECTATIONS = JSON.parse(readFileSync(join(CORPUS, 'expectations.json'), 'utf8')) as Record<string, { source: string; commands: [string, string][] }>;
const FILES = readdirSync(CORPUS).filter((file) => /^\d\d-.*\.json$/.test(file));
const bash = { name: 'Bash', description: '', sideEffectScope: 'external', permissionSubject: (input: { command: string }) => ({ kind: 'command', command: input.command }) };

describe('a corpus of real Claude Code settings files', () => {
  let dir: string;
  let ws: string;
  let home: string;
  before(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'settings-corpus-')));
    ws = join(dir, 'ws');
    home = join(dir, 'home');
    mkdirSync(join(ws, 'src'), { recursive: true });
    mkdirSync(join(ws, '.claude'));
    mkdirSync(home);
    writeFileSync(join(ws, 'notes.txt'), 'hello\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('holds at least 40 files, each with its source named', () => {
    assert.ok(FILES.length >= 40, `${FILES.length} files`);
    for (const file of FILES) assert.ok(EXPECTATIONS[file]?.source, file);
  });

  for (const file of FILES) {
    it(`${file} (${EXPECTATIONS[file]!.source}): the CLI runs with it; warnings come once each on stderr`, () => {
      const result = spawnSync(process.execPath, [CLI, 'run', '--workspace', ws, '--settings', join(CORPUS, file), '-'], { encoding: 'utf8', input: '[]' });
      assert.notEqual(result.status, 2, result.stderr);
      assert.doesNotMatch(result.stderr, /nothing was run/);
      const warnings = result.stderr.split('\n').filter((line) => line.startsWith('tool-exec: warning: '));
      assert.equal(new Set(warnings).size, warnings.length, 'each warning once');
    });

    it(`${file}: the extension's settings path loads it and decides its commands as documented`, async () => {
      copyFileSync(join(CORPUS, file), join(ws, '.claude', 'settings.local.json'));
      const files = await loadStandardSettings(ws, home);
      assert.deepEqual(files.problems, []);
      const policy = createPolicyFromSettings({ workspace: files.workspace, workspaceTrusted: true, workspaceFolders: [ws] });
      assert.deepEqual(policy.problems.filter((problem) => !policy.notices.includes(problem)), [], 'nothing refuses the file');
      for (const [command, behavior] of EXPECTATIONS[file]!.commands) {
        const decision = await policy.evaluate({ tool: bash, input: { command }, workspaceFolders: [ws] } as never, new AbortController().signal);
        assert.equal(decision.behavior, behavior, `${command}: ${decision.reason}`);
      }
    });
  }

  it('an unreadable rule is named once on stderr, and the rest of the file applies', () => {
    const settings = join(dir, 'unreadable.json');
    writeFileSync(settings, JSON.stringify({ permissions: { allow: ['Bash(echo "x)', 'Bash(printf:*)'], deny: ['Bash(rm -rf "/x'] } }, null, 2));
    const calls = join(dir, 'calls.json');
    writeFileSync(calls, JSON.stringify([{ id: 'p', name: 'Bash', input: { command: 'printf ran' } }]));
    const result = spawnSync(process.execPath, [CLI, 'run', '--workspace', ws, '--settings', settings, '--json', calls], { encoding: 'utf8', input: '' });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr.match(/Bash\(echo "x\)/g)?.length, 1, `said once: ${result.stderr}`);
    assert.match(result.stderr, /warning: .*Bash\(echo "x\).*skipped/);
    assert.equal(result.stderr.match(/warning: .*Bash\(rm -rf "\/x.*read as a deny of Bash\(rm -rf \*\)/g)?.length, 1, result.stderr);
    assert.match(result.stdout, /ran/);
  });

  it('broken JSON and a wrongly typed list refuse the file (exit 2), naming the line and column', () => {
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{\n  "permissions": {\n    "allow": ["Bash(ls:*)",]\n  }\n}\n');
    const parse = spawnSync(process.execPath, [CLI, 'run', '--workspace', ws, '--settings', broken, '-'], { encoding: 'utf8', input: '[]' });
    assert.equal(parse.status, 2);
    assert.match(parse.stderr, /broken\.json is not valid JSON at line 3, column \d+/);
    const typed = join(dir, 'typed.json');
    writeFileSync(typed, '{\n  "permissions": {\n    "allow": [],\n    "deny": "Bash(rm:*)"\n  }\n}\n');
    const type = spawnSync(process.execPath, [CLI, 'run', '--workspace', ws, '--settings', typed, '-'], { encoding: 'utf8', input: '[]' });
    assert.equal(type.status, 2);
    assert.match(type.stderr, /line 4, column 13: .*permissions\.deny must be an array/);
  });
});
