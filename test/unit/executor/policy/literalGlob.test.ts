// The glob a lasting rule writes for one approved path: every glob character escaped, so the rule names
// that path and nothing else (a file named `*` must not become a rule for the whole folder).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLiteralGlob, literalGlob, parsePathPattern, pathPatternMatches } from '../../../../src/executor/policy/path/pathMatch';

const FOLDER = '/w/home';
const NAMES = ['*', '**', '?', '!(x)', '{a,b}', '[ab]', '@(a)', '+(a)', '*(a)', 'a|b', '(p)', 'back\\slash', 'x.txt'];
const OTHERS = ['a', 'b', 'x', 'p', 'ab', '.bashrc', 'x.tx', 'xtxt'];

const ruleFor = (file: string) => parsePathPattern(`/${literalGlob(file)}`);

describe('literalGlob: a rule for exactly one path', () => {
  it('matches the path it was made for, whatever glob characters its name holds', () => {
    for (const name of NAMES) {
      const file = `${FOLDER}/${name}`;
      assert.equal(pathPatternMatches(ruleFor(file), file, []), true, name);
    }
  });

  it('matches no other file of the folder, nor the folder\'s other names', () => {
    for (const name of NAMES) {
      const rule = ruleFor(`${FOLDER}/${name}`);
      for (const other of [...OTHERS, ...NAMES.filter((candidate) => candidate !== name)]) {
        assert.equal(pathPatternMatches(rule, `${FOLDER}/${other}`, []), false, `${name} matched ${other}`);
      }
    }
  });

  it('has no wildcard left, as picomatch reads it; a glob with one is not literal', () => {
    for (const name of NAMES) assert.equal(isLiteralGlob(literalGlob(`${FOLDER}/${name}`)), true, name);
    for (const glob of [`${FOLDER}/*`, `${FOLDER}/**`, `${FOLDER}/{a,b}`, `${FOLDER}/!(x)`, `${FOLDER}/[ab]`]) assert.equal(isLiteralGlob(glob), false, glob);
  });
});
