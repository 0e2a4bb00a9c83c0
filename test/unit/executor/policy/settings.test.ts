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
