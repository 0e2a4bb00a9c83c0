import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { settingsHookSource } from '../../../src/node/hooks/commandHooks';
import { loadSettingsFile, loadStandardSettings, mergeSettings } from '../../../src/node/settings/settingsFile';
import { RecordingLogger } from '../executor/fixtures';

describe('settings files', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'settings-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('loadSettingsFile: missing files and bad JSON are values naming the file', async () => {
    const missing = await loadSettingsFile(path.join(dir, 'nope.json'));
    assert.equal(missing.ok, false);
    assert.match(missing.ok ? '' : missing.error, /nope\.json: ENOENT/);
    writeFileSync(path.join(dir, 'bad.json'), '{"permissions": ');
    const bad = await loadSettingsFile(path.join(dir, 'bad.json'));
    assert.match(bad.ok ? '' : bad.error, /bad\.json is not valid JSON/);
    writeFileSync(path.join(dir, 'list.json'), '[]');
    assert.equal((await loadSettingsFile(path.join(dir, 'list.json'))).ok, false);
  });

  it('loadStandardSettings: ~/.claude/settings.json, and the folder\'s settings.json with settings.local.json merged in', async () => {
    const home = path.join(dir, 'home');
    const ws = path.join(dir, 'ws');
    mkdirSync(path.join(home, '.claude'), { recursive: true });
    mkdirSync(path.join(ws, '.claude'), { recursive: true });
    writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }));
    writeFileSync(path.join(ws, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(make:*)'], defaultMode: 'default' } }));
    writeFileSync(path.join(ws, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { allow: ['Bash(npm test:*)'], defaultMode: 'acceptEdits' } }));
    const loaded = await loadStandardSettings(ws, home);
    assert.deepEqual(loaded.user, { permissions: { deny: ['Bash(rm:*)'] } });
    assert.deepEqual(loaded.workspace, { permissions: { allow: ['Bash(make:*)', 'Bash(npm test:*)'], defaultMode: 'acceptEdits' } });
    assert.deepEqual(loaded.problems, []);
    assert.deepEqual(await loadStandardSettings(undefined, path.join(dir, 'nobody')), { user: undefined, workspace: undefined, problems: [] });
  });

  it('mergeSettings concatenates lists and merges objects', () => {
    assert.deepEqual(mergeSettings({ a: [1], b: { c: 1 }, d: 1 }, { a: [2], b: { e: 2 }, d: 2 }), { a: [1, 2], b: { c: 1, e: 2 }, d: 2 });
  });

  it('settingsHookSource: workspace hooks run only in a trusted workspace', () => {
    const hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] };
    const logger = new RecordingLogger();
    assert.equal(settingsHookSource({ user: { hooks }, workspace: { hooks }, workspaceTrusted: true }, logger).hooksFor('PreToolUse', 'Bash').length, 2);
    assert.equal(settingsHookSource({ user: { hooks }, workspace: { hooks }, workspaceTrusted: false }, logger).hooksFor('PreToolUse', 'Bash').length, 1);
    assert.ok(logger.messages().includes('tool.hook.untrusted_workspace'));
  });
});
