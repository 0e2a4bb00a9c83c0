// The sandbox's pure parts: settings in Claude Code's shape, our policy as the runtime's
// configuration, what a blocked command's output says, and auto-allow in the permission policy.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RestartBackoff, RESTART_MAX_ATTEMPTS } from '../../../src/node/runtime/restarts';
import { RulesPolicy } from '../../../src/executor/policy/rulesPolicy';
import { BlockedOutputScanner, describeBlocked, BLOCKED_MAX_LINES } from '../../../src/tools/sandbox/blocked';
import { BashSandbox, excludedBy } from '../../../src/tools/sandbox/bashSandbox';
import type { SandboxRuntime } from '../../../src/tools/sandbox/runtime/runtime';
import { includedFiles, submodulePaths } from '../../../src/executor/policy/path/gitFiles';
import { sandboxRuntimeConfig } from '../../../src/tools/sandbox/sandboxConfig';
import { combineSandboxSettings, parseSandboxSettings, webFetchDomains } from '../../../src/tools/sandbox/sandboxSettings';
import { BashTool, decide, makeSandbox, type Sandbox } from '../executor/policy/policyFixtures';

describe('sandbox settings', () => {
  it('reads Claude Code\'s sandbox keys', () => {
    const parsed = parseSandboxSettings(
      { sandbox: { enabled: true, autoAllowBashIfSandboxed: false, excludedCommands: ['docker', 'git push:*'], network: { allowedDomains: ['registry.npmjs.org', '*.github.com'] } } },
      'settings.json',
    );
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(parsed.settings, { enabled: true, autoAllowBashIfSandboxed: false, excludedCommands: ['docker', 'git push:*'], allowedDomains: ['registry.npmjs.org', '*.github.com'] });
  });

  it('names what it cannot use, and a broken auto-allow never allows', () => {
    const parsed = parseSandboxSettings({ sandbox: { enabled: 'yes', autoAllowBashIfSandboxed: 1, network: { allowedDomains: ['ok.dev', 'http://bad/'] } } }, 'f.json');
    assert.equal(parsed.settings.enabled, undefined);
    assert.equal(parsed.settings.autoAllowBashIfSandboxed, false);
    assert.deepEqual(parsed.settings.allowedDomains, ['ok.dev']);
    assert.equal(parsed.problems.length, 3);
    assert.match(parsed.problems.join('\n'), /f\.json: sandbox\.enabled must be true or false/);
  });

  it('workspace keys win when trusted; an untrusted workspace cannot turn it on', () => {
    const user = { enabled: false, allowedDomains: ['a.dev'] };
    const workspace = { enabled: true, allowedDomains: ['b.dev'] };
    assert.deepEqual(combineSandboxSettings(user, workspace, true).settings, { enabled: true, autoAllowBashIfSandboxed: true, excludedCommands: [], allowedDomains: ['a.dev', 'b.dev'] });
    const untrusted = combineSandboxSettings(user, workspace, false);
    assert.equal(untrusted.settings.enabled, false);
    assert.match(untrusted.notices[0]!, /not trusted/);
  });

  it('takes the domains of WebFetch(domain:…) allow rules', () => {
    assert.deepEqual(webFetchDomains(['WebFetch(domain:docs.rs)', 'Bash(ls)', 'WebFetch', 'WebFetch(domain:Example.COM)']), ['docs.rs', 'example.com']);
  });

  it('matches excludedCommands by whole words in any part of a command', () => {
    assert.equal(excludedBy('docker ps', ['docker']), 'docker');
    assert.equal(excludedBy('npm test && git push origin', ['git push:*']), 'git push:*');
    assert.equal(excludedBy('dockerd', ['docker']), undefined);
    assert.equal(excludedBy('git pull', ['git push']), undefined);
  });
});

describe('sandbox configuration from the policy', () => {
  const base = { folders: ['/ws'], home: '/home/u', allowedDomains: ['Docs.rs'], ignoreFiles: ['.aiignore', '.myignore'] };

  it('Linux: writes in the folders except memory, config, ignore and secret files at the root; secrets hidden', () => {
    const config = sandboxRuntimeConfig({ ...base, platform: 'linux' });
    assert.deepEqual(config.filesystem.allowWrite, ['/ws']);
    for (const denied of ['/ws/AGENTS.md', '/ws/CLAUDE.md', '/ws/.git', '/ws/.git/config', '/ws/.git/hooks', '/ws/.gitmodules', '/ws/.vscode', '/ws/.claude', '/ws/.aiignore', '/ws/.myignore', '/ws/.netrc']) {
      assert.ok(config.filesystem.denyWrite.includes(denied), denied);
    }
    assert.ok(config.filesystem.denyWrite.every((entry) => !entry.includes('*')), 'bubblewrap takes no write globs');
    for (const hidden of ['/home/u/.ssh', '/home/u/.aws', '/home/u/.gnupg', '/home/u/.netrc', '/ws/.env*', '/ws/*.pem', '/ws/id_*']) assert.ok(config.filesystem.denyRead.includes(hidden), hidden);
    assert.deepEqual(config.network, { allowedDomains: ['docs.rs'], deniedDomains: [] });
  });

  it('protects the default ignore files by name when none are given, existing or not', () => {
    const config = sandboxRuntimeConfig({ folders: ['/ws', '/other'], home: '/home/u', allowedDomains: [], platform: 'linux' });
    for (const folder of ['/ws', '/other']) for (const name of ['.aiignore', '.cursorignore', '.clineignore', '.rooignore', '.aiexclude']) assert.ok(config.filesystem.denyWrite.includes(`${folder}/${name}`), `${folder}/${name}`);
    assert.ok(!config.filesystem.denyWrite.includes('/ws/.gitignore'), 'a near miss stays writable');
  });

  it("reads submodules' paths and a config's includes as git does, and nothing else", () => {
    assert.deepEqual(submodulePaths('[submodule "a"]\n\tpath = libs/a\n\turl = ../a\n[submodule "b"]\n  path=\"b c\" ; note\n[core]\n\tpath = not-a-submodule\n# path = commented\n'), ['libs/a', 'b c']);
    const config = '[core]\n\tpath = ../no\n[include]\n\tpath = ../team.gitconfig\n[includeIf "gitdir:~/work/"]\n\tpath = ~/work.gitconfig\n[user]\n\tname = x ; path = ../no2\n';
    assert.deepEqual(includedFiles(config, '/ws/.git', '/home/u'), ['/ws/team.gitconfig', '/home/u/work.gitconfig']);
  });

  it('macOS: the workspace names are patterns at any depth', () => {
    const config = sandboxRuntimeConfig({ ...base, platform: 'darwin' });
    assert.ok(config.filesystem.denyWrite.includes(path.join('/ws', '**', 'AGENTS.md')));
    assert.ok(config.filesystem.denyRead.includes(path.join('/ws', '**', '.env*')));
  });
});

describe('what the sandbox blocked', () => {
  const context = {
    cwd: '/ws',
    home: '/home/u',
    allowWrite: ['/ws'],
    denyRead: ['/home/u/.ssh', '/ws/.env*'],
    denyWrite: ['/ws/.git/config'],
    allowedDomains: [],
  };

  it('names paths and hosts from the error lines tools print', () => {
    const lines = [
      '/bin/bash: line 1: /tmp/out.txt: Read-only file system',
      "touch: cannot touch '/etc/x': Read-only file system",
      "OSError: [Errno 30] Read-only file system: '/var/y'",
      '/bin/bash: line 1: .git/config: Read-only file system',
      'cat: /home/u/.ssh/id_rsa: No such file or directory',
      'cat: .env.local: No such file or directory',
      'cat: missing.txt: No such file or directory',
      "curl: (7) Failed to connect to 127.0.0.1 port 8080 after 0 ms: Couldn't connect to server",
    ];
    assert.deepEqual(describeBlocked(lines, ['deny network-outbound evil.example:443 (host is not on the allow list)'], context), [
      'network access to evil.example:443 (sandboxed commands reach no host)',
      'writing /tmp/out.txt (outside the folders the sandbox lets commands write: /ws)',
      'writing /etc/x (outside the folders the sandbox lets commands write: /ws)',
      'writing /var/y (outside the folders the sandbox lets commands write: /ws)',
      'writing /ws/.git/config (the sandbox protects /ws/.git/config)',
      'and 3 more',
    ]);
    const reads = describeBlocked(lines.slice(4), [], context);
    assert.deepEqual(reads, [
      'reading /home/u/.ssh/id_rsa (the sandbox hides /home/u/.ssh: secrets)',
      'reading /ws/.env.local (the sandbox hides /ws/.env*: secrets)',
      'network access to 127.0.0.1:8080 (sandboxed commands reach no host)',
    ]);
  });

  it('keeps only error lines, across chunk cuts, and a bounded number', () => {
    const scanner = new BlockedOutputScanner();
    scanner.feed('ok\ncat: /home/u/.ssh/id');
    scanner.feed('_rsa: No such file or directory\n');
    for (let i = 0; i < BLOCKED_MAX_LINES * 2; i += 1) scanner.feed(`cat: f${i}: No such file or directory\n`);
    const lines = scanner.finish();
    assert.equal(lines[0], 'cat: /home/u/.ssh/id_rsa: No such file or directory');
    assert.equal(lines.length, BLOCKED_MAX_LINES);
  });
});

describe('auto-allow in the permission policy', () => {
  let box: Sandbox;
  let sandbox: BashSandbox;
  const fakeRuntime: SandboxRuntime = {
    isSupportedPlatform: async () => true,
    checkDependencies: async () => ({ errors: [], warnings: [] }),
    initialize: async () => {},
    updateConfig: async () => {},
    wrap: async () => 'true',
    commandEnded: async () => {},
    violations: async () => [],
    reset: async () => {},
  };
  before(async () => {
    box = makeSandbox();
    sandbox = new BashSandbox({ loadRuntime: async () => fakeRuntime });
    await sandbox.configure({ enabled: true, autoAllowBashIfSandboxed: true, excludedCommands: ['docker'], allowedDomains: [] }, { folders: [box.ws], webFetchDomains: [] });
  });
  after(() => box.dispose());
  const policy = (options: ConstructorParameters<typeof RulesPolicy>[0] = {}) => {
    const rules = new RulesPolicy(options);
    rules.sandboxed = (request) => sandbox.autoAllows(request);
    return rules;
  };

  it('runs a sandboxed command unasked, even one naming a secret or a path outside (the sandbox enforces those)', async () => {
    assert.equal(sandbox.state, 'ready');
    for (const command of ['npm test', 'cat ~/.ssh/id_rsa', `echo x > ${path.join(box.outside, 'x')}`, 'eval "$(cat script)"']) {
      const decision = await decide(policy(), box, BashTool, { command });
      assert.equal(decision.behavior, 'allow', command);
    }
  });

  it('deny rules win, ask rules ask, plan mode denies', async () => {
    assert.equal((await decide(policy({ user: { deny: ['Bash(rm:*)'] } }), box, BashTool, { command: 'rm -rf x' })).behavior, 'deny');
    assert.equal((await decide(policy({ user: { ask: ['Bash(git push:*)'] } }), box, BashTool, { command: 'git push' })).behavior, 'ask');
    assert.equal((await decide(policy({ mode: 'plan' }), box, BashTool, { command: 'ls' })).behavior, 'deny');
  });

  it('a command leaving the sandbox asks, and its approval says it runs unsandboxed', async () => {
    assert.equal((await decide(policy(), box, BashTool, { command: 'ls', dangerouslyDisableSandbox: true })).behavior, 'ask');
    assert.equal((await decide(policy(), box, BashTool, { command: 'docker ps' })).behavior, 'ask');
    assert.match(sandbox.approvalNote('docker ps')!, /Runs OUTSIDE the sandbox, because sandbox\.excludedCommands lists docker/);
    assert.match(sandbox.approvalNote('ls', { dangerouslyDisableSandbox: true })!, /OUTSIDE the sandbox, because the model asked/);
    assert.match(sandbox.approvalNote('ls')!, /^Runs in the OS sandbox/);
  });

  it('a runtime that stops on its own starts again after the backoff; stopping too often in a row, it stays unavailable until the settings change', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const told: string[] = [];
    const losts: Array<(reason: string) => void> = [];
    // Never running long enough to count as healthy: every stop is one more in a row.
    const restarting = new BashSandbox({
      loadRuntime: async (lost) => (losts.push(lost), { ...fakeRuntime }),
      restarts: new RestartBackoff(() => 0),
      onUnavailable: (message) => told.push(message),
    });
    const settings = { enabled: true, autoAllowBashIfSandboxed: true, excludedCommands: [], allowedDomains: [] };
    await restarting.configure(settings, { folders: [box.ws], webFetchDomains: [] });
    const request = { callId: 'c', tool: { name: 'Bash' }, input: { command: 'ls' } } as unknown as Parameters<BashSandbox['autoAllows']>[0];
    for (let stop = 1; stop <= RESTART_MAX_ATTEMPTS; stop++) {
      assert.equal(restarting.state, 'ready');
      losts.at(-1)!(`stop ${stop}`);
      assert.equal(restarting.state, 'starting');
      assert.equal(restarting.autoAllows(request), false, 'it asks until the runtime runs again');
      assert.match(told.at(-1)!, new RegExp(`^The OS sandbox stopped \\(stop ${stop}\\) and starts again in ${Math.min(30, 0.5 * 2 ** (stop - 1))} s: `));
      t.mock.timers.tick(30_000);
      await restarting.ready();
    }
    assert.equal(losts.length, RESTART_MAX_ATTEMPTS + 1);
    losts.at(-1)!('stop again');
    assert.equal(restarting.state, 'unavailable');
    assert.match(told.at(-1)!, new RegExp(`cannot run here \\(stop again; it stopped ${RESTART_MAX_ATTEMPTS + 1} times in a row, so it is not started again\\)`));
    t.mock.timers.tick(60_000);
    await restarting.ready();
    assert.equal(losts.length, RESTART_MAX_ATTEMPTS + 1, 'not started again');
    await restarting.configure(settings, { folders: [box.ws], webFetchDomains: [] });
    assert.equal(restarting.state, 'ready', 'a settings change tries again');
    await restarting.dispose();
  });

  it('a runtime that cannot take new settings stops, and commands ask, rather than run under the old ones', async () => {
    const told: string[] = [];
    let reset = 0;
    let refuse = false;
    const refusing = new BashSandbox({
      loadRuntime: async () => ({
        ...fakeRuntime,
        updateConfig: async () => {
          if (refuse) throw new Error('invalid domain');
        },
        reset: async () => void reset++,
      }),
      onUnavailable: (message) => told.push(message),
    });
    const settings = { enabled: true, autoAllowBashIfSandboxed: true, excludedCommands: [], allowedDomains: [] };
    await refusing.configure(settings, { folders: [box.ws], webFetchDomains: [] });
    assert.equal(refusing.state, 'ready');
    refuse = true;
    await refusing.configure({ ...settings, allowedDomains: ['example.com'] }, { folders: [box.ws], webFetchDomains: [] });
    assert.equal(refusing.state, 'unavailable');
    assert.equal(reset, 1);
    assert.deepEqual(told, ['The OS sandbox is on in the settings but cannot run here (its new settings could not be applied: invalid domain): commands are not sandboxed and ask for approval as usual.']);
  });

  it('where the sandbox cannot run it says so once and every command asks; the next configure tries again', async () => {
    const told: string[] = [];
    let installed = false;
    const broken = new BashSandbox({
      loadRuntime: async () => ({ ...fakeRuntime, checkDependencies: async () => ({ errors: installed ? [] : ['bubblewrap (bwrap) is not installed'], warnings: [] }) }),
      onUnavailable: (message) => told.push(message),
    });
    const settings = { enabled: true, autoAllowBashIfSandboxed: true, excludedCommands: [], allowedDomains: [] };
    await broken.configure(settings, { folders: [box.ws], webFetchDomains: [] });
    await broken.configure(settings, { folders: [box.ws], webFetchDomains: [] });
    assert.equal(broken.state, 'unavailable');
    assert.deepEqual(told, ['The OS sandbox is on in the settings but cannot run here (bubblewrap (bwrap) is not installed): commands are not sandboxed and ask for approval as usual.']);
    const rules = new RulesPolicy();
    rules.sandboxed = (request) => broken.autoAllows(request);
    assert.equal((await decide(rules, box, BashTool, { command: 'ls' })).behavior, 'ask');
    assert.match(broken.approvalNote('ls')!, /OUTSIDE the sandbox, because the sandbox cannot run here/);
    installed = true;
    await broken.configure(settings, { folders: [box.ws], webFetchDomains: [] });
    assert.equal(broken.state, 'ready');
    assert.equal(told.length, 1);
    await broken.dispose();
  });
});
