// How the split reads env's options: where `-S` (a command line env splits and runs) starts, and where
// the wrapped command starts when there is none. A misread hides a denied command or invents one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_NESTED_SHELL_DEPTH, splitCommand } from '../../../../src/executor/policy/shell/shellSplit';

/** The parts every rule must allow, as their text (deny-only guesses left out). */
function texts(command: string): string[] {
  const split = splitCommand(command);
  assert.ok(split.ok, `expected ${JSON.stringify(command)} to split: ${split.ok ? '' : split.reason}`);
  return split.parts.flatMap((part) => (part.kind === 'command' && !part.denyOnly ? [part.text] : []));
}

const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

describe('env -S and the words around it', () => {
  it('finds -S after options, assignments and option values, glued or apart', () => {
    assert.deepEqual(texts("env -i -S 'rm x'"), ["env -i -S 'rm x'", 'rm x']);
    assert.deepEqual(texts("env -iS'rm x'"), ["env -iS'rm x'", 'rm x']);
    assert.deepEqual(texts("env AB=1 -S 'rm x'"), ["env AB=1 -S 'rm x'", 'rm x']);
    assert.deepEqual(texts("env -u X -S'rm' a"), ["env -u X -S'rm' a", 'rm a'], 'the words after a glued -S follow its line, not the ones before');
  });

  it('stops at the command: a -S after it, or inside a word, is that command\'s', () => {
    assert.deepEqual(texts('env ls -S rm'), ['env ls -S rm', 'ls -S rm']);
    assert.deepEqual(texts('env foo-S bar'), ['env foo-S bar', 'foo-S bar']);
    assert.deepEqual(texts('env foo-Sx y'), ['env foo-Sx y', 'foo-Sx y']);
    assert.deepEqual(texts('env 1A=x -S rm'), ['env 1A=x -S rm', '1A=x -S rm'], '1A=x is no assignment, so it is the command');
  });

  it('env with options or assignments only runs nothing more', () => {
    assert.deepEqual(texts('env -i'), ['env -i']);
    assert.deepEqual(texts('env A=1 B=2'), ['env A=1 B=2']);
  });

  it('a -S of another wrapper is no command line (sudo -S reads the password from stdin)', () => {
    assert.deepEqual(texts('sudo -S -u root rm x'), ['sudo -S -u root rm x', 'rm x']);
  });

  it('env -S inside env -S counts toward the nesting limit', () => {
    let line = 'ls';
    for (let depth = 0; depth < MAX_NESTED_SHELL_DEPTH; depth += 1) line = `env -S ${quote(line)}`;
    assert.ok(texts(line).includes('ls'));
    const deeper = splitCommand(`env -S ${quote(line)}`);
    assert.equal(deeper.ok, false);
    assert.match(deeper.ok ? '' : deeper.reason, /nested more than/);
  });
});
