import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { createPolicyFromSettings } from '../../../../src/executor/policy/index';

const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shell-args-')));
after(() => fs.rmSync(workspace, { recursive: true, force: true }));
const policy = createPolicyFromSettings({ user: { permissions: { allow: ['Bash(cat:*)', 'Bash(ls:*)', 'Bash(cd:*)'] } }, workspaceTrusted: true, workspaceFolders: [workspace] });
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

  it('a secret file asks even in bypass mode, like a Read', async () => {
    const bypass = createPolicyFromSettings({ workspaceTrusted: true, workspaceFolders: [workspace], mode: 'bypass' });
    const decision = await bypass.evaluate({ tool: bash, input: { command: 'cat .env' }, workspaceFolders: [workspace] } as never, new AbortController().signal);
    assert.equal(decision.behavior, 'ask');
    assert.equal(decision.forced, true);
  });
});
