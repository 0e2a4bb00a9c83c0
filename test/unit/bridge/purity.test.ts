import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = join(__dirname, '..', '..', '..', '..');

describe('the bridge', () => {
  it('shares its protocol and service with the CLI and the reference agent: no vscode or languageclient import', () => {
    const files = [
      ...readdirSync(join(ROOT, 'src', 'bridge')).map((name) => join(ROOT, 'src', 'bridge', name)),
      join(ROOT, 'src', 'cli', 'serve.ts'),
      join(ROOT, 'examples', 'agent', 'agent.ts'),
    ].filter((file) => file.endsWith('.ts'));
    assert.ok(files.length >= 8);
    const offenders = files.filter((file) => /(?:from\s+|require\(\s*|import\(\s*)['"](?:vscode|vscode-languageclient[^'"]*)['"]/.test(readFileSync(file, 'utf8')));
    assert.deepEqual(offenders, []);
  });
});
