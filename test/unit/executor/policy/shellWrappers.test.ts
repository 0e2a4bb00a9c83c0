// The commands hidden behind shells, eval and wrappers, the redirections that are files, the words known
// only at run time, and the commands that cannot be checked part by part: each from both sides.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MAX_COMMAND_CHARS,
  MAX_COMMAND_PARTS,
  MAX_NESTED_SHELL_DEPTH,
  splitCommand,
  SPLIT_CACHE_COMMANDS,
  SPLIT_CACHE_MAX_CHARS,
  type CommandPart,
  type SimpleCommandPart,
} from '../../../../src/executor/policy/shell/shellSplit';

function split(command: string): readonly CommandPart[] {
  const result = splitCommand(command);
  assert.ok(result.ok, `expected ${JSON.stringify(command)} to split: ${result.ok ? '' : result.reason}`);
  return result.parts;
}

/** The parts that must each be allowed: simple commands as written, and redirections as `access:target`. */
function checked(command: string): string[] {
  return split(command)
    .filter((part) => part.kind === 'redirect' || !part.denyOnly)
    .map((part) => (part.kind === 'command' ? part.text : `${part.access}:${part.target.value}`));
}

/** The guesses at a wrapped command that only deny rules see. */
function denyOnly(command: string): string[] {
  return split(command)
    .filter((part): part is SimpleCommandPart => part.kind === 'command' && part.denyOnly === true)
    .map((part) => part.text);
}

function refused(command: string): string {
  const result = splitCommand(command);
  assert.equal(result.ok, false, JSON.stringify(command.slice(0, 60)));
  return result.ok ? '' : result.reason;
}

describe('splitCommand: shells and eval', () => {
  it('looks inside -c of every shell, by name or path, with the flag alone or among others', () => {
    for (const shell of ['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', '/bin/bash']) {
      assert.deepEqual(checked(`${shell} -c "rm x"`), [`${shell} -c "rm x"`, 'rm x'], shell);
    }
    for (const flags of ['-lc', '-cl', '-ec', '-x -c', '--norc -c', '-e -o pipefail -c']) {
      assert.deepEqual(checked(`bash ${flags} 'rm x'`).slice(1), ['rm x'], flags);
    }
    assert.deepEqual(checked('X=1 FOO_2=y bash -c "rm x"'), ['X=1 FOO_2=y bash -c "rm x"', 'rm x'], 'after assignments');
    assert.deepEqual(checked('X=1'), ['X=1'], 'assignments alone');
  });

  it('reads no script where there is none: other shells, other flags, a missing script', () => {
    for (const command of ['fish -c "rm x"', 'bash -x s.sh', 'bash --c "rm x"', 'bash -c1 x', 'bash x-c "rm x"', 'bash -c', 'bashx -c "rm x"', 'python -c "rm x"', './a=b bash -c "rm x"', '9X=1 bash -c "rm x"']) {
      assert.deepEqual(checked(command), [command], command);
    }
  });

  it('refuses a -c script or eval text built at run time, saying so', () => {
    assert.equal(refused('bash -c "$SCRIPT"'), 'the script given to bash -c is built at run time: "$SCRIPT"');
    assert.equal(refused('eval "$CODE"'), 'eval runs text built at run time');
    assert.equal(refused("eval 'ls' $X"), 'eval runs text built at run time');
  });

  it('runs eval\'s words joined by spaces as one command line; a bare eval runs nothing', () => {
    assert.deepEqual(checked("eval 'rm a' b"), ["eval 'rm a' b", 'rm a b']);
    assert.deepEqual(checked("eval 'ls;' rm b"), ["eval 'ls;' rm b", 'ls', 'rm b']);
    assert.deepEqual(checked('eval'), ['eval']);
  });

  it(`follows shells nested ${MAX_NESTED_SHELL_DEPTH} deep and refuses one more`, () => {
    const nest = (depth: number) => {
      let command = 'rm x';
      for (let level = 0; level < depth; level++) command = `sh -c ${JSON.stringify(command)}`;
      return command;
    };
    assert.equal(checked(nest(MAX_NESTED_SHELL_DEPTH)).at(-1), 'rm x');
    assert.equal(refused(nest(MAX_NESTED_SHELL_DEPTH + 1)), `shells are nested more than ${MAX_NESTED_SHELL_DEPTH} deep`);
    assert.equal(checked(`eval ${JSON.stringify(nest(MAX_NESTED_SHELL_DEPTH - 1))}`).at(-1), 'rm x', 'eval counts as a level');
    assert.equal(refused(`eval ${JSON.stringify(nest(MAX_NESTED_SHELL_DEPTH))}`), `shells are nested more than ${MAX_NESTED_SHELL_DEPTH} deep`);
  });
});

describe('splitCommand: wrappers', () => {
  it('finds the command behind every wrapper, named by path too', () => {
    for (const wrapper of ['command', 'builtin', 'exec', 'nohup', 'env', 'sudo', 'doas', 'nice', 'xargs', 'timeout 5', 'stdbuf', '/usr/bin/time', '/usr/bin/sudo', '/sudo']) {
      assert.deepEqual(checked(`${wrapper} rm x`), [`${wrapper} rm x`, 'rm x'], wrapper);
    }
    assert.deepEqual(checked('sudo env X=1 nice rm x'), ['sudo env X=1 nice rm x', 'env X=1 nice rm x', 'nice rm x', 'rm x'], 'wrappers in a row');
  });

  it('a command that is not a wrapper runs nothing of its arguments', () => {
    for (const command of ['echo rm x', 'sudoedit rm x', 'git rm x', 'envx rm x', '$SUDO rm x']) assert.deepEqual(checked(command), [command], command);
  });

  it('skips the value of every wrapper option that takes one', () => {
    const options: Record<string, string[]> = {
      sudo: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '--user', '--group'],
      doas: ['-u', '-C'],
      timeout: ['-s', '-k', '--signal', '--kill-after'],
      nice: ['-n', '--adjustment'],
      env: ['-u', '-C', '--unset', '--chdir'],
      stdbuf: ['-i', '-o', '-e'],
      xargs: ['-n', '-I', '-L', '-P', '-d', '-E', '-s', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file'],
    };
    for (const [wrapper, flags] of Object.entries(options)) {
      for (const flag of flags) {
        const command = wrapper === 'timeout' ? `timeout ${flag} VALUE 5 rm x` : `${wrapper} ${flag} VALUE rm x`;
        assert.deepEqual(checked(command), [command, 'rm x'], command);
      }
    }
  });

  it('reads env -S and --split-string as the command line env runs, in every spelling', () => {
    for (const command of ["env -S 'rm -rf /'", "env --split-string 'rm -rf /'", "env --split-string='rm -rf /'", "env -S'rm -rf /'", "env -iS 'rm -rf /'", "env -u HOME -S 'rm -rf /'", "env A=1 -S 'rm -rf'"]) {
      assert.ok(checked(command).some((part) => part.startsWith('rm -rf')), `${command}: ${JSON.stringify(checked(command))}`);
    }
    assert.ok(checked("env -S 'rm -rf' /").includes('rm -rf /'), 'the words after the string are the command\'s arguments');
    assert.ok(checked("env -S 'ls && rm x'").includes('rm x'), 'an operator in the string is read as one, the stricter reading');
    assert.match(refused('env -S "$CMD"'), /run time/);
    assert.deepEqual(checked('env -u S rm x'), ['env -u S rm x', 'rm x'], 'S as the value of -u is no -S');
  });

  it('skips a wrapper\'s flags, env\'s assignments and timeout\'s duration, and nothing else', () => {
    assert.deepEqual(checked('nice -5 --foo rm x'), ['nice -5 --foo rm x', 'rm x']);
    assert.deepEqual(checked('env -i A=1 B_2=x rm x'), ['env -i A=1 B_2=x rm x', 'rm x']);
    assert.deepEqual(checked('sudo A=1 rm x'), ['sudo A=1 rm x', 'A=1 rm x'], 'an assignment is a command for sudo');
    assert.deepEqual(checked('env ./a=b rm x'), ['env ./a=b rm x', './a=b rm x'], 'a program whose name holds =');
    for (const duration of ['5', '10', '1.5', '1.25s', '2m', '3h', '1d']) {
      assert.deepEqual(checked(`timeout ${duration} rm x`), [`timeout ${duration} rm x`, 'rm x'], duration);
    }
    for (const notDuration of ['5x', '.5', '1.', 's', '5ms']) {
      assert.deepEqual(checked(`timeout ${notDuration} rm x`).slice(1), [`${notDuration} rm x`], notDuration);
    }
    assert.deepEqual(checked('nice 5 rm x').slice(1), ['5 rm x'], 'only timeout takes a leading duration');
  });

  it('checks every later word against deny rules when an unknown option may have taken a value', () => {
    assert.deepEqual(checked('sudo -x foo rm y'), ['sudo -x foo rm y', 'foo rm y']);
    assert.deepEqual(denyOnly('sudo -x foo rm y'), ['rm y', 'y']);
    assert.deepEqual(denyOnly('sudo -x -y rm'), [], 'flags are not commands');
    assert.deepEqual(denyOnly('echo rm y'), [], 'not a wrapper');
  });
});

describe('splitCommand: redirections', () => {
  it('reports each file as a read or a write, whatever the operator', () => {
    assert.deepEqual(checked('cat < in >> log'), ['cat', 'read:in', 'write:log']);
    assert.deepEqual(checked('ls >&out.txt'), ['ls', 'write:out.txt'], '>& to a file name');
    assert.deepEqual(checked('cat <&in.txt'), ['cat', 'read:in.txt'], '<& from a file name');
    assert.deepEqual(checked('ls &> f'), ['ls', 'write:f']);
    assert.deepEqual(checked('ls <> f'), ['ls', 'write:f'], 'read-write counts as a write');
    assert.deepEqual(checked('> f'), ['write:f'], 'a redirection alone');
    assert.deepEqual(checked('ls > /dev/sda'), ['ls', 'write:/dev/sda'], 'a device that is not a stream');
    assert.deepEqual(checked('ls > $OUT'), ['ls', 'write:$OUT'], 'a target known at run time is still reported');
    assert.deepEqual(checked('ls > 1'), ['ls', 'write:1'], 'a file named by digits');
    assert.deepEqual(checked('ls >&out1'), ['ls', 'write:out1'], 'a file whose name ends in digits');
    assert.deepEqual(split('ls > f').map((part) => part.kind), ['command', 'redirect']);
    assert.deepEqual(checked('> out rm x'), ['rm x', 'write:out'], 'a redirection before the command is not one of its words');
  });

  it('leaves out descriptors and the standard streams', () => {
    assert.deepEqual(checked('ls 2>&1 >&2 <&3 3>&2- >&- <&- >&10'), ['ls']);
    assert.deepEqual(checked('cat < /dev/tty > /dev/stdout 2> /dev/stderr >> /dev/null'), ['cat']);
    assert.deepEqual(checked('ls > "/dev/null"'), ['ls']);
    assert.deepEqual(checked('ls 2>&12x'), ['ls', 'write:12x'], 'not a descriptor');
  });
});

describe('splitCommand: words known only at run time', () => {
  const literal = (command: string) => (split(command)[0] as SimpleCommandPart).words.map((word) => word.literal);

  it('quoted text is fixed; globs, expansions and an unquoted leading ~ are not', () => {
    assert.deepEqual(literal(`echo $'a\\nb' "a*" 'a[b' x~ "~/x" a/~ "plain"`), [true, true, true, true, true, true, true, true]);
    assert.deepEqual(literal('echo a* a? a[b] ~/x ~ "$x" a$x "a${x}b" $(ls)'), [true, false, false, false, false, false, false, false, false, false]);
  });

  it('an assignment is fixed only with a fixed value and no index', () => {
    assert.deepEqual(literal('A=1 B="two" C=$x D=~/a e[0]=1 rm'), [true, true, false, false, false, true]);
    assert.deepEqual(literal('declare a=1 b=$y'), [true, true, false]);
    assert.deepEqual(literal('a=(1 2) rm'), [false, true], 'an array');
    assert.deepEqual(literal('echo ~/"x" ~"x" "a"~b a"~"'), [true, false, false, true, true], 'a ~ counts only unquoted at the start');
  });
});

describe('splitCommand: what cannot be checked part by part is a value with the reason', () => {
  it('an empty command, a command too long, one that does not parse (also inside a substitution), coproc', () => {
    assert.equal(refused(''), 'the command is empty');
    assert.equal(refused('   \n'), 'the command is empty');
    assert.equal(refused('x'.repeat(MAX_COMMAND_CHARS + 1)), `the command is longer than ${MAX_COMMAND_CHARS} characters`);
    assert.deepEqual(checked(`echo ${'x'.repeat(MAX_COMMAND_CHARS - 5)}`).length, 1, 'exactly the limit splits');
    assert.match(refused('echo "unterminated'), /^it does not parse: .+ at offset \d+$/);
    assert.match(refused('echo "$(if)"'), /^it does not parse: expected 'then' at offset \d+$/);
    assert.match(refused('cat <<EOF\n$(if)\nEOF'), /^it does not parse: /);
    assert.equal(refused('coproc x { ls; }'), 'coproc is not supported');
  });

  it(`at most ${MAX_COMMAND_PARTS} parts`, () => {
    assert.equal(checked(Array.from({ length: MAX_COMMAND_PARTS }, (_, index) => `a${index}`).join(';')).length, MAX_COMMAND_PARTS);
    assert.equal(refused(Array.from({ length: MAX_COMMAND_PARTS + 1 }, (_, index) => `a${index}`).join(';')), `it has more than ${MAX_COMMAND_PARTS} parts`);
  });
});

describe('splitCommand: kept splits', () => {
  it('a command used again stays kept while others come and go, and its parts are frozen all the way down', () => {
    const kept = splitCommand('npm run build && git status');
    for (let round = 0; round < 3; round++) {
      for (let index = 0; index < SPLIT_CACHE_COMMANDS - 1; index++) splitCommand(`echo kept-${round}-${index}`);
      assert.equal(splitCommand('npm run build && git status'), kept, `round ${round}`);
    }
    const exactly = `echo ${'x'.repeat(SPLIT_CACHE_MAX_CHARS - 5)}`;
    assert.equal(splitCommand(exactly), splitCommand(exactly), 'a command of the longest kept length');
    assert.ok(kept.ok);
    const first = kept.parts[0] as SimpleCommandPart;
    assert.ok(Object.isFrozen(first.words) && Object.isFrozen(first.words[0]));
    assert.throws(() => {
      (first.words[0] as { value: string }).value = 'rm';
    }, TypeError);
  });

  it(`holds at most ${SPLIT_CACHE_COMMANDS} commands: the one used longest ago goes first`, () => {
    const oldest = splitCommand('git log --oneline');
    for (let index = 0; index < SPLIT_CACHE_COMMANDS; index++) splitCommand(`echo full-${index}`);
    const again = splitCommand('git log --oneline');
    assert.notEqual(again, oldest);
    assert.deepEqual(again, oldest);
  });
});
