import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifySensitive } from '../../../../src/executor/policy/path/sensitiveFiles';

describe('classifySensitive', () => {
  it('asks before writing agent memory files and their kin, at any depth and in any case', () => {
    for (const file of ['/w/AGENTS.md', '/w/pkg/agents.md', '/w/CLAUDE.md', '/w/CLAUDE.local.md', '/w/.github/copilot-instructions.md', '/w/.github/instructions/ts.instructions.md', '/w/.cursorrules', '/w/.cursor/rules/a.mdc', '/w/.windsurfrules', '/w/GEMINI.md']) {
      assert.equal(classifySensitive(file, 'write')?.category, 'agent-memory', file);
      assert.equal(classifySensitive(file, 'read'), undefined, file);
    }
  });

  it('asks before writing configuration that runs code', () => {
    for (const file of ['/w/.git/config', '/w/.git/hooks/pre-commit', '/w/.vscode/settings.json', '/w/.vscode/tasks.json', '/w/.claude/settings.json']) {
      assert.equal(classifySensitive(file, 'write')?.category, 'config', file);
    }
    assert.equal(classifySensitive('/w/src/config', 'write'), undefined);
  });

  it("asks before writing anything of git's: the whole .git folder, a .git file, .gitmodules, at any depth", () => {
    for (const file of ['/w/.git/commondir', '/w/.git/objects/info/alternates', '/w/.git/worktrees/x/gitdir', '/w/.git/modules/a/hooks/x', '/w/.git/index', '/w/sub/.git', '/w/.GIT/Config', '/w/.gitmodules', '/w/lib/.GitModules']) {
      assert.equal(classifySensitive(file, 'write')?.category, 'config', file);
      assert.equal(classifySensitive(file, 'read'), undefined, file);
    }
    for (const file of ['/w/.gitignore', '/w/.gitattributes', '/w/x.git', '/w/git/config', '/w/.github/workflows/ci.yml', '/w/.gitkeep']) assert.equal(classifySensitive(file, 'write'), undefined, file);
  });

  it('asks before writing an ignore file by name, the names in force or the defaults', () => {
    for (const file of ['/w/.aiignore', '/w/.cursorignore', '/w/.AIEXCLUDE']) assert.equal(classifySensitive(file, 'write')?.category, 'ignore-file', file);
    assert.equal(classifySensitive('/w/.myignore', 'write', ['.myignore'])?.category, 'ignore-file');
    assert.equal(classifySensitive('/w/.aiignore', 'write', ['.myignore']), undefined, 'only the names in force');
    assert.equal(classifySensitive('/w/.aiignore.bak', 'write'), undefined);
    assert.equal(classifySensitive('/w/.aiignore', 'read'), undefined);
  });

  it('asks before reading or writing secrets, but not public keys or env templates on read', () => {
    for (const file of ['/w/.env', '/w/.env.production', '/w/certs/server.pem', '/w/tls.key', '/home/u/.ssh/id_ed25519', '/home/u/.aws/credentials', '/home/u/.netrc']) {
      assert.equal(classifySensitive(file, 'read')?.category, 'secret', file);
      assert.equal(classifySensitive(file, 'write')?.category, 'secret', file);
    }
    assert.equal(classifySensitive('/home/u/.ssh/id_ed25519.pub', 'read'), undefined);
    assert.equal(classifySensitive('/w/.env.example', 'read'), undefined);
    assert.equal(classifySensitive('/w/.env.example', 'write')?.category, 'secret');
    assert.equal(classifySensitive('/w/src/keyboard.ts', 'read'), undefined);
  });

  it('reads the name as the last segment of the path, whatever its case or trailing separators', () => {
    for (const file of ['/w/.ENV', '/w/.env/', '/w/certs//Server.PEM//', '.netrc', '/home/u/.AWS/Credentials']) {
      assert.equal(classifySensitive(file, 'read')?.category, 'secret', file);
    }
    for (const file of ['/', '', '/.env.d/readme', '/w/.env.example/']) assert.equal(classifySensitive(file, 'read'), undefined, file);
    assert.equal(classifySensitive('/w/.github/prompts/', 'write'), undefined);
    assert.equal(classifySensitive('/w/.GitHub/Prompts/x.md', 'write')?.category, 'agent-memory');
  });
});
