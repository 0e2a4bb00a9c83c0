import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

/** The repository root, from out/test/unit/tools. */
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

describe('README tool table', () => {
  it('documents every named limit of src/tools', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Built-in tools'));
    assert.ok(readme.includes('## Built-in tools'), 'README.md has a "Built-in tools" section');
    const missing: string[] = [];
    const toolsOut = path.join(ROOT, 'out', 'src', 'tools');
    // From the sources, so a stale compiled file of a deleted source does not count; the sandbox's limits are in its own section.
    const sources = (fs.readdirSync(path.join(ROOT, 'src', 'tools'), { recursive: true }) as string[]).filter((name) => name.endsWith('.ts') && !name.startsWith('sandbox'));
    for (const file of sources.map((name) => name.replace(/\.ts$/, '.js'))) {
      const exports = require(path.join(toolsOut, file)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exports)) {
        if (/^[A-Z][A-Z0-9_]+$/.test(name) && typeof value === 'number' && !section.includes(`\`${name}\``)) missing.push(`${file}: ${name}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});
