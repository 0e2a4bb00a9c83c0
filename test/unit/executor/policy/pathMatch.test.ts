import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { parsePathPattern, pathPatternMatches } from '../../../../src/executor/policy/path/pathMatch';

// Each row: a rule's content, paths it must cover and paths it must not. Paths are relative to the
// workspace folder unless absolute. The "must not" side holds paths with two or more ancestors, the
// shape a truthy non-boolean from the glob library once let through.
const ws = '/w/ws';
const home = os.homedir();
const rows: Array<{ rule: string; covers: string[]; not: string[] }> = [
  { rule: 'docs/**', covers: ['docs/a.md', 'docs/x/y/z.md'], not: ['src/deep/er/x.ts', 'a/b/c', 'docs.md', 'src/docs/a.md', '/w/other/docs/a.md'] },
  { rule: './docs/**', covers: ['docs/a.md', 'docs/x/y.md'], not: ['src/deep/er/x.ts', 'x/docs/a.md'] },
  { rule: '/docs/**', covers: ['docs/a.md'], not: ['src/deep/er/x.ts', 'src/docs/a.md'] },
  { rule: 'docs', covers: ['docs/a.md', 'docs/x/y.md'], not: ['src/deep/er/x.ts', 'doc/a.md'] },
  { rule: 'src/*.ts', covers: ['src/a.ts'], not: ['src/x/a.ts', 'lib/deep/er/a.ts', 'src/a.js'] },
  { rule: '~/notes/**', covers: [path.join(home, 'notes/a.md')], not: [path.join(ws, 'src/deep/er/x.ts'), path.join(home, 'other/deep/x')] },
  { rule: '//nonexistent/**', covers: ['/nonexistent/a', '/nonexistent/b/c/d'], not: ['/etc/deep/er/passwd', path.join(ws, 'src/deep/er/x.ts'), '/nonexistentx/a/b'] },
  { rule: '//etc/passwd', covers: ['/etc/passwd'], not: ['/etc/deep/er/passwd', '/etc/shadow'] },
  { rule: '.env', covers: ['.env', 'a/b/.env', 'a/.env/x'], not: ['a/b/c.env', 'src/deep/er/x.ts'] },
  { rule: '*.pem', covers: ['k.pem', 'a/b/k.pem'], not: ['a/b/k.pem.txt', 'src/deep/er/x.ts'] },
];

describe('pathPatternMatches: a rule covers what it names and nothing else', () => {
  for (const { rule, covers, not } of rows) {
    it(rule, () => {
      const pattern = parsePathPattern(rule);
      const absolute = (p: string) => (path.isAbsolute(p) ? p : path.join(ws, p));
      for (const p of covers) assert.equal(pathPatternMatches(pattern, absolute(p), [ws]), true, `${rule} covers ${p}`);
      for (const p of not) assert.equal(pathPatternMatches(pattern, absolute(p), [ws]), false, `${rule} must not cover ${p}`);
    });
  }

  it('answers a boolean, never the glob library\'s match object', () => {
    const answer: unknown = pathPatternMatches(parsePathPattern('docs/**'), path.join(ws, 'src/deep/er/x.ts'), [ws]);
    assert.equal(typeof answer, 'boolean');
  });
});
