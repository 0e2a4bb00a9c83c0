import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { AgentIgnoreFiles } from '../../../src/node/settings/agentIgnore';

describe('agent ignore files', () => {
  let root: string;
  let second: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(tmpdir(), 'aiignore-'));
    second = fs.mkdtempSync(path.join(tmpdir(), 'aiignore2-'));
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(second, { recursive: true, force: true });
  });

  it('reads gitignore syntax from every named file of every folder, and names the file that excludes a path', () => {
    fs.writeFileSync(path.join(root, '.aiignore'), '# private notes\nsecrets/\n*.pem\n!public.pem\n');
    fs.writeFileSync(path.join(second, '.cursorignore'), 'build/**\n');
    const ignored = new AgentIgnoreFiles(() => [root, second]);
    assert.equal(ignored.excludedBy(path.join(root, 'secrets', 'a.txt')), '.aiignore');
    assert.equal(ignored.excludedBy(path.join(root, 'secrets'), true), '.aiignore');
    assert.equal(ignored.excludedBy(path.join(root, 'deep', 'key.pem')), '.aiignore');
    assert.equal(ignored.excludedBy(path.join(root, 'public.pem')), undefined);
    assert.equal(ignored.excludedBy(path.join(root, 'src', 'a.ts')), undefined);
    assert.equal(ignored.excludedBy(path.join(second, 'build', 'out.js')), '.cursorignore');
    assert.equal(ignored.excludedBy(path.join(root, '.aiignore')), undefined, 'the ignore file itself stays readable');
    assert.equal(ignored.excludedBy('/etc/passwd'), undefined, 'outside the folders no file applies');
  });

  it('reloads: a new or changed file applies, a removed one stops applying; the list of names is a setting', () => {
    const ignored = new AgentIgnoreFiles(() => [root]);
    const file = path.join(root, 'notes.txt');
    assert.equal(ignored.excludedBy(file), undefined);
    fs.writeFileSync(path.join(root, '.aiignore'), 'notes.txt\n');
    ignored.reload();
    assert.equal(ignored.excludedBy(file), '.aiignore');
    ignored.reload(['.rooignore']);
    assert.equal(ignored.excludedBy(file), undefined);
    assert.deepEqual(ignored.sources(), []);
  });
});
