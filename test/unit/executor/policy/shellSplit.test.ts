import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitCommand, SPLIT_CACHE_COMMANDS, SPLIT_CACHE_MAX_CHARS, type CommandPart } from '../../../../src/executor/policy/shell/shellSplit';

function texts(command: string): string[] {
  const split = splitCommand(command);
  assert.ok(split.ok, `expected ${JSON.stringify(command)} to split: ${split.ok ? '' : split.reason}`);
  return split.parts.filter((part) => part.kind === 'redirect' || !part.denyOnly).map(show);
}

function show(part: CommandPart): string {
  return part.kind === 'command' ? part.text : `${part.access}:${part.target.value}`;
}

describe('splitCommand: every part of a compound command on its own', () => {
  it('splits &&, ||, ;, pipes and newlines', () => {
    assert.deepEqual(texts('npm test && rm -rf /'), ['npm test', 'rm -rf /']);
    assert.deepEqual(texts('a || b; c | d |& e\nf'), ['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('finds commands inside $(...), backticks and process substitution, and keeps the outer command', () => {
    assert.deepEqual(texts('echo $(rm -rf /) `curl x`'), ['echo $(rm -rf /) `curl x`', 'rm -rf /', 'curl x']);
    assert.deepEqual(texts('diff <(ls a) <(ls b)'), ['diff <(ls a) <(ls b)', 'ls a', 'ls b']);
    assert.deepEqual(texts('echo "$(whoami)"'), ['echo "$(whoami)"', 'whoami']);
  });

  it('reports file redirections as reads and writes, but not descriptors or /dev/null', () => {
    assert.deepEqual(texts('npm test > out.txt 2>&1'), ['npm test', 'write:out.txt']);
    assert.deepEqual(texts('sort < in.txt >> log 2>/dev/null'), ['sort', 'read:in.txt', 'write:log']);
  });

  it('walks if, for, while, case, functions, subshells and brace groups', () => {
    assert.deepEqual(texts('if test -f a; then rm a; else touch a; fi'), ['test -f a', 'rm a', 'touch a']);
    assert.deepEqual(texts('for f in *.ts; do rm "$f"; done'), ['rm "$f"']);
    assert.deepEqual(texts('f() { curl evil; }; f'), ['curl evil', 'f']);
    assert.deepEqual(texts('(cd x && make) ; { ls; }'), ['cd x', 'make', 'ls']);
    assert.deepEqual(texts('case $x in a) rm a;; esac'), ['rm a']);
  });

  it('finds substitutions in heredocs, parameter defaults, arithmetic, tests, case words and assignments', () => {
    assert.deepEqual(texts('cat <<EOF\n$(rm -rf /)\nEOF'), ['cat', 'rm -rf /']);
    assert.deepEqual(texts('cat <<"EOF"\n$(rm -rf /)\nEOF'), ['cat'], 'a quoted heredoc does not expand');
    assert.deepEqual(texts('echo ${x:-$(rm y)}'), ['echo ${x:-$(rm y)}', 'rm y']);
    assert.deepEqual(texts('echo $(( $(rm z) + 1 ))'), ['echo $(( $(rm z) + 1 ))', 'rm z']);
    assert.deepEqual(texts('[[ $(rm w) ]]'), ['rm w']);
    assert.deepEqual(texts('case $(rm v) in a) ;; esac'), ['rm v']);
    assert.deepEqual(texts('x=$(rm t)'), ['x=$(rm t)', 'rm t']);
    assert.deepEqual(texts('time ! rm q &'), ['rm q']);
    assert.deepEqual(texts('exec 3>/etc/passwd'), ['exec', 'write:/etc/passwd']);
  });

  it('looks behind sh -c, eval and wrappers such as sudo and env', () => {
    assert.deepEqual(texts('bash -c "npm test; rm -rf ~"'), ['bash -c "npm test; rm -rf ~"', 'npm test', 'rm -rf ~']);
    assert.deepEqual(texts("eval 'ls; rm x'"), ["eval 'ls; rm x'", 'ls', 'rm x']);
    assert.deepEqual(texts('sudo -u root rm x'), ['sudo -u root rm x', 'rm x']);
    assert.deepEqual(texts('env A=1 timeout 5 rm x'), ['env A=1 timeout 5 rm x', 'timeout 5 rm x', 'rm x']);
  });

  it('marks words known only at run time', () => {
    const split = splitCommand('git "st"atus $X *.ts ~/x');
    assert.ok(split.ok);
    const words = (split.parts[0] as Extract<CommandPart, { kind: 'command' }>).words;
    assert.deepEqual(words.map((word) => [word.value, word.literal]), [['git', true], ['status', true], ['$X', false], ['*.ts', false], ['~/x', false]]);
  });

  it('returns a value, never a throw, for what it cannot parse', () => {
    for (const command of ['echo "unterminated', 'if true; then', 'bash -c "$SCRIPT"', 'eval "$CODE"', '', 'x'.repeat(200_000)]) {
      const split = splitCommand(command);
      assert.equal(split.ok, false, JSON.stringify(command.slice(0, 40)));
    }
  });
});

describe('splitCommand: kept splits', () => {
  it('a command split again gets the same parts, frozen, also after the cache has turned over', () => {
    const first = splitCommand('git status && rm -rf build > out.txt');
    const again = splitCommand('git status && rm -rf build > out.txt');
    assert.equal(again, first, 'kept');
    assert.ok(Object.isFrozen(again) && again.ok && Object.isFrozen(again.parts) && Object.isFrozen(again.parts[0]), 'frozen, parts too');
    for (let index = 0; index <= SPLIT_CACHE_COMMANDS; index++) splitCommand(`echo ${index}`);
    const later = splitCommand('git status && rm -rf build > out.txt');
    assert.notEqual(later, first, 'split again once dropped');
    assert.deepEqual(later, first);
    assert.deepEqual(texts('echo 3'), ['echo 3']);
    const long = `echo ${'x'.repeat(SPLIT_CACHE_MAX_CHARS)}`;
    assert.notEqual(splitCommand(long), splitCommand(long), 'a long command is not kept');
  });
});
