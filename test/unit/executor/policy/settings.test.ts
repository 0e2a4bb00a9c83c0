import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPolicyFromSettings, parseSettings } from '../../../../src/executor/policy/settings';

describe('parseSettings: Claude Code settings.json as it is', () => {
  it('reads permissions, defaultMode, additionalDirectories and command hooks (timeouts in seconds)', () => {
    const parsed = parseSettings(
      {
        $schema: 'https://json.schemastore.org/claude-code-settings.json',
        permissions: { allow: ['Read', 'Bash(npm test:*)'], deny: ['Read(.env)'], defaultMode: 'acceptEdits', additionalDirectories: ['../lib'] },
        hooks: {
          PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'lint.sh', timeout: 5 }] }],
          PostToolUse: [{ hooks: [{ type: 'command', command: 'format.sh' }] }],
        },
        model: 'whatever',
      },
      'settings.json',
    );
    assert.deepEqual(parsed.rules, { allow: ['Read', 'Bash(npm test:*)'], ask: [], deny: ['Read(.env)'] });
    assert.equal(parsed.defaultMode, 'acceptEdits');
    assert.deepEqual(parsed.additionalDirectories, ['../lib']);
    assert.deepEqual(
      parsed.hooks.map((hook) => [hook.event, hook.matcher, hook.command, hook.timeoutMs]),
      [
        ['PreToolUse', 'Edit|Write', 'lint.sh', 5000],
        ['PostToolUse', undefined, 'format.sh', undefined],
      ],
    );
    assert.deepEqual(parsed.problems, []);
  });

  it('reports what it cannot use, and keeps the rest', () => {
    const parsed = parseSettings({ permissions: { allow: 'Read' }, hooks: { Stop: [], PreToolUse: [{ hooks: [{ type: 'prompt', prompt: 'x' }] }] } }, 'f');
    assert.equal(parsed.problems.length, 3, parsed.problems.join('\n'));
    assert.deepEqual(parseSettings([], 'f').problems, ['f: settings must be a JSON object; every tool is denied until it is fixed']);
  });

  it('bypassPermissions is bypass; an explicit mode beats the file', () => {
    assert.equal(createPolicyFromSettings({ user: { permissions: { defaultMode: 'bypassPermissions' } }, workspaceTrusted: true }).mode, 'bypass');
    assert.equal(createPolicyFromSettings({ user: { permissions: { defaultMode: 'bypassPermissions' } }, mode: 'plan', workspaceTrusted: true }).mode, 'plan');
  });

  it('an untrusted workspace may tighten the mode but not loosen it', () => {
    assert.equal(createPolicyFromSettings({ workspace: { permissions: { defaultMode: 'plan' } }, workspaceTrusted: false }).mode, 'plan');
    assert.equal(createPolicyFromSettings({ workspace: { permissions: { defaultMode: 'acceptEdits' } }, workspaceTrusted: false }).mode, 'default');
  });
});

describe('settings fail closed: a broken part never widens what runs', () => {
  const tool = (name: string, readOnly = false) => ({ name, description: '', readOnly, sideEffectScope: readOnly ? 'none' : 'workspace' });
  const evaluate = (policy: ReturnType<typeof createPolicyFromSettings>, name: string, input: unknown, readOnly = false) =>
    policy.evaluate({ tool: tool(name, readOnly), input, workspaceFolders: ['/tmp'] } as never, new AbortController().signal);

  it('a deny rule that does not parse is read conservatively: its readable words and anything after; with none, its tool asks', async () => {
    const bashOnly = createPolicyFromSettings({ user: { permissions: { deny: ['Bash(rm -rf'], allow: ['Bash', 'Read'] } }, workspaceTrusted: true, workspaceFolders: ['/tmp'] });
    assert.equal((await evaluate(bashOnly, 'Bash', { command: 'rm -rf /tmp/x' })).behavior, 'deny');
    assert.equal((await evaluate(bashOnly, 'Bash', { command: 'rm -rfv x' })).behavior, 'deny', 'the last word may have been cut: -rf… is denied');
    assert.equal((await evaluate(bashOnly, 'Bash', { command: 'ls' })).behavior, 'allow');
    assert.equal((await evaluate(bashOnly, 'Read', { file_path: '/tmp/a' }, true)).behavior, 'allow');
    assert.match(bashOnly.problems[0]!, /permissions\.deny: rule 'Bash\(rm -rf' has no closing parenthesis; read as a deny of Bash\(rm -rf\*\)/);
    assert.deepEqual(bashOnly.notices, bashOnly.problems, 'a rule that cannot be read is a warning, never a reason to refuse the file');
    const nothingReadable = createPolicyFromSettings({ user: { permissions: { deny: ['Bash("rm'], allow: ['Bash'] } }, workspaceTrusted: true, workspaceFolders: ['/tmp'] });
    assert.equal((await evaluate(nothingReadable, 'Bash', { command: 'ls' })).behavior, 'ask');
    const everything = createPolicyFromSettings({ user: { permissions: { deny: ['(oops'] } }, workspaceTrusted: true, workspaceFolders: ['/tmp'] });
    assert.equal((await evaluate(everything, 'Read', { file_path: '/tmp/a' }, true)).behavior, 'ask');
  });

  it('a deny list of the wrong shape, or permissions that are not an object, deny every tool; a broken ask list asks', async () => {
    for (const permissions of [{ deny: 'Bash(rm:*)' }, { deny: { Bash: true } }, { deny: [7] }, 'nope', ['Bash']]) {
      const policy = createPolicyFromSettings({ user: { permissions }, workspaceTrusted: true, workspaceFolders: ['/tmp'] });
      assert.equal((await evaluate(policy, 'Read', { file_path: '/tmp/a' }, true)).behavior, 'deny', JSON.stringify(permissions));
      assert.ok(policy.problems.length > 0);
    }
    const asks = createPolicyFromSettings({ user: { permissions: { ask: 'Read' } }, workspaceTrusted: true, workspaceFolders: ['/tmp'] });
    assert.equal((await evaluate(asks, 'Read', { file_path: '/tmp/a' }, true)).behavior, 'ask');
  });

  it('broken allow rules are dropped, a mode that is not one is plan, and unknown hook events are only notices', () => {
    const policy = createPolicyFromSettings({ user: { permissions: { allow: 'Bash', defaultMode: 'bypassPermission' }, hooks: { Stop: [] } }, workspaceTrusted: true, origins: { user: '/home/u/.claude/settings.json' } });
    assert.equal(policy.mode, 'plan');
    assert.equal(policy.notices.length, 2, "the unknown mode and the hook event: warnings, never a refusal");
    assert.ok(policy.problems.every((problem) => problem.startsWith('/home/u/.claude/settings.json: ')));
    assert.equal(policy.allRules.some((rule) => rule.behavior === 'allow'), false);
  });

  it('an allow rule on every tool is refused: only a broken deny or ask becomes one', () => {
    const policy = createPolicyFromSettings({ user: { permissions: { allow: ['*'] } }, workspaceTrusted: true });
    assert.equal(policy.allRules.length, 0);
    assert.match(policy.problems[0]!, /an allow rule must name a tool/);
  });
});
