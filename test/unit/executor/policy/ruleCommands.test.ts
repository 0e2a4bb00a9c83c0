// What a Bash rule covers, read through the policy: a redirection rule covers the redirections it names
// (target as written or as a path, and the direction), an exact rule covers the run-time words of its own
// command only, an allow rule names the program as written (a leading `*` never stands for a variable or an
// assignment), and a rule built in code from words matches them literally.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createPolicyFromSettings } from '../../../../src/executor/policy/index';
import { matchCommand } from '../../../../src/executor/policy/rules/ruleMatch';
import { splitCommand, type SimpleCommandPart } from '../../../../src/executor/policy/shell/shellSplit';
import { BashTool, decide, makeSandbox } from './policyFixtures';

describe('Bash rules through the policy', () => {
  const sandbox = makeSandbox();
  after(() => sandbox.dispose());
  const run = async (permissions: { allow?: string[]; deny?: string[] }, command: string) => {
    const decision = await decide(createPolicyFromSettings({ user: { permissions }, workspaceTrusted: true, workspaceFolders: [sandbox.ws] }), sandbox, BashTool, { command });
    return `${decision.behavior}: ${decision.reason}`;
  };

  it('a redirection rule covers its target, and only in its direction', async () => {
    const denyOut = { deny: ['Bash(> out.txt)'], allow: ['Bash'] };
    assert.match(await run(denyOut, 'echo hi > out.txt'), /^deny/);
    assert.match(await run(denyOut, 'echo hi > other.txt'), /^allow/);
    assert.match(await run({ deny: ['Bash(> *)'], allow: ['Bash'] }, 'sort < in.txt'), /^allow/, 'a read is no write');
    assert.match(await run({ deny: ['Bash(< *)'], allow: ['Bash'] }, 'sort < in.txt'), /^deny/);
    assert.match(await run({ deny: ['Bash(< *)'], allow: ['Bash'] }, 'sort > out.txt'), /^allow/, 'a write is no read');
  });

  it('a command rule is no path rule for the files its redirections name', async () => {
    const outside = `${sandbox.ws}/../echo:x`;
    assert.match(await run({ allow: ['Bash(echo:*)'] }, `echo hi > '${outside}'`), /^ask/);
    assert.match(await run({ deny: ['Bash(rm:*)'], allow: ['Bash'] }, "echo hi > 'rm:x'"), /^allow/);
  });

  it('an exact rule lets a run-time argument through only for the command it names', async () => {
    assert.match(await run({ allow: ['Bash(cat:*)', 'Bash(cat $FILE)'] }, 'cat $FILE'), /^allow/);
    assert.match(await run({ allow: ['Bash(cat:*)', 'Bash(cat notes.txt)'] }, 'cat $FILE'), /^ask/);
  });

  it('an allow rule names the program as written: assignments it writes count, a leading * stands for no variable or assignment', async () => {
    assert.match(await run({ allow: ['Bash(FOO=1 npm test)'] }, 'FOO=1 npm test'), /^allow/);
    const anyHelp = { allow: ['Bash(* --help)'] };
    assert.match(await run(anyHelp, 'git --help'), /^allow/);
    assert.match(await run(anyHelp, './a=b --help'), /^allow/, 'a program whose name holds = is no assignment');
    for (const command of ['$X --help', 'a[1]=x git --help', 'a[12]=x git --help', 'PATH=/tmp/evil git --help']) {
      assert.match(await run(anyHelp, command), /^ask/, command);
    }
  });
});

describe('a rule built in code from words', () => {
  const part = (command: string) => {
    const split = splitCommand(command);
    assert.ok(split.ok);
    return split.parts[0] as SimpleCommandPart;
  };

  it('matches a word with a quote or a wildcard in it literally', () => {
    const quoted = { words: ['echo', "it's"], prefix: false };
    assert.equal(matchCommand(quoted, part(`echo "it's"`).words, false), 'yes');
    assert.equal(matchCommand(quoted, part('echo its').words, false), 'no');
    const star = { words: ['rm', '*.log'], prefix: false };
    assert.equal(matchCommand(star, part("rm '*.log'").words, false), 'yes');
    assert.equal(matchCommand(star, part('rm a.log').words, false), 'no');
  });
});
