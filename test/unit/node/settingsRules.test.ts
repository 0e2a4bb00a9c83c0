import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { addAllowRules, LOCAL_SETTINGS_FILE, listsRule, removeRule } from '../../../src/node/settings/settingsRules';

describe('settings rules (Allow in this workspace, the rules list)', () => {
  let folder: string;
  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(tmpdir(), 'rules-'));
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('creates .claude/settings.local.json with the rule, adds to an existing one once, keeps other keys', async () => {
    const file = await addAllowRules(folder, ['Bash(npm test)']);
    assert.equal(file, path.join(folder, LOCAL_SETTINGS_FILE));
    assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), { permissions: { allow: ['Bash(npm test)'] } });
    fs.writeFileSync(file, JSON.stringify({ env: { A: '1' }, permissions: { allow: ['Read'], deny: ['Bash(rm:*)'] } }));
    await addAllowRules(folder, ['Bash(npm test)', 'Read']);
    await addAllowRules(folder, ['Bash(npm test)']);
    assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), { env: { A: '1' }, permissions: { allow: ['Read', 'Bash(npm test)'], deny: ['Bash(rm:*)'] } });
    assert.equal(await listsRule(file, 'allow', 'Bash(npm test)'), true);
    assert.equal(await listsRule(file, 'deny', 'Bash(npm test)'), false);
  });

  it('removes a rule from the file that lists it, and says false when none does', async () => {
    const file = await addAllowRules(folder, ['Read', 'Bash(ls)']);
    assert.equal(await removeRule(file, 'allow', 'Bash(ls)'), true);
    assert.equal(await removeRule(file, 'allow', 'Bash(ls)'), false);
    assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')).permissions.allow, ['Read']);
  });

  it('never overwrites a broken file: it says what to fix', async () => {
    const file = path.join(folder, LOCAL_SETTINGS_FILE);
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, '{ "permissions": ');
    await assert.rejects(addAllowRules(folder, ['Read']), /not valid JSON.*fix it/);
    assert.equal(fs.readFileSync(file, 'utf8'), '{ "permissions": ');
    fs.writeFileSync(file, '{ "permissions": { "allow": "Read" } }');
    await assert.rejects(addAllowRules(folder, ['Read']), /"permissions.allow" is not a list/);
  });
});
