// Fault catalogue, class 1: Settings that fail open.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createPolicyFromSettings } from '../../../src/executor/policy/index';
import { allow, call, cli, core, result, type Run } from '../define';

// ── 1. Settings that fail open ──────────────────────────────────────────────────────────────────────────
const writeCall = [call('w', 'Write', { file_path: 'made.txt', content: 'x' })];
const refused = (key: RegExp) => (run: Run) => {
  assert.match(run.stderr, /settings\.json/);
  assert.match(run.stderr, key);
  assert.equal(fs.existsSync(path.join(run.workspace, 'made.txt')), false, 'nothing ran');
};
cli('settings-deny-string', 1, 'permissions.deny given as a string', 'exit 2 naming the file, permissions.deny and the problem; nothing runs', { settings: { permissions: { deny: 'Write' } }, calls: writeCall, extra: allow, exit: 2, check: refused(/permissions\.deny must be an array/) });
cli('settings-deny-object', 1, 'permissions.deny given as an object', 'exit 2, permissions.deny named', { settings: { permissions: { deny: { Write: true } } }, calls: writeCall, extra: allow, exit: 2, check: refused(/permissions\.deny must be an array/) });
cli('settings-permissions-array', 1, '`permissions` is an array', 'exit 2, "permissions must be an object"', { settings: { permissions: ['Write'] }, calls: writeCall, extra: allow, exit: 2, check: refused(/permissions must be an object/) });
cli('settings-permissions-string', 1, '`permissions` is a string', 'exit 2, "permissions must be an object"', { settings: { permissions: 'deny all' }, calls: writeCall, extra: allow, exit: 2, check: refused(/permissions must be an object/) });
cli('settings-rule-unbalanced', 1, 'a deny rule with unbalanced parentheses', 'runs: a warning naming the rule, read as an ask for every Write call (never a silent allow)', {
  settings: { permissions: { deny: ['Write(made.txt'] } },
  calls: writeCall,
  check: (run) => {
    assert.match(run.stderr, /warning: .*Write\(made\.txt' has no closing parenthesis; read as an ask for every Write call/);
    assert.equal(fs.existsSync(path.join(run.workspace, 'made.txt')), false, 'the write asked, and nobody could answer');
  },
});
cli('settings-ask-number', 1, 'a number in permissions.ask', 'exit 2, permissions.ask[0] named', { settings: { permissions: { ask: [42] } }, calls: writeCall, extra: allow, exit: 2, check: refused(/permissions\.ask\[0\] must be a string/) });
cli('settings-bad-mode', 1, 'permissions.defaultMode is not a mode', 'runs in plan mode, with a warning naming defaultMode', {
  settings: { permissions: { defaultMode: 'yolo', allow: ['Write'] } },
  calls: writeCall,
  extra: allow,
  check: (run) => {
    assert.match(run.stderr, /warning: .*defaultMode "yolo".*plan mode/);
    assert.equal(fs.existsSync(path.join(run.workspace, 'made.txt')), false, 'plan mode ran no write');
  },
});
cli('settings-hooks-string', 1, '`hooks` is a string', 'exit 2, "hooks must be an object"', { settings: { hooks: 'deny.sh' }, calls: writeCall, extra: allow, exit: 2, check: refused(/hooks must be an object/) });
cli('settings-hook-entry-broken', 1, 'a PreToolUse hook entry without a command', 'exit 2, the entry named', { settings: { hooks: { PreToolUse: [{ hooks: [{ type: 'command' }] }] } }, calls: writeCall, extra: allow, exit: 2, check: refused(/hooks\.PreToolUse\[0\]\.hooks\[0\]/) });
cli('settings-not-object', 1, 'a settings file holding an array', 'exit 2, "must hold a JSON object"', { settings: [], calls: writeCall, extra: allow, exit: 2, check: refused(/must hold a JSON object/) });
cli('settings-invalid-json', 1, 'a settings file that is not JSON', 'exit 2, "is not valid JSON"', { settings: '{"permissions": ', calls: writeCall, extra: allow, exit: 2, check: refused(/is not valid JSON/) });
cli('settings-unsupported-event', 1, 'a hook event the executor does not run (Stop)', 'runs: a notice, not a refusal', {
  settings: { hooks: { Stop: [] }, permissions: { allow: ['Write'] } },
  calls: writeCall,
  check: (run) => assert.equal(result(run, 'w').isError, false, result(run, 'w').content),
});
cli('settings-bom', 1, 'a settings file with a UTF-8 byte-order mark', 'accepted; its deny rule applies', {
  settings: `\uFEFF${JSON.stringify({ permissions: { deny: ['Write'] } })}`,
  calls: writeCall,
  extra: allow,
  check: (run) => assert.equal(result(run, 'w').errorKind, 'permission'),
});
core('policy-broken-deny-fails-closed', 1, 'host: a deny rule that does not parse (`Bash(rm -rf`)', 'read as a deny of every `rm -rf…` command, and the problem is listed as a warning', async () => {
  const policy = createPolicyFromSettings({ user: { permissions: { deny: ['Bash(rm -rf'], allow: ['Bash(ls:*)', 'Bash(rm:*)'] } }, workspaceTrusted: true, workspaceFolders: ['/tmp'] });
  assert.equal(policy.problems.length, 1);
  assert.deepEqual(policy.notices, policy.problems);
  const bash = { name: 'Bash', description: '', inputSchema: {} as never, handler: () => ({ content: '' }), sideEffectScope: 'external' } as never;
  const decide = (command: string) => policy.evaluate({ tool: bash, input: { command }, workspaceFolders: ['/tmp'] } as never, new AbortController().signal);
  assert.equal((await decide('ls && rm -rf build')).behavior, 'deny');
  assert.equal((await decide('rm -rfv build')).behavior, 'deny');
});
core('policy-broken-deny-list', 1, 'host: permissions.deny is an object', 'every tool is denied, even reads', async () => {
  const policy = createPolicyFromSettings({ user: { permissions: { deny: { Read: true } } }, workspaceTrusted: true, workspaceFolders: ['/tmp'] });
  const decision = await policy.evaluate({ tool: { name: 'Read', readOnly: true, sideEffectScope: 'none' } as never, input: { file_path: 'a.txt' }, workspaceFolders: ['/tmp'] } as never, new AbortController().signal);
  assert.equal(decision.behavior, 'deny');
});
core('policy-bad-mode-plan', 1, 'host: defaultMode is misspelled', 'plan mode: nothing that writes runs', () => {
  assert.equal(createPolicyFromSettings({ user: { permissions: { defaultMode: 'bypassPermission' } }, workspaceTrusted: true }).mode, 'plan');
});
