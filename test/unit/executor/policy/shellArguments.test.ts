import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { createPolicyFromSettings } from '../../../../src/executor/policy/index';

const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shell-args-')));
after(() => fs.rmSync(workspace, { recursive: true, force: true }));
const policy = createPolicyFromSettings({ user: { permissions: { allow: ['Bash(cat:*)', 'Bash(ls:*)', 'Bash(cd:*)', 'Bash(find:*)', 'Bash(echo:*)', 'Bash(printf:*)'] } }, workspaceTrusted: true, workspaceFolders: [workspace] });
const bash = { name: 'Bash', description: '', sideEffectScope: 'external', permissionSubject: (input: { command: string }) => ({ kind: 'command', command: input.command }) };
const decide = (command: string) => policy.evaluate({ tool: bash, input: { command }, workspaceFolders: [workspace] } as never, new AbortController().signal);

describe('arguments of allowed commands', () => {
  it('runs an allowed command whose arguments stay inside the workspace and name no secret', async () => {
    for (const command of ['cat notes.txt', 'cat src/a.ts docs/b.md', 'ls -la', 'cat -n ./x', 'cat /dev/null']) {
      assert.equal((await decide(command)).behavior, 'allow', command);
    }
  });

  it('asks for secret files, the home folder, outside paths and arguments known only at run time', async () => {
    for (const command of ['cat .env', 'cat config/.env.production', 'cat id_ed25519', 'cat ~/.netrc', 'ls ~', 'cat $HOME/x', 'cat "${HOME}/x"', 'cat /etc/passwd', 'cat ../x', 'cat *', 'cat $FILE', 'cat "$(echo .env)"', 'cd .. && ls', 'cd && ls', 'cat --file=/etc/x']) {
      const decision = await decide(command);
      assert.equal(decision.behavior, 'ask', `${command}: ${decision.reason}`);
    }
  });

  it('an argument built from an allowed command\'s output, or from a brace range, asks when it may name a secret', async () => {
    for (const command of ['cat $(ls -a)', 'cat `ls -A`', 'cat "$(find . -name \'.e*\')"', 'cat x$(echo)', 'cat .en{u..w}', 'cat .e{l..o}v', 'cat {.env,x}']) {
      const decision = await decide(command);
      assert.equal(decision.behavior, 'ask', `${command}: ${decision.reason}`);
    }
    for (const command of ['cat notes{1..3}.txt', 'cat part{a..c}.md', 'ls $(echo)x', 'echo {1..5}']) {
      const decision = await decide(command);
      assert.equal(decision.behavior, command === 'ls $(echo)x' ? 'ask' : 'allow', `${command}: ${decision.reason}`);
    }
  });

  it('echo and printf open no argument, so harmless expansions run; what runs code or feeds a name still asks', async () => {
    for (const command of ['echo ${VAR:-d}', 'echo $HOME', 'echo .env ~/.netrc', 'printf "%s\\n" "$USER"', 'echo $((1+2)) {a,b} $?', 'echo $(ls)']) {
      const decision = await decide(command);
      assert.equal(decision.behavior, 'allow', `${command}: ${decision.reason}`);
    }
    for (const command of ['echo ${foo@P}', 'echo "${x@P}"', 'echo $(( ! rm -rf x ))', 'cat "$(echo .env)"', 'cat $(echo $HOME)/x', 'echo x > ~/.bashrc']) {
      const decision = await decide(command);
      assert.equal(decision.behavior, 'ask', `${command}: ${decision.reason}`);
    }
  });

  it('a secret file asks even in bypass mode, like a Read', async () => {
    const bypass = createPolicyFromSettings({ workspaceTrusted: true, workspaceFolders: [workspace], mode: 'bypass' });
    const decision = await bypass.evaluate({ tool: bash, input: { command: 'cat .env' }, workspaceFolders: [workspace] } as never, new AbortController().signal);
    assert.equal(decision.behavior, 'ask');
    assert.equal(decision.forced, true);
  });
});
