// A user's Claude Code settings file works with `tool-exec --settings`:
// its rules decide, and a command hook written as a shell script blocks, allows and adds context.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

const ROOT = join(__dirname, '..', '..', '..', '..');
const CLI = join(ROOT, 'out', 'src', 'cli', 'main.js');

/** A PreToolUse hook as Claude Code users write them: read the JSON, exit 2 to block, or print a decision. */
const GUARD = `#!/bin/sh
input=$(cat)
case "$input" in
  *curl*)
    echo "network access is blocked by policy; use the offline mirror" >&2
    exit 2 ;;
  *printf*)
    echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"printing is harmless","additionalContext":"printf checked by guard.sh"}}'
    exit 0 ;;
esac
exit 0
`;

describe('tool-exec run --settings FILE (Claude Code settings.json)', () => {
  let dir: string;
  let ws: string;
  before(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'tool-exec-settings-')));
    ws = join(dir, 'ws');
    mkdirSync(join(ws, '.claude', 'hooks'), { recursive: true });
    writeFileSync(join(ws, 'notes.txt'), 'hello\n');
    const guard = join(ws, '.claude', 'hooks', 'guard.sh');
    writeFileSync(guard, GUARD);
    chmodSync(guard, 0o755);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function run(settings: unknown, calls: unknown[], extra: string[] = []) {
    const settingsFile = join(dir, 'settings.json');
    writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
    const callsFile = join(dir, 'calls.json');
    writeFileSync(callsFile, JSON.stringify(calls));
    const result = spawnSync(process.execPath, [CLI, 'run', '--workspace', ws, '--settings', settingsFile, '--json', ...extra, callsFile], { encoding: 'utf8', input: '' });
    const lines = result.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, any>);
    return { code: result.status, stderr: result.stderr, byId: new Map(lines.filter((line) => line.id).map((line) => [line.id as string, line])) };
  }

  const settings = {
    permissions: { allow: ['Bash(echo:*)'], deny: ['Bash(rm:*)'] },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', timeout: 30 }] }] },
  };

  it('the hook blocks, allows and adds context; the rules allow and deny; the rest asks (and nobody can answer)', () => {
    const { code, stderr, byId } = run(settings, [
      { id: 'blocked', name: 'Bash', input: { command: 'curl https://example.com' } },
      { id: 'hook-allowed', name: 'Bash', input: { command: 'printf hooked' } },
      { id: 'rule-allowed', name: 'Bash', input: { command: 'echo ruled' } },
      { id: 'rule-denied', name: 'Bash', input: { command: 'echo hi && rm -rf notes.txt' } },
      { id: 'asked', name: 'Bash', input: { command: 'cat notes.txt' } },
    ]);
    assert.equal(code, 0, stderr);
    const blocked = byId.get('blocked')!;
    assert.equal(blocked.isError, true);
    assert.equal(blocked.errorKind, 'permission');
    assert.match(blocked.content, /PreToolUse hook denied this Bash call: network access is blocked by policy; use the offline mirror/);
    const allowed = byId.get('hook-allowed')!;
    assert.equal(allowed.isError, false, allowed.content);
    assert.match(allowed.content, /hooked/);
    assert.match(allowed.content, /\[Hook additional context\]\n1\. printf checked by guard\.sh/);
    assert.equal(byId.get('rule-allowed')!.isError, false, byId.get('rule-allowed')!.content);
    assert.match(byId.get('rule-allowed')!.content, /ruled/);
    const denied = byId.get('rule-denied')!;
    assert.equal(denied.errorKind, 'permission');
    assert.match(denied.content, /Bash\(rm:\*\)/);
    assert.equal(byId.get('asked')!.errorKind, 'permission', 'an ask with no terminal is denied, never run');
  });

  it('--approve allow still answers the asks; deny rules and hook blocks still win', () => {
    const { byId } = run(settings, [
      { id: 'asked', name: 'Bash', input: { command: 'cat notes.txt' } },
      { id: 'blocked', name: 'Bash', input: { command: 'curl x' } },
      { id: 'denied', name: 'Bash', input: { command: 'rm notes.txt' } },
    ], ['--approve', 'allow']);
    assert.equal(byId.get('asked')!.isError, false);
    assert.match(byId.get('asked')!.content, /hello/);
    assert.equal(byId.get('blocked')!.errorKind, 'permission');
    assert.equal(byId.get('denied')!.errorKind, 'permission');
  });

  it("the file's defaultMode applies unless --mode is given", () => {
    const plan = { ...settings, permissions: { ...settings.permissions, defaultMode: 'plan' } };
    assert.match(run(plan, [{ id: 'x', name: 'Bash', input: { command: 'echo hi' } }]).byId.get('x')!.content, /plan mode/);
    assert.equal(run(plan, [{ id: 'x', name: 'Bash', input: { command: 'echo hi' } }], ['--mode', 'default']).byId.get('x')!.isError, false);
  });

  it('a settings file that cannot be read is a usage error (exit 2) naming the file', () => {
    const result = spawnSync(process.execPath, [CLI, 'run', '--workspace', ws, '--settings', join(dir, 'missing.json'), '-'], { encoding: 'utf8', input: '[]' });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /missing\.json/);
  });
});
