import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ProcessSupervisor } from '../../../src/tools/process/supervisor';
import { makeWorkspace, type Workspace } from './helpers';
import { countProcesses, uniqueSleep, until } from './processes';

// Every case twice: shells forked by this process, and by the spawn helper (what a large host uses).
for (const spawnHelper of ['never', 'always'] as const) describe(`Bash (spawn helper: ${spawnHelper})`, () => {
  let ws: Workspace;
  let supervisor: ProcessSupervisor;
  beforeEach(() => {
    supervisor = new ProcessSupervisor({ spawnHelper });
    ws = makeWorkspace({ tools: { supervisor } });
  });
  afterEach(async () => {
    await supervisor.dispose();
    await ws.dispose();
  });

  it('runs a command in the workspace folder and reports the exit code and duration', async () => {
    const result = await ws.run('Bash', { command: 'pwd; echo hello' });
    assert.equal(result.isError, false);
    assert.match(result.modelContent, new RegExp(`^${ws.dir}\nhello\n\n?\\[Exit code 0 after [0-9.]+m?s\\]$`));
  });

  it('reports a non-zero exit as an error, with stderr in the output', async () => {
    const result = await ws.run('Bash', { command: 'echo out; echo err >&2; exit 3' });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /out\n/);
    assert.match(result.modelContent, /err\n/);
    assert.match(result.modelContent, /\[Exit code 3 after/);
  });

  it('gives the command one real pipe for stdout and stderr: /dev/stdout and /dev/stderr open, and the output keeps the order it was written in', async () => {
    // Node's own stdio is a socket pair, which /dev/stdout cannot open (ENXIO: No such device or address).
    const result = await ws.run('Bash', { command: "echo one; echo two > /dev/stderr; echo three >&2; echo four > /dev/stdout; printf five | tee /dev/stderr; echo; stat -L -c '%F %i' /proc/self/fd/1 /proc/self/fd/2" });
    assert.equal(result.isError, false, result.modelContent);
    const inode = /^fifo (\d+)$/m.exec(result.modelContent)?.[1];
    assert.ok(inode, result.modelContent);
    assert.match(result.modelContent, new RegExp(`^one\ntwo\nthree\nfour\nfivefive\nfifo ${inode}\nfifo ${inode}\n\n?\\[Exit code 0 after`));
    assert.equal(supervisor.outputPipeUnavailable, undefined);
  });

  it('reports a signal that ended the command', async () => {
    const result = await ws.run('Bash', { command: 'kill -KILL $$' });
    assert.match(result.modelContent, /\[Killed by SIGKILL after/);
  });

  it('kills the whole tree on timeout and says so', async () => {
    const marker = uniqueSleep();
    const result = await ws.run('Bash', { command: `sleep ${marker} & sleep ${marker}`, timeout: 300 });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /\[Command timed out after 300ms and its process tree was killed\. Give a larger timeout \(max 10m0s\)/);
    assert.equal(countProcesses(marker), 0);
  });

  it('on cancel kills every process of the tree, including one that left the group (counted before and after)', async () => {
    const marker = uniqueSleep();
    assert.equal(countProcesses(marker), 0);
    const controller = new AbortController();
    const command = `sleep ${marker} & (sleep ${marker} &); setsid sleep ${marker} & sh -c "sleep ${marker}" & wait`;
    const running = ws.run('Bash', { command }, controller.signal);
    await until(() => countProcesses(marker) === 4);
    controller.abort();
    const result = await running;
    assert.equal(result.errorKind, 'cancelled');
    assert.equal(result.modelContent, 'The user cancelled the command; its process tree is being stopped.');
    await supervisor.idle();
    assert.equal(countProcesses(marker), 0);
  });

  it('stops processes the command left running when it exits, and tells the model', async () => {
    const marker = uniqueSleep();
    const result = await ws.run('Bash', { command: `sleep ${marker} > /dev/null 2>&1 & echo started` });
    assert.match(result.modelContent, /^started\n\n?\[Exit code 0 after .*\]\n\[1 process the command left running was stopped; use run_in_background/);
    assert.equal(countProcesses(marker), 0);
  });

  it('stops a setsid daemon that redirected its output (no pipe held, not in the group) when the command exits', async () => {
    const marker = uniqueSleep();
    const result = await ws.run('Bash', { command: `setsid sleep ${marker} >/dev/null 2>&1 & echo started` });
    assert.match(result.modelContent, /^started\n\n?\[Exit code 0 after .*\]\n\[1 process the command left running was stopped; use run_in_background/);
    assert.equal(countProcesses(marker), 0);
  });

  it('stops a process that left the tree, the group and its environment (env -i setsid) by the output pipe it holds', async () => {
    const marker = uniqueSleep();
    // Found by nothing else, the sleep would hold the output open until the command's timeout.
    const result = await ws.run('Bash', { command: `env -i setsid sleep ${marker} & echo started`, timeout: 20_000 });
    assert.match(result.modelContent, /^started\n\n?\[Exit code 0 after .*\]\n\[1 process the command left running was stopped; use run_in_background/);
    assert.equal(countProcesses(marker), 0);
  });

  it('looks for the shell again once the one it found cannot be started ($SHELL removed)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bash-shell-'));
    const shell = path.join(dir, 'my-shell');
    copyFileSync('/bin/sh', shell);
    chmodSync(shell, 0o755);
    const saved = process.env.SHELL;
    process.env.SHELL = shell;
    try {
      const first = await ws.run('Bash', { command: 'echo "$0"' });
      assert.match(first.modelContent, new RegExp(`^${shell}\n`));
      unlinkSync(shell);
      const failed = await ws.run('Bash', { command: 'echo "$0"' });
      assert.equal(failed.isError, true);
      assert.match(failed.modelContent, /cannot start the shell/);
      const again = await ws.run('Bash', { command: 'echo "$0"' });
      assert.equal(again.isError, false);
      assert.match(again.modelContent, /^\/bin\/(ba)?sh\n/);
    } finally {
      if (saved === undefined) delete process.env.SHELL;
      else process.env.SHELL = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not pass secret-looking variables unless allowed', async () => {
    await ws.dispose();
    ws = makeWorkspace({
      tools: {
        supervisor,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, MY_API_KEY: 'k1', GITHUB_TOKEN: 'k2', DB_PASSWORD: 'k3', CI_DEPLOY_TOKEN: 'ok', SSH_AUTH_SOCK: '/tmp/agent' },
        allowedEnv: ['CI_DEPLOY_TOKEN'],
      },
    });
    const result = await ws.run('Bash', { command: 'echo "${MY_API_KEY:-none} ${GITHUB_TOKEN:-none} ${DB_PASSWORD:-none} $CI_DEPLOY_TOKEN $SSH_AUTH_SOCK"' });
    assert.match(result.modelContent, /^none none none ok \/tmp\/agent\n/);
  });

  it('streams large output through the result pipeline and cuts it for the model', async () => {
    const result = await ws.run('Bash', { command: 'yes 0123456789abcdef | head -c 3000000; echo; echo END' });
    assert.equal(result.isError, false);
    assert.equal(result.truncated, true);
    assert.ok(result.originalBytes > 3_000_000);
    assert.ok(result.modelBytes < 40_000);
    assert.match(result.modelContent.slice(-300), /END\n\n?\[Exit code 0 after [^\]]*\]$/);
    assert.equal(result.display?.kind, 'bash_output');
  });

  it('runs in the background, shows new output, and stops the whole tree with KillBash', async () => {
    const marker = uniqueSleep();
    const started = await ws.run('Bash', { command: `echo started; sleep ${marker} & sleep ${marker}`, run_in_background: true, description: 'sleeper' });
    const taskId = /task (\S+)\./.exec(started.modelContent)![1]!;
    assert.equal(ws.executor.backgroundTasks.get(taskId)?.status, 'running');
    let seen = '';
    await until(async () => {
      seen += (await ws.run('BashOutput', { task_id: taskId })).modelContent;
      return seen.includes('started');
    });
    assert.match(seen, /started\n\[Task .* is still running\]/);
    await until(() => countProcesses(marker) === 2);
    const killed = await ws.run('KillBash', { task_id: taskId });
    assert.match(killed.modelContent, new RegExp(`^Stopped task ${taskId}`));
    assert.equal(countProcesses(marker), 0);
    assert.equal(ws.executor.backgroundTasks.get(taskId)?.status, 'stopped');
    const after = await ws.run('BashOutput', { task_id: taskId });
    assert.match(after.modelContent, /\(no new output\)\n\[Task .* has ended: killed by SIGTERM\]/);
  });

  it('names the known tasks when a task id is unknown', async () => {
    const result = await ws.run('BashOutput', { task_id: 'nope' });
    assert.match(result.modelContent, /There is no background command with task id nope\. No background commands were started/);
  });

  it('refuses run_in_background when there is no background-task host', async () => {
    await ws.dispose();
    ws = makeWorkspace({ tools: { supervisor, backgroundTasks: undefined } });
    const result = await ws.run('Bash', { command: 'true', run_in_background: true });
    assert.match(result.modelContent, /run_in_background is not available here/);
  });

  it('stops background commands when the executor is disposed', async () => {
    const marker = uniqueSleep();
    await ws.run('Bash', { command: `sleep ${marker}`, run_in_background: true });
    await until(() => countProcesses(marker) === 1);
    await ws.executor.dispose();
    assert.equal(countProcesses(marker), 0);
  });
});
