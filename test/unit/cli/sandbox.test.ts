// The OS sandbox through the built CLI, with a settings file that turns it on and
// `--approve deny`: a write in the workspace runs without asking; a write outside it, a read of a key
// under $HOME/.ssh (a temporary HOME) and a request to a local HTTP server no rule allows all fail, and
// the results name what the sandbox blocked; a command the model marks as needing to leave the sandbox
// asks (and is denied). With the sandbox off, the same commands ask as today.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CAN_SANDBOX } from '../tools/canSandbox';

const ROOT = join(__dirname, '..', '..', '..', '..');
const KEY = 'FAKE-PRIVATE-KEY-for-the-sandbox-test';
/** Linux with bubblewrap (scripts/setup.sh installs it); elsewhere the CLI says the sandbox cannot run. */

describe('tool-exec with the OS sandbox', { skip: CAN_SANDBOX ? false : 'needs Linux with bubblewrap and socat (scripts/setup.sh)' }, () => {
  let scratch: string;
  let cli: string;
  let server: Server;
  let port: number;
  const run = (settings: object, calls: object[]) => {
    const workspace = mkdtempSync(join(scratch, 'ws-'));
    const file = join(scratch, `settings-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(settings));
    const home = join(scratch, 'home');
    const out = spawnSync(process.execPath, [cli, 'run', '--workspace', workspace, '--settings', file, '--approve', 'deny', '--json', '-'], {
      input: JSON.stringify(calls),
      encoding: 'utf8',
      env: { ...process.env, HOME: home },
      timeout: 60_000,
    });
    assert.equal(out.status, 0, out.stderr);
    const results = out.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>);
    return { workspace, stderr: out.stderr, byId: (id: string) => results.find((result) => result.id === id)! };
  };
  const calls = () => [
    { id: 'inside', name: 'Bash', input: { command: 'echo made > made.txt && cat made.txt' } },
    { id: 'outside', name: 'Bash', input: { command: `echo x > ${join(scratch, 'outside.txt')}` } },
    { id: 'key', name: 'Bash', input: { command: 'cat "$HOME/.ssh/id_ed25519"' } },
    { id: 'net', name: 'Bash', input: { command: `curl -sS -m 5 http://127.0.0.1:${port}/` } },
    { id: 'escape', name: 'Bash', input: { command: 'echo x > escaped.txt', dangerouslyDisableSandbox: true } },
  ];

  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'tool-exec-sandbox-'));
    mkdirSync(join(scratch, 'home', '.ssh'), { recursive: true });
    writeFileSync(join(scratch, 'home', '.ssh', 'id_ed25519'), `${KEY}\n`);
    // The production bundles, as `npm run build` makes them (the runtime in its own file, its seccomp helper beside it).
    const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), `--outdir=${join(scratch, 'dist')}`], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(built.status, 0, built.stderr);
    cli = join(scratch, 'dist', 'cli.js');
    server = createServer((_request, response) => response.end('served'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(scratch, { recursive: true, force: true });
  });

  it('runs a write in the workspace unasked, blocks the rest and says what it blocked', () => {
    const { workspace, byId } = run({ sandbox: { enabled: true } }, calls());
    assert.equal(byId('inside').isError, false, byId('inside').content);
    assert.match(byId('inside').content, /^made\n/);
    assert.equal(readFileSync(join(workspace, 'made.txt'), 'utf8'), 'made\n');

    assert.equal(byId('outside').errorKind, 'execution');
    assert.match(byId('outside').content, /Read-only file system/);
    assert.match(byId('outside').content, new RegExp(`The OS sandbox blocked: writing ${join(scratch, 'outside.txt')} \\(outside the folders the sandbox lets commands write: ${workspace}\\)`));
    assert.equal(existsSync(join(scratch, 'outside.txt')), false);

    assert.equal(byId('key').errorKind, 'execution');
    assert.doesNotMatch(byId('key').content, new RegExp(KEY));
    assert.match(byId('key').content, new RegExp(`The OS sandbox blocked: reading ${join(scratch, 'home', '.ssh', 'id_ed25519')} \\(the sandbox hides ${join(scratch, 'home', '.ssh')}`));

    assert.equal(byId('net').errorKind, 'execution');
    assert.doesNotMatch(byId('net').content, /served/);
    assert.match(byId('net').content, new RegExp(`The OS sandbox blocked: network access to 127\\.0\\.0\\.1:${port} \\(sandboxed commands reach no host\\)`));

    // Leaving the sandbox is never silent: it asks, and --approve deny denies it.
    assert.equal(byId('escape').errorKind, 'permission');
    assert.equal(existsSync(join(workspace, 'escaped.txt')), false);
    // No placeholder bubblewrap made for protected paths is left behind as a workspace change.
    assert.doesNotMatch(byId('inside').content, /\.github|\.cursor|CLAUDE|AGENTS/);
  });

  it('refuses ignore files that do not exist yet, so a command cannot hide its later changes', () => {
    const { workspace, byId } = run({ sandbox: { enabled: true } }, [
      { id: 'hide', name: 'Bash', input: { command: "printf '*\\n' > .aiignore; printf '*\\n' > .cursorignore; echo x > later.txt" } },
    ]);
    for (const name of ['.aiignore', '.cursorignore']) assert.equal(existsSync(join(workspace, name)), false, `${name}: ${byId('hide').content}`);
    assert.match(byId('hide').content, /\.aiignore: (Permission denied|Read-only file system)/);
    assert.match(byId('hide').content, /\+ later\.txt \(created/);
  });

  it("points Java's networking at its proxy with the agent the build puts beside the runtime", () => {
    const { byId } = run({ sandbox: { enabled: true } }, [{ id: 'java', name: 'Bash', input: { command: 'echo "[$JAVA_TOOL_OPTIONS]"' } }]);
    const agent = /-javaagent:(\S+?)\]/.exec(byId('java').content)?.[1];
    assert.equal(agent, join(scratch, 'dist', 'vendor', 'java-proxy-agent', 'srt-proxy-agent.jar'), byId('java').content);
    assert.ok(existsSync(agent));
  });

  it('with the sandbox off, the same commands ask as today', () => {
    const { workspace, byId } = run({}, calls());
    for (const id of ['inside', 'outside', 'key', 'net', 'escape']) assert.equal(byId(id).errorKind, 'permission', `${id}: ${byId(id).content}`);
    assert.equal(existsSync(join(workspace, 'made.txt')), false);
  });

  it('asks for excludedCommands, and deny rules still win', () => {
    const { workspace, byId } = run({ sandbox: { enabled: true, excludedCommands: ['touch'] }, permissions: { deny: ['Bash(rm:*)'] } }, [
      { id: 'excluded', name: 'Bash', input: { command: 'touch excluded.txt' } },
      { id: 'denied', name: 'Bash', input: { command: 'rm -f anything' } },
    ]);
    assert.equal(byId('excluded').errorKind, 'permission');
    assert.equal(existsSync(join(workspace, 'excluded.txt')), false);
    assert.equal(byId('denied').errorKind, 'permission');
    assert.match(byId('denied').content, /Bash\(rm:\*\)/);
  });

  it('names the host its proxy denied, and the domains of WebFetch(domain:…) allow rules it allows', () => {
    const { byId } = run({ sandbox: { enabled: true }, permissions: { allow: ['WebFetch(domain:localhost)'] } }, [
      { id: 'denied', name: 'Bash', input: { command: `curl -sS -m 5 --proxy "$HTTP_PROXY" http://not-allowed.invalid:${port}/` } },
    ]);
    assert.match(byId('denied').content, /The OS sandbox blocked: network access to not-allowed\.invalid:\d+ \(sandboxed commands reach only localhost, through its proxy\)/);
  });

  it('refuses a sandbox setting it cannot use as written, naming it', () => {
    const file = join(scratch, 'broken.json');
    writeFileSync(file, JSON.stringify({ sandbox: { enabled: 'yes' } }));
    const out = spawnSync(process.execPath, [cli, 'run', '--settings', file, '--approve', 'deny', '-'], { input: '[]', encoding: 'utf8', cwd: scratch });
    assert.equal(out.status, 2);
    assert.match(out.stderr, /sandbox\.enabled must be true or false/);
  });
});
