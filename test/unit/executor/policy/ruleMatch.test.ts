// One rule against one checked part of a call, each guard from both sides: what it names, and the near
// miss it must not cover (a rule that covers too much lets a call run unasked; one that covers too little
// lets a deny miss).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResolvedPath } from '../../../../src/executor/policy/path/judgePath';
import { domainMatches, matchCommand, ruleApplies, ruleMatches, type Check } from '../../../../src/executor/policy/rules/ruleMatch';
import { parseRule, type PermissionRule, type RuleBehavior } from '../../../../src/executor/policy/rules/ruleSyntax';
import { splitCommand, type CommandWord, type SimpleCommandPart } from '../../../../src/executor/policy/shell/shellSplit';

const ws = '/w/ws';

function rule(text: string, behavior: RuleBehavior = 'deny'): PermissionRule {
  const parsed = parseRule(text, behavior, 'user');
  assert.ok(parsed.ok, text);
  return parsed.rule;
}

/** The first simple command of `command`, as the policy checks it. */
function command(text: string): Check {
  const split = splitCommand(text);
  assert.ok(split.ok, text);
  return { kind: 'command', part: split.parts[0] as SimpleCommandPart };
}

function pathCheck(lexical: string, real: string[] = [lexical], access: 'read' | 'write' = 'write', fromCommand = false): Check {
  const resolved: ResolvedPath = { raw: lexical, lexical, real };
  return { kind: 'path', path: resolved, access, fromCommand };
}

const url = (raw: string): Check => ({ kind: 'url', url: new URL(raw), raw });
const artifact = (access: 'read' | 'write'): Check => ({ kind: 'artifact', access, uri: 'executor-artifact://s/a' });
const opaque: Check = { kind: 'opaque', reason: 'it does not parse' };
const argument: Check = { kind: 'argument', reason: 'only known at run time' };
const tool: Check = { kind: 'tool' };

const word = (value: string, literal = true): CommandWord => ({ value, literal, text: value });
const words = (...values: string[]): CommandWord[] => values.map((value) => word(value, !value.startsWith('$')));

describe('ruleApplies: which rules speak about a part of a call', () => {
  it('a deny on every tool (a broken settings section) applies to every part, even an argument known only at run time', () => {
    const every = rule('*');
    for (const check of [tool, command('ls'), pathCheck('/w/ws/a'), artifact('read'), url('https://x.org'), opaque, argument]) {
      assert.equal(ruleApplies(every, check, 'Bash'), true, check.kind);
    }
  });

  it('a command rule covers the commands of its own tool and of any tool that runs commands, and no other rule does', () => {
    assert.equal(ruleApplies(rule('Bash(rm:*)'), command('rm x'), 'Bash'), true);
    assert.equal(ruleApplies(rule('Bash(rm:*)'), command('rm x'), 'Shell'), true, 'Bash rules cover every command tool');
    assert.equal(ruleApplies(rule('Shell'), command('rm x'), 'Shell'), true, 'a rule naming the tool itself');
    assert.equal(ruleApplies(rule('Shell'), command('rm x'), 'Bash'), false);
    assert.equal(ruleApplies(rule('BashOutput'), command('rm x'), 'Bash'), false);
    assert.equal(ruleApplies(rule('Read(src/**)'), command('rm x'), 'Bash'), false);
    assert.equal(ruleApplies(rule('Bash(rm:*)'), opaque, 'Shell'), true, 'a command that cannot be split');
    assert.equal(ruleApplies(rule('Shell'), opaque, 'Shell'), true);
    assert.equal(ruleApplies(rule('Read'), opaque, 'Bash'), false);
  });

  it('Edit rules and their aliases cover writes, Read rules cover reads, and neither covers the other', () => {
    for (const name of ['Edit', 'Write', 'MultiEdit', 'NotebookEdit']) {
      assert.equal(ruleApplies(rule(`${name}(src/**)`), pathCheck('/w/ws/src/a'), 'Bash'), true, name);
      assert.equal(ruleApplies(rule(`${name}(src/**)`), artifact('write'), 'Bash'), true, name);
      assert.equal(ruleApplies(rule(`${name}(src/**)`), pathCheck('/w/ws/src/a', undefined, 'read'), 'Bash'), false, `${name} on a read`);
    }
    assert.equal(ruleApplies(rule('Read(src/**)'), pathCheck('/w/ws/src/a', undefined, 'read'), 'Grep'), true);
    assert.equal(ruleApplies(rule('Read(src/**)'), artifact('read'), 'Grep'), true);
    assert.equal(ruleApplies(rule('Read(src/**)'), pathCheck('/w/ws/src/a'), 'Write'), false, 'Read on a write');
    assert.equal(ruleApplies(rule('Read'), artifact('write'), 'Write'), false);
    assert.equal(ruleApplies(rule('Grep'), pathCheck('/w/ws/src/a', undefined, 'read'), 'Glob'), false, 'another read tool');
  });

  it('a rule naming the tool covers the paths it is given, but not a redirection inside its command, nor an artifact', () => {
    assert.equal(ruleApplies(rule('Glob(src/**)'), pathCheck('/w/ws/src', undefined, 'read'), 'Glob'), true);
    assert.equal(ruleApplies(rule('Bash(echo:*)'), pathCheck('/w/ws/out.txt', undefined, 'write', true), 'Bash'), false, 'a redirection of an allowed command');
    assert.equal(ruleApplies(rule('Edit(out.txt)'), pathCheck('/w/ws/out.txt', undefined, 'write', true), 'Bash'), true, 'Edit rules do cover a redirection');
    assert.equal(ruleApplies(rule('Glob'), artifact('read'), 'Glob'), false);
  });

  it('WebFetch domain rules cover the URLs of any fetching tool; a rule naming the tool covers its own', () => {
    assert.equal(ruleApplies(rule('WebFetch(domain:example.com)'), url('https://example.com'), 'WebSearch'), true);
    assert.equal(ruleApplies(rule('WebSearch'), url('https://example.com'), 'WebSearch'), true);
    assert.equal(ruleApplies(rule('WebSearch'), url('https://example.com'), 'WebFetch'), false);
    assert.equal(ruleApplies(rule('Read'), url('https://example.com'), 'WebFetch'), false);
  });

  it('a rule on the whole tool covers that tool and, for MCP, its server; nothing covers an argument but every-tool', () => {
    assert.equal(ruleApplies(rule('Task'), tool, 'Task'), true);
    assert.equal(ruleApplies(rule('Task'), tool, 'TaskOutput'), false);
    assert.equal(ruleApplies(rule('mcp__github'), tool, 'mcp__github__create_issue'), true);
    assert.equal(ruleApplies(rule('Bash'), tool, 'WebFetch'), false);
    for (const text of ['Bash', 'Bash(ls:*)', 'Read', 'Edit(src/**)']) assert.equal(ruleApplies(rule(text), argument, 'Bash'), false, text);
  });
});

describe('ruleMatches: does a rule that applies cover the part', () => {
  it('a rule without content covers every part it applies to', () => {
    for (const check of [tool, command('rm -rf /'), pathCheck('/etc/passwd'), artifact('read'), url('https://x.org'), opaque, argument]) {
      assert.equal(ruleMatches(rule('Bash'), check, [ws], true), 'yes', check.kind);
    }
  });

  it('a session rule for one exact path covers that path only', () => {
    const exact: PermissionRule = { text: 'Write(//w/ws/a.ts)', behavior: 'allow', source: 'session', tool: 'Write', exactPath: '/w/ws/a.ts' };
    assert.equal(ruleMatches(exact, pathCheck('/w/ws/a.ts'), [ws], true), 'yes');
    for (const other of ['/w/ws/a.tsx', '/w/ws/b.ts', '/w/ws', '/w/ws/a.ts/x']) assert.equal(ruleMatches(exact, pathCheck(other), [ws], true), 'no', other);
    assert.equal(ruleMatches(exact, tool, [ws], true), 'no');
    assert.equal(ruleMatches(exact, command('ls'), [ws], true), 'no');
  });

  it('command rules compare words; deny rules look past leading assignments, allow rules do not', () => {
    assert.equal(ruleMatches(rule('Bash(rm:*)'), command('rm -rf /'), [ws], false), 'yes');
    assert.equal(ruleMatches(rule('Bash(rm:*)'), command('X=1 rm -rf /'), [ws], false), 'yes', 'deny sees through X=1');
    assert.equal(ruleMatches(rule('Bash(rm:*)', 'allow'), command('X=1 rm -rf /'), [ws], true), 'no', 'allow does not');
    assert.equal(ruleMatches(rule('Bash(rm:*)'), command('rmdir x'), [ws], false), 'no');
    assert.equal(ruleMatches(rule('WebFetch(domain:example.com)'), command('rm x'), [ws], false), 'no', 'a rule with content but no command');
  });

  it('a command that cannot be split might meet a deny or ask rule on words, never an allow rule', () => {
    assert.equal(ruleMatches(rule('Bash(rm:*)'), opaque, [ws], false), 'maybe');
    assert.equal(ruleMatches(rule('Bash(rm:*)', 'allow'), opaque, [ws], true), 'no');
    assert.equal(ruleMatches(rule('WebFetch(domain:example.com)'), opaque, [ws], false), 'no', 'a domain rule says nothing of it');
  });

  it('an allow rule must cover every real location; a deny covers the path if it names any of them or the name as written', () => {
    const docs = rule('Edit(docs/**)');
    const through = pathCheck('/w/ws/docs/link', ['/w/outside/x']);
    assert.equal(ruleMatches(docs, through, [ws], false), 'yes', 'a deny sees the name as written');
    assert.equal(ruleMatches(docs, through, [ws], true), 'no', 'an allow does not stretch through the link');
    const twoPlaces = pathCheck('/w/ws/docs/a', ['/w/ws/docs/a', '/w/ws/src/a']);
    assert.equal(ruleMatches(docs, twoPlaces, [ws], true), 'no', 'one of two locations is not enough to allow');
    assert.equal(ruleMatches(docs, twoPlaces, [ws], false), 'yes', 'one of two is enough to deny');
    const intoDocs = pathCheck('/w/ws/src/link', ['/w/ws/docs/a']);
    assert.equal(ruleMatches(docs, intoDocs, [ws], false), 'yes', 'a deny covers where a link leads');
    assert.equal(ruleMatches(docs, intoDocs, [ws], true), 'yes');
    assert.equal(ruleMatches(docs, pathCheck('/w/ws/src/a'), [ws], false), 'no');
  });

  it('a domain rule covers no path, even one that has its text as a name', () => {
    assert.equal(ruleMatches(rule('WebFetch(domain:example.com)'), pathCheck('/w/ws/domain:example.com'), [ws], false), 'no');
  });

  it('URLs are matched by domain rules only', () => {
    assert.equal(ruleMatches(rule('WebFetch(domain:example.com)'), url('https://example.com/a'), [ws], true), 'yes');
    assert.equal(ruleMatches(rule('WebFetch(domain:example.com)'), url('https://evil.com/example.com'), [ws], true), 'no');
    assert.equal(ruleMatches(rule('WebFetch(domain:example.com)'), { kind: 'url', url: undefined, raw: 'not a url' }, [ws], true), 'no');
    assert.equal(ruleMatches(rule('WebFetch(example.com)'), url('https://example.com/a'), [ws], true), 'no', 'content that is not domain:');
  });

  it('a rule with content covers no artifact, no whole-tool check and no run-time argument', () => {
    for (const check of [artifact('read'), artifact('write'), tool, argument]) {
      assert.equal(ruleMatches(rule('Read(**)'), check, [ws], false), 'no', check.kind);
    }
  });
});

describe('matchCommand: word by word', () => {
  const prefix = { words: ['git', 'push'], prefix: true };
  const exact = { words: ['git', 'status'], prefix: false };

  it('a prefix rule covers the command with any further words, and not a longer first word or a shorter command', () => {
    assert.equal(matchCommand(prefix, words('git', 'push'), false), 'yes');
    assert.equal(matchCommand(prefix, words('git', 'push', 'origin', 'main'), false), 'yes');
    assert.equal(matchCommand(prefix, words('git', 'pushx'), false), 'no');
    assert.equal(matchCommand(prefix, words('git'), false), 'no');
    assert.equal(matchCommand(prefix, words('git', 'pull'), false), 'no');
    assert.equal(matchCommand(prefix, [], false), 'no');
  });

  it('an exact rule covers exactly its words; for a deny, extra words known only at run time might be anything or nothing', () => {
    assert.equal(matchCommand(exact, words('git', 'status'), false), 'yes');
    assert.equal(matchCommand(exact, words('git', 'status', '--short'), false), 'no');
    assert.equal(matchCommand(exact, words('git', 'status', '--short'), true), 'no');
    assert.equal(matchCommand(exact, words('git', 'status', '$X'), true), 'maybe', 'X may be empty');
    assert.equal(matchCommand(exact, words('git', 'status', '$X'), false), 'no', 'an allow rule never allows what it cannot see');
    assert.equal(matchCommand(exact, words('git', 'status', '$X', '--short'), true), 'no', 'a literal extra word rules it out');
  });

  it('for a deny, a word known only at run time where the rule compares makes the answer maybe; an allow needs the words as written', () => {
    assert.equal(matchCommand(prefix, words('git', '$CMD'), true), 'maybe');
    assert.equal(matchCommand(prefix, words('$GIT', 'push', 'x'), true), 'maybe');
    assert.equal(matchCommand(prefix, words('$GIT'), true), 'maybe', 'too short, but the variable may hold both words');
    assert.equal(matchCommand(prefix, words('$GIT', 'pull'), true), 'maybe', 'the variable may hold `git push`, then pull is an argument');
    assert.equal(matchCommand(prefix, words('git', 'pull', '$X'), true), 'no', 'a literal word already differs');
    for (const command of [words('git', '$CMD'), words('$GIT', 'push', 'x'), words('$GIT')]) {
      assert.equal(matchCommand(prefix, command, false), 'no', command.map((word) => word.text).join(' '));
    }
  });

  it('skips leading assignments of every shell form, and only them, when asked to', () => {
    const rm = { words: ['rm'], prefix: true };
    for (const assignment of ['X=1', 'FOO_BAR9=a b', '_x=', 'PATH+=:/tmp', 'arr[0]=x', 'arr[i+1]+=y']) {
      const all = [word(assignment), word('rm'), word('-rf')];
      assert.equal(matchCommand(rm, all, true), 'yes', assignment);
      assert.equal(matchCommand(rm, all, false), 'no', `${assignment} counts for an allow rule`);
    }
    assert.equal(matchCommand(rm, [word('A=1'), word('B=2'), word('rm')], true), 'yes', 'several');
    assert.equal(matchCommand(rm, [word('A=1'), word('B=2')], true), 'no', 'assignments alone run no command');
    for (const notAssignment of ['9X=1', '-X=1', 'a-b=1', '=1', 'X', 'a[0=1', 'X-=1', 'a]=1']) {
      assert.equal(matchCommand(rm, [word(notAssignment), word('rm')], true), 'no', notAssignment);
    }
  });
});

describe('domainMatches', () => {
  it('a domain covers that host, in any case and with a trailing dot, and not its subdomains or look-alikes', () => {
    for (const host of ['example.com', 'EXAMPLE.com', 'example.com.']) assert.equal(domainMatches('example.com', host), true, host);
    for (const host of ['sub.example.com', 'notexample.com', 'example.com.evil.org', 'example.co', 'examplecom']) {
      assert.equal(domainMatches('example.com', host), false, host);
    }
  });

  it('a *. domain covers subdomains at any depth, and not the domain itself or a look-alike', () => {
    for (const host of ['a.example.com', 'a.b.example.com', 'A.Example.COM.']) assert.equal(domainMatches('*.example.com', host), true, host);
    for (const host of ['example.com', 'badexample.com', 'example.com.evil.org']) assert.equal(domainMatches('*.example.com', host), false, host);
  });
});
