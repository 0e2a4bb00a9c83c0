// Rules holding a whole command line (`Bash(git status; git log --oneline)`): an allow rule allows a line
// of exactly its commands, each in its place; a deny or ask rule matches a line that holds each of its
// commands somewhere, and may match when one of them is known only at run time.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createPolicyFromSettings } from '../../../../src/executor/policy/index';
import { BashTool, decide, makeSandbox } from './policyFixtures';

describe('a command line in an allow rule', () => {
  const sandbox = makeSandbox();
  after(() => sandbox.dispose());
  const run = (allow: string, command: string) => decide(createPolicyFromSettings({ user: { permissions: { allow: [allow] } }, workspaceTrusted: true, workspaceFolders: [sandbox.ws] }), sandbox, BashTool, { command });

  it('allows the line as written, and no line of as many commands with one swapped', async () => {
    const rule = 'Bash(git status; git log --oneline)';
    assert.equal((await run(rule, 'git status; git log --oneline')).behavior, 'allow');
    for (const command of ['git status; rm -rf x', 'rm -rf x; git log --oneline', 'git log --oneline; git status', 'git status']) {
      const decision = await run(rule, command);
      assert.notEqual(decision.behavior, 'allow', `${command}: ${decision.reason}`);
    }
  });
});

describe('a command line in a deny rule', () => {
  const sandbox = makeSandbox();
  after(() => sandbox.dispose());
  const run = (deny: string, command: string) => decide(createPolicyFromSettings({ user: { permissions: { deny: [deny], allow: ['Bash'] } }, workspaceTrusted: true, workspaceFolders: [sandbox.ws] }), sandbox, BashTool, { command });
  const rule = 'Bash(git fetch; git reset --hard)';

  it('denies a line holding each of its commands, in any order and among others', async () => {
    for (const command of ['git fetch; git reset --hard', 'git reset --hard && ls && git fetch']) {
      assert.equal((await run(rule, command)).behavior, 'deny', command);
    }
  });

  it('asks when a command known only at run time may be one of them, and lets a line without one run', async () => {
    for (const command of ['git fetch; git reset --hard $REF', 'git fetch && $CMD']) {
      const decision = await run(rule, command);
      assert.equal(decision.behavior, 'ask', `${command}: ${decision.reason}`);
    }
    for (const command of ['git fetch; ls', 'git reset --hard', 'ls']) {
      const decision = await run(rule, command);
      assert.equal(decision.behavior, 'allow', `${command}: ${decision.reason}`);
    }
  });
});
