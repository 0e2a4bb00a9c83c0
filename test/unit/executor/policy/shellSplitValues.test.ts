// The values a word of a Bash command can take before it runs (brace expansion, loop variables, plain
// arithmetic), and what makes a line unjudgeable: what an allowed command may then open, or why it asks.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { createPolicyFromSettings } from '../../../../src/executor/policy/index';
import { MAX_WORD_ALTERNATIVES, splitCommand, type CommandWord, type SimpleCommandPart } from '../../../../src/executor/policy/shell/shellSplit';

const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'split-values-')));
after(() => fs.rmSync(workspace, { recursive: true, force: true }));
const policy = createPolicyFromSettings({ user: { permissions: { allow: ['Bash(cat:*)', 'Bash(echo:*)'] } }, workspaceTrusted: true, workspaceFolders: [workspace] });
const bash = { name: 'Bash', description: '', sideEffectScope: 'external', permissionSubject: (input: { command: string }) => ({ kind: 'command', command: input.command }) };
const decide = (command: string) => policy.evaluate({ tool: bash, input: { command }, workspaceFolders: [workspace] } as never, new AbortController().signal);

function commands(command: string): SimpleCommandPart[] {
  const split = splitCommand(command);
  assert.ok(split.ok, `expected ${JSON.stringify(command)} to split: ${split.ok ? '' : split.reason}`);
  return split.parts.filter((part): part is SimpleCommandPart => part.kind === 'command');
}

/** The word of `command` whose source text is `text`, in its first command that has one. */
function word(command: string, text: string): CommandWord {
  for (const part of commands(command)) {
    const found = part.words.find((candidate) => candidate.text === text);
    if (found) return found;
  }
  assert.fail(`no word ${text} in ${command}`);
}

const values = (command: string, text: string) => word(command, text).alternatives;

describe('arithmetic that bash may run as a command', () => {
  it('a $((…)) holding a name asks, even after a parenthesized number', async () => {
    // bash evaluates a name in $((…)) as arithmetic in turn: x='a[$(cmd)]' runs cmd.
    for (const command of ['echo $(( x ))', 'echo $(( ((1)) + x ))', 'echo $(( x + $((1)) ))', 'echo "$(( (1) + (2) * x ))"', 'echo ${y:-$(( ((1)) + HOME ))}']) {
      const split = splitCommand(command);
      assert.ok(split.ok && split.unjudgeable?.includes('not plain arithmetic'), command);
      assert.equal((await decide(command)).behavior, 'ask', command);
    }
  });

  it('plain arithmetic, nested parentheses included, runs under the rule', async () => {
    for (const command of ['echo $((1+2))', 'echo $(( ((1)) + 2 ))', 'echo $(( (1) ))x$((3))']) {
      const split = splitCommand(command);
      assert.ok(split.ok && split.unjudgeable === undefined, command);
      assert.equal((await decide(command)).behavior, 'allow', command);
    }
  });
});

describe('the values of a word known before it runs', () => {
  it('a brace list, in any kind of quote around it, gives each value', () => {
    assert.deepEqual(values('cat a{1,2}', 'a{1,2}'), ['a1', 'a2']);
    assert.deepEqual(values("cat 'x'{1,2}", "'x'{1,2}"), ['x1', 'x2']);
    assert.deepEqual(values("cat $'x'{1,2}", "$'x'{1,2}"), ['x1', 'x2']);
    assert.deepEqual(values('cat "x y"{1,2}', '"x y"{1,2}'), ['x y1', 'x y2']);
    assert.deepEqual(values('cat x{1,2}~', 'x{1,2}~'), ['x1~', 'x2~'], 'a ~ not leading the word is a plain character');
    assert.deepEqual(values('cat {a,b}{c,d}', '{a,b}{c,d}'), ['ac', 'ad', 'bc', 'bd']);
  });

  it('a brace range spells out numbers (zero-padded as bash pads them) and letters, either way round', () => {
    assert.deepEqual(values('cat a{8..10}', 'a{8..10}'), ['a8', 'a9', 'a10']);
    assert.deepEqual(values('cat {3..1}', '{3..1}'), ['3', '2', '1']);
    assert.deepEqual(values('cat {c..a}', '{c..a}'), ['c', 'b', 'a']);
    assert.deepEqual(values('cat {x..x}', '{x..x}'), ['x']);
    assert.deepEqual(values('cat {01..03}', '{01..03}'), ['01', '02', '03']);
    assert.deepEqual(values('cat {1..03}', '{1..03}'), ['01', '02', '03'], 'one padded end pads every value');
    // As bash prints them (printf's %0*d: the width of the longer end, its sign included).
    assert.deepEqual(values('cat {-01..02}', '{-01..02}'), ['-01', '000', '001', '002']);
    assert.deepEqual(values('cat {-1..02}', '{-1..02}'), ['-1', '00', '01', '02']);
    assert.deepEqual(values('cat {1..-02}', '{1..-02}'), ['001', '000', '-01', '-02']);
    assert.deepEqual(values('cat {05..-3}', '{05..-3}'), ['05', '04', '03', '02', '01', '00', '-1', '-2', '-3']);
    assert.deepEqual(values('cat {-2..1}', '{-2..1}'), ['-2', '-1', '0', '1']);
    const wide = values('cat {-100..-40}', '{-100..-40}');
    assert.equal(wide?.length, 61);
    assert.deepEqual([wide?.[0], wide?.at(-1)], ['-100', '-40'], 'no end starts with 0: nothing is padded');
  });

  it('the word limit: a range or product past it is unknown, one at it is spelled out', () => {
    assert.equal(values(`cat {1..${MAX_WORD_ALTERNATIVES}}`, `{1..${MAX_WORD_ALTERNATIVES}}`)?.length, MAX_WORD_ALTERNATIVES);
    assert.equal(values(`cat {1..${MAX_WORD_ALTERNATIVES + 1}}`, `{1..${MAX_WORD_ALTERNATIVES + 1}}`), undefined);
    assert.equal(values(`cat {1..${MAX_WORD_ALTERNATIVES + 2}}`, `{1..${MAX_WORD_ALTERNATIVES + 2}}`), undefined);
    assert.equal(values('cat {1..8}{1..8}', '{1..8}{1..8}')?.length, 64);
    assert.equal(values('cat {1..5}{1..13}', '{1..5}{1..13}'), undefined);
  });

  it('a range too long to spell out is not spelled out', () => {
    assert.equal(values('cat {1..1000000000}', '{1..1000000000}'), undefined);
  });

  it('what bash leaves as written, or cannot be spelled out, is unknown', () => {
    for (const text of ['{1..a}', '{1..10..2}', '{a..zz}', '*', '*.ts', '~root/{a,b}', '$F', '${F}', '${#F}', '$(ls)x']) {
      const found = word(`cat ${text}`, text);
      assert.equal(found.literal, false, text);
      assert.equal(found.alternatives, undefined, text);
    }
  });

  it('plain arithmetic, a numeric parameter and a pipe stand for values that name no other file', () => {
    assert.deepEqual(values('cat a$((1+1))', 'a$((1+1))'), ['a0']);
    assert.deepEqual(values('cat x$?', 'x$?'), ['x0']);
    assert.deepEqual(values('cat x${#}', 'x${#}'), ['x0']);
    assert.deepEqual(values('cat <(ls)', '<(ls)'), ['']);
    assert.equal(values('cat a$((x))', 'a$((x))'), undefined);
  });

  it('a literal word has its value and nothing else', () => {
    assert.deepEqual(word('cat "a b"', '"a b"'), { value: 'a b', literal: true, text: '"a b"' });
    assert.deepEqual(word("cat 'a'b", "'a'b"), { value: 'ab', literal: true, text: "'a'b" });
  });
});

describe('loop variables', () => {
  it('a for over plain words binds its variable, in every spelling of it, in its body only', () => {
    assert.deepEqual(values('for f in a b; do cat $f; done', '$f'), ['a', 'b']);
    assert.deepEqual(values('for f in a b; do cat ${f}; done', '${f}'), ['a', 'b']);
    assert.deepEqual(values('for f in a b; do cat "x$f"; done', '"x$f"'), ['xa', 'xb']);
    assert.deepEqual(values('for fx in a {b,c}; do cat $fx; done', '$fx'), ['a', 'b', 'c']);
    assert.deepEqual(values('for f in a; do cat $f{1,2}; done', '$f{1,2}'), ['a1', 'a2']);
    assert.equal(values('for f in a; do :; done; cat $f', '$f'), undefined);
  });

  it('a for over anything unknown, or over too many values, leaves its variable unknown', () => {
    for (const loop of ['for f in a $X', 'for f', 'for f in *', 'for f in a $(ls)', `for f in {1..${MAX_WORD_ALTERNATIVES}} x`, 'for g in a; do for f in $X; do :; done; done; for f in $Y']) {
      const command = `${loop}; do cat $f; done`;
      assert.equal(values(command, '$f'), undefined, command);
    }
    assert.equal(values(`for f in {1..${MAX_WORD_ALTERNATIVES}}; do cat $f; done`, '$f')?.length, MAX_WORD_ALTERNATIVES);
    assert.equal(values('for f in a b; do for f in $X; do cat $f; done; done', '$f'), undefined, 'an inner loop hides the outer binding');
    assert.equal(values('for f in a $X; do cat x$f; done', 'x$f'), undefined, 'one unknown value leaves every use unknown');
    for (const home of ['~', '~/.ssh/id_rsa']) assert.equal(values(`for f in ${home} a; do cat $f; done`, '$f'), undefined, `${home} is the home folder`);
  });

  it('only the bare variable is bound: an operator on it, or another name around it, is unknown', () => {
    for (const text of ['${f/a/.env}', '${f%a}', '${X:-$f}', '${!f}', '$ff']) {
      const command = `for f in a; do cat ${text}; done`;
      assert.equal(values(command, text), undefined, command);
    }
  });

  it('a loop over secret names asks for each; a loop over plain names runs', async () => {
    assert.equal((await decide('for f in notes.txt .env; do cat "$f"; done')).behavior, 'ask');
    assert.equal((await decide('for f in notes.txt docs.md; do cat "$f"; done')).behavior, 'allow');
    assert.equal((await decide('for f in notes.txt; do cat ${f/notes.txt/.env}; done')).behavior, 'ask');
    assert.equal((await decide('cat ~root/{a,b}')).behavior, 'ask');
    assert.equal((await decide('cat .env$((1))')).behavior, 'ask');
  });

  it('the words of the loop list are commands of their own', () => {
    assert.ok(commands('for f in $(rm -rf x); do :; done').some((part) => part.text === 'rm -rf x'));
  });
});

describe('a function makes the line unjudgeable', () => {
  it('says which function, and the policy asks even when every part is allowed', async () => {
    const split = splitCommand('cat() { rm -rf x; }; cat notes.txt');
    assert.ok(split.ok);
    assert.match(split.unjudgeable ?? '', /defines a function \(cat\)/);
    assert.equal((await decide('echo() { :; }; echo hi')).behavior, 'ask');
  });
});
