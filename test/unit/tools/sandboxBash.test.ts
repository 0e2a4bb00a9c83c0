// Bash inside the real OS sandbox: process tracking and output behave as without it — a
// timeout and a cancel kill the sandboxed tree (no process left), KillBash stops a sandboxed background
// command, output streams and is budgeted, secret variables stay out — and writes land only in the
// workspace.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { isAlive } from '../../../src/tools/process/procfs';
import { ProcessSupervisor } from '../../../src/tools/process/supervisor';
import type { PermissionRequest } from '../../../src/executor/ports/permissionPolicy';
import { BashSandbox } from '../../../src/tools/sandbox/bashSandbox';
import { makeWorkspace, type Workspace } from './helpers';
import { countProcesses, livingProcesses, uniqueSleep, until } from './processes';
import { CAN_SANDBOX, sandboxPerSuite } from './canSandbox';

/** This process's children that run the sandbox runtime's script. */
const runtimeProcesses = () => livingProcesses((cmdline, parent) => parent === process.pid && cmdline.includes('runtimeHost.js'));


describe('Bash in the OS sandbox', { skip: CAN_SANDBOX ? false : 'needs Linux with bubblewrap and socat (scripts/setup.sh)' }, () => {
  let ws: Workspace;
  let supervisor: ProcessSupervisor;
  const suite = sandboxPerSuite();
  beforeEach(async () => {
    supervisor = new ProcessSupervisor();
    // Approvals answered yes (writes to protected names always ask): only the sandbox stands in the way.
    ws = makeWorkspace({
      tools: { supervisor, sandbox: suite.sandbox, env: { ...process.env, GITHUB_TOKEN: 'ghp_notarealtokenbutlooksone000000000000' } },
      executor: { approvalClient: { requestApproval: async () => ({ kind: 'allowOnce' }) } },
    });
    await suite.sandbox.configure({ enabled: true, autoAllowBashIfSandboxed: true, excludedCommands: [], allowedDomains: [] }, { folders: [ws.dir], webFetchDomains: [] });
    assert.equal(suite.sandbox.state, 'ready', suite.sandbox.unavailableReason);
  });
  afterEach(async () => {
    await supervisor.dispose();
    await ws.dispose();
  });

  it('runs in the workspace, writes there and nowhere else', async () => {
    const outside = path.join(suite.home, 'outside.txt');
    const result = await ws.run('Bash', { command: `pwd; echo in > in.txt; echo out > ${outside}; echo "token=[$GITHUB_TOKEN]"; mktemp >/dev/null && echo tmp-ok` });
    assert.match(result.modelContent, /tmp-ok/, 'TMPDIR is writable');
    assert.doesNotMatch(result.modelContent, /left running/, "the runtime's helpers are not reported as the command's leftovers");
    assert.match(result.modelContent, new RegExp(`^${ws.dir}\n`));
    assert.match(result.modelContent, /token=\[\]/, 'secret variables are filtered as without the sandbox');
    assert.equal(ws.read('in.txt'), 'in\n');
    assert.equal(fs.existsSync(outside), false);
    assert.match(result.modelContent, new RegExp(`The OS sandbox blocked: writing ${outside} \\(outside the folders`));
  });

  it("protects the runtime's own names in the command's folder, wherever the host runs", async () => {
    // The library looks for them in the process's working directory: the runtime's process takes the
    // command's folder as its own for each wrap (the host's is the repository here).
    assert.notEqual(process.cwd(), ws.dir);
    ws.write('.gitmodules', 'kept\n');
    const result = await ws.run('Bash', { command: 'echo x > .mcp.json; echo x > .bashrc; echo x > .gitmodules; echo ok > fine.txt' });
    for (const name of ['.mcp.json', '.bashrc']) assert.ok(!fs.existsSync(path.join(ws.dir, name)), `${name} was not made`);
    assert.equal(ws.read('.gitmodules'), 'kept\n', '.gitmodules was not written');
    assert.equal(ws.read('fine.txt'), 'ok\n', result.modelContent);
    assert.match(result.modelContent, /The OS sandbox blocked: writing /);
  });

  it('a timeout kills the sandboxed tree and says so', async () => {
    const marker = uniqueSleep();
    const result = await ws.run('Bash', { command: `sleep ${marker} & sleep ${marker}`, timeout: 1500 });
    assert.equal(result.errorKind, 'timeout');
    assert.match(result.modelContent, /\[Command timed out after 1\.5s and its process tree was killed\./);
    await supervisor.idle();
    assert.equal(countProcesses(marker), 0);
  });

  it('a cancel kills the sandboxed tree, a process that left the group included', async () => {
    const marker = uniqueSleep();
    const controller = new AbortController();
    const running = ws.run('Bash', { command: `sleep ${marker} & setsid sleep ${marker} & wait` }, controller.signal);
    await until(() => countProcesses(marker) === 2);
    controller.abort();
    const result = await running;
    assert.equal(result.errorKind, 'cancelled');
    await supervisor.idle();
    await until(() => countProcesses(marker) === 0);
  });

  it('KillBash stops a sandboxed background command', async () => {
    const marker = uniqueSleep();
    const started = await ws.run('Bash', { command: `echo started; sleep ${marker}`, run_in_background: true });
    const taskId = /task (\S+)\./.exec(started.modelContent)![1]!;
    await until(() => countProcesses(marker) === 1);
    await ws.run('KillBash', { task_id: taskId });
    await until(() => countProcesses(marker) === 0);
  });

  it("runs the runtime in its own process; when that process dies, its bridges go with it, commands ask, and it starts again", async () => {
    const told: string[] = [];
    const own = new BashSandbox({ home: suite.home, onUnavailable: (message) => told.push(message) });
    try {
      const before = runtimeProcesses();
      await own.configure({ enabled: true, autoAllowBashIfSandboxed: true, excludedCommands: [], allowedDomains: [] }, { folders: [ws.dir], webFetchDomains: [] });
      assert.equal(own.state, 'ready', own.unavailableReason);
      const [pid, ...others] = runtimeProcesses().filter((candidate) => !before.includes(candidate));
      assert.ok(pid !== undefined && others.length === 0, 'one runtime process, a child of this one');
      // The runtime's socat bridges to its proxies, which it would stop in its reset.
      const bridges = livingProcesses((cmdline, parent) => parent === pid && cmdline.startsWith('socat '));
      assert.ok(bridges.length > 0, 'the runtime started its bridges');
      process.kill(pid, 'SIGKILL');
      await until(() => told.length > 0);
      assert.equal(own.state, 'starting');
      assert.deepEqual(told, [
        `The OS sandbox stopped (the OS sandbox's process (pid ${pid}) ended (SIGKILL)) and starts again in 0.5 s: until it runs, commands are not sandboxed and ask for approval as usual.`,
      ]);
      const request = { callId: 'c1', tool: { name: 'Bash' }, input: { command: 'echo hi' } } as unknown as PermissionRequest;
      assert.equal(own.autoAllows(request), false, 'nothing is let through unasked while the sandbox is gone');
      assert.match(own.approvalNote('echo hi')!, /Runs OUTSIDE the sandbox, because the sandbox is still starting/);
      await until(() => bridges.every((bridge) => !isAlive(bridge)));
      await until(() => own.state === 'ready');
      const [again, ...more] = runtimeProcesses().filter((candidate) => !before.includes(candidate));
      assert.ok(again !== undefined && again !== pid && more.length === 0, 'one new runtime process');
      assert.equal(own.autoAllows(request), true);
      assert.equal(told.length, 1);
    } finally {
      await own.dispose();
    }
  });

  it('streams and budgets large output as without the sandbox', async () => {
    const result = await ws.run('Bash', { command: 'seq 1 20000' });
    assert.equal(result.isError, false);
    assert.equal(result.truncated, true);
    assert.ok(result.originalBytes > 100_000);
  });
});
