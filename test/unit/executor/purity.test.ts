import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const CORE = join(__dirname, '..', '..', '..', '..', 'src', 'executor');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

describe('the executor core', () => {
  it('never imports vscode', () => {
    const files = sources(CORE);
    assert.ok(files.length > 20, `expected the core's sources under ${CORE}`);
    const offenders = files.filter((file) =>
      /(?:from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\))/.test(readFileSync(file, 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });
});
