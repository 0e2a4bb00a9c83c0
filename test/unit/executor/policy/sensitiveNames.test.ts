// Every name on the always-ask list asks, and its near misses do not: a name dropped from the list would
// let a write (or a read of a secret) run unasked; a name matched too loosely would ask for ordinary files.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import picomatch from 'picomatch';
import { classifySensitive, SECRET_FILE_GLOBS } from '../../../../src/executor/policy/path/sensitiveFiles';

const memory = [
  '/w/AGENTS.md', '/w/a/AGENTS.override.md', '/w/CLAUDE.md', '/w/CLAUDE.local.md', '/w/GEMINI.md', '/w/.cursorrules',
  '/w/.windsurfrules', '/w/.clinerules', '/w/.roorules', '/w/.goosehints',
  '/w/.github/copilot-instructions.md', '/w/.github/instructions/ts.instructions.md', '/w/.github/prompts/review.prompt.md',
  '/w/.cursor/rules/style.mdc', '/w/.windsurf/rules/a.md', '/w/.clinerules/a.md', '/w/.roo/rules/a.md',
  '/w/.claude/CLAUDE.md', '/w/.claude/commands/deploy.md', '/w/.claude/agents/reviewer.md', '/w/pkg/.claude/agents/deep/x.md',
];
const memoryNearMisses = [
  '/w/AGENTS.md.bak', '/w/docs/agents.txt', '/w/copilot-instructions.md', '/w/.github/workflows/ci.yml', '/w/.github/README.md',
  '/w/.github/prompts', '/w/.cursor/rules', '/w/.cursor/settings.json', '/w/rules/a.md', '/w/.roo/a.md', '/w/.claude/notes.md',
  '/w/commands/deploy.md', '/w/.windsurf/a.md',
];
const config = [
  '/w/.git/config', '/w/.git/hooks/pre-commit', '/w/.vscode/settings.json', '/w/.vscode/tasks.json', '/w/.vscode/launch.json',
  '/w/.claude/settings.json', '/w/.claude/settings.local.json', '/w/.husky/pre-commit', '/w/.husky/_/husky.sh', '/.vscode/settings.json',
];
const configNearMisses = [
  '/w/src/settings.json', '/w/.vscode/extensions.json', '/w/.vscode', '/w/.husky', '/w/tasks.json', '/w/config', '/w/hooks/pre-commit',
  '/w/vscode/settings.json', '/w/.claude/settings.json.md',
];
const secrets = [
  '/w/.env', '/w/.env.local', '/w/.env.production', '/w/.ENV', '/home/u/.netrc', '/home/u/.pgpass', '/home/u/.aws/credentials',
  '/home/u/.git-credentials', '/w/tls/server.pem', '/w/tls/server.key', '/w/tls/cert.p12', '/w/tls/cert.pfx', '/home/u/.ssh/id_ed25519',
  '/home/u/.ssh/id_rsa',
];
const secretNearMisses = [
  '/w/config.env', '/w/credentials.md', '/w/src/keyboard.ts', '/w/monkey', '/w/x.pem.txt', '/w/grid_x', '/w/valid_x.ts',
  '/w/docs/netrc.md', '/w/src/key', '/w/pem',
];

describe('classifySensitive: every listed name, and its near misses', () => {
  it('agent memory files ask before a write, not before a read', () => {
    for (const file of memory) {
      assert.equal(classifySensitive(file, 'write')?.category, 'agent-memory', file);
      assert.equal(classifySensitive(file, 'read'), undefined, file);
    }
    for (const file of memoryNearMisses) assert.equal(classifySensitive(file, 'write'), undefined, file);
  });

  it('configuration that runs code asks before a write, not before a read', () => {
    for (const file of config) {
      assert.equal(classifySensitive(file, 'write')?.category, 'config', file);
      assert.equal(classifySensitive(file, 'read'), undefined, file);
    }
    for (const file of configNearMisses) assert.equal(classifySensitive(file, 'write'), undefined, file);
  });

  it('secrets ask before a read and a write', () => {
    for (const file of secrets) {
      assert.equal(classifySensitive(file, 'read')?.category, 'secret', file);
      assert.equal(classifySensitive(file, 'write')?.category, 'secret', file);
    }
    for (const file of secretNearMisses) {
      assert.equal(classifySensitive(file, 'read'), undefined, file);
      assert.equal(classifySensitive(file, 'write'), undefined, file);
    }
  });

  it('env templates and public keys are read freely, but still ask before a write', () => {
    for (const file of ['/w/.env.example', '/w/.env.sample', '/w/.env.template', '/w/.env.dist', '/w/.env.defaults', '/home/u/.ssh/id_rsa.pub']) {
      assert.equal(classifySensitive(file, 'read'), undefined, file);
      assert.equal(classifySensitive(file, 'write')?.category, 'secret', file);
    }
    for (const file of ['/w/.env.example.local', '/w/.env.examples', '/w/.env_example', '/w/.env-sample', '/w/.envexample', '/home/u/.ssh/id_rsa.pub.bak']) {
      assert.equal(classifySensitive(file, 'read')?.category, 'secret', file);
    }
  });

  it('names what matched, for the reason shown to the user', () => {
    assert.equal(classifySensitive('/w/.env.local', 'read')?.matched, '.env*');
    assert.equal(classifySensitive('/w/Server.PEM', 'read')?.matched, '*.pem');
    assert.equal(classifySensitive('/h/.ssh/id_ed25519', 'read')?.matched, 'id_*');
    assert.equal(classifySensitive('/h/.aws/Credentials', 'read')?.matched, 'credentials');
    assert.equal(classifySensitive('/w/pkg/AGENTS.md', 'write')?.matched, 'agents.md');
    assert.equal(classifySensitive('/w/.GitHub/Prompts/a/b.md', 'write')?.matched, '.github/prompts/**');
    assert.equal(classifySensitive('/w/.VSCode/Tasks.json', 'write')?.matched, '.vscode/tasks.json');
    assert.equal(classifySensitive('/w/.claude/settings.local.json', 'write')?.matched, '.claude/settings.local.json');
  });
});

describe('SECRET_FILE_GLOBS: a folder search skips what a Read would ask before', () => {
  const skipped = (name: string) => SECRET_FILE_GLOBS.some((glob) => picomatch(glob, { dot: true, nocase: true })(name));

  it('every secret name is skipped, and no ordinary name', () => {
    for (const file of secrets) {
      const name = file.slice(file.lastIndexOf('/') + 1);
      assert.equal(skipped(name), true, name);
    }
    for (const file of [...secretNearMisses, ...memory, ...config]) {
      const name = file.slice(file.lastIndexOf('/') + 1);
      assert.equal(skipped(name), false, name);
    }
  });
});
