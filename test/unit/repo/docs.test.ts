import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

/** The repository root, from out/test/unit/repo. */
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/** Every repository path a text names under one of these folders: `src/executor/turn/turn.ts`, `src/tools/`. */
export function pathsNamed(text: string): string[] {
  const found = text.match(/(?<![\w./-])(?:src|test|scripts|docs|bench)\/[\w./-]*[\w/]/g) ?? [];
  return [...new Set(found)].sort();
}

function missingPaths(doc: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
  return pathsNamed(text).filter((named) => !fs.existsSync(path.join(ROOT, named)));
}

describe('docs name what exists', () => {
  it('every path docs/ARCHITECTURE.md names exists', () => {
    assert.ok(pathsNamed(fs.readFileSync(path.join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8')).length > 40);
    assert.deepEqual(missingPaths('docs/ARCHITECTURE.md'), []);
  });

  it('every path docs/MEASUREMENTS.md and CONTRIBUTING.md name exists', () => {
    assert.deepEqual(missingPaths('docs/MEASUREMENTS.md'), []);
    assert.deepEqual(missingPaths('CONTRIBUTING.md'), []);
  });

  it('every section of docs/MEASUREMENTS.md a comment points to exists', () => {
    const headings = new Set(
      [...fs.readFileSync(path.join(ROOT, 'docs', 'MEASUREMENTS.md'), 'utf8').matchAll(/^## (.+?)(?: \(.*\))?$/gm)].map((match) => match[1]!),
    );
    const files = [...(fs.readdirSync(path.join(ROOT, 'src'), { recursive: true }) as string[]).map((name) => path.join('src', name)), 'scripts/build.mjs'];
    const missing: string[] = [];
    let pointers = 0;
    for (const file of files.filter((name) => /\.(ts|mjs)$/.test(name))) {
      // A pointer may wrap onto the next comment line: `(docs/MEASUREMENTS.md, "Mount\n * table")`.
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/\n\s*(?:\/\/|\*)\s*/g, ' ');
      for (const match of text.matchAll(/docs\/MEASUREMENTS\.md, "([^"]+)"/g)) {
        pointers++;
        if (!headings.has(match[1]!)) missing.push(`${file}: "${match[1]}"`);
      }
    }
    assert.ok(pointers > 10, `pointers found: ${pointers}`);
    assert.deepEqual(missing, []);
  });

  it('finds the paths a text names, and only those', () => {
    assert.deepEqual(pathsNamed('See `src/executor/turn/turn.ts` and src/tools/, not mysrc/x or a/src/y.'), ['src/executor/turn/turn.ts', 'src/tools/']);
  });
});
