// The spawn helper (src/tools/process/spawnHelper.ts): real helper processes, real shells. Every Bash behaviour
// also runs through it in bash.test.ts; these are the cases only a helper has.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { isAlive, onSignalAbort, ProcessSupervisor } from '../../../src/tools/process/processTree';
import { recentRss, RSS_READING_REUSE_MS, SPAWN_HELPER_MIN_RSS_BYTES, SpawnHelper, spawnHelperWanted } from '../../../src/tools/process/spawnHelper';
import { makeWorkspace, type Workspace } from './helpers';
import { countProcesses, killMarked, uniqueSleep, until } from './processes';

describe('spawn helper', () => {
  it('is used on Linux for a host at or over the size where its round trips cost less than the fork', () => {
    const rss = (bytes: number) => () => bytes;
    assert.equal(spawnHelperWanted('auto', rss(SPAWN_HELPER_MIN_RSS_BYTES - 1), 'linux'), false);
    assert.equal(spawnHelperWanted('auto', rss(SPAWN_HELPER_MIN_RSS_BYTES), 'linux'), true);
    assert.equal(spawnHelperWanted('always', rss(0), 'linux'), true);
    assert.equal(spawnHelperWanted('never', rss(2 ** 40), 'linux'), false);
    assert.equal(spawnHelperWanted('always', rss(2 ** 40), 'darwin'), false);
    assert.equal(spawnHelperWanted('auto', rss(2 ** 40), 'win32'), false);
  });

  it('decides by an RSS reading at most RSS_READING_REUSE_MS old', () => {
    let reads = 0;
    const read = (bytes: number) => () => {
      reads += 1;
      return bytes;
    };
    // A clock of its own, far from performance.now(), so no other call's reading counts.
    const start = 1e12;
    assert.equal(recentRss(start, read(1)), 1);
    assert.equal(recentRss(start + RSS_READING_REUSE_MS - 1, read(2)), 1);
    assert.equal(reads, 1);
    assert.equal(recentRss(start + RSS_READING_REUSE_MS, read(3)), 3);
    // A clock behind the reading (another caller's) reads again rather than trusting it.
    assert.equal(recentRss(start - 1, read(4)), 4);
    assert.equal(reads, 3);
  });

  describe('under Bash', () => {
    let ws: Workspace;
    let supervisor: ProcessSupervisor;
    let marker: string;
    beforeEach(() => {
      supervisor = new ProcessSupervisor({ spawnHelper: 'always' });
      ws = makeWorkspace({ tools: { supervisor } });
      marker = uniqueSleep();
    });
    afterEach(async () => {
      killMarked(marker);
      await supervisor.dispose();
      await ws.dispose();
    });

    it('forks the shell in the helper, not in this process', async () => {
      const result = await ws.run('Bash', { command: 'echo "parent $PPID"' });
      assert.equal(result.isError, false);
      const helper = supervisor.spawnHelperPid;
      assert.ok(helper !== undefined && isAlive(helper));
      assert.match(result.modelContent, new RegExp(`^parent ${helper}\n`));
      assert.notEqual(helper, process.pid);
    });

    it('a helper that dies under a running command: the call says so and the command is stopped', async () => {
      const running = ws.run('Bash', { command: `sleep ${marker}` });
      await until(() => countProcesses(marker) === 1);
      process.kill(supervisor.spawnHelperPid!, 'SIGKILL');
      const result = await running;
      assert.equal(result.isError, true);
      assert.match(result.modelContent, /^<tool_use_error>The command was stopped: the process that started the command \(the spawn helper, pid \d+\) ended \(SIGKILL\) before the command did, so its exit status is unknown\.<\/tool_use_error>$/);
      // Stopped before the result was given.
      assert.equal(countProcesses(marker), 0);
      // The next command gets a new helper.
      const next = await ws.run('Bash', { command: 'echo again' });
      assert.match(next.modelContent, /^again\n/);
    });

    it('ends with its supervisor', async () => {
      await ws.run('Bash', { command: 'true' });
      const helper = supervisor.spawnHelperPid!;
      assert.ok(isAlive(helper));
      await supervisor.dispose();
      await until(() => !isAlive(helper));
    });
  });

  describe('for a host large enough (auto)', () => {
    const large = () => SPAWN_HELPER_MIN_RSS_BYTES;
    const parentOf = async (ws: Workspace) => {
      const result = await ws.run('Bash', { command: 'echo "parent $PPID"' });
      assert.equal(result.isError, false, result.modelContent);
      return Number(/^parent (\d+)\n/.exec(result.modelContent)?.[1]);
    };

    it('a shell does not wait for the helper to start: it is forked here, and the next ones by the helper once it runs', async () => {
      const supervisor = new ProcessSupervisor({ spawnHelper: 'auto', rssBytes: large });
      const ws = makeWorkspace({ tools: { supervisor } });
      try {
        assert.equal(supervisor.spawnHelperPid, undefined);
        assert.equal(await parentOf(ws), process.pid);
        // The first shell started it.
        assert.ok(supervisor.spawnHelperPid !== undefined);
        await until(() => supervisor.spawnHelperReady);
        assert.equal(await parentOf(ws), supervisor.spawnHelperPid);
      } finally {
        await supervisor.dispose();
        await ws.dispose();
      }
    });

    it('warmUp starts the helper before the first shell, only for a host that large', async () => {
      const supervisor = new ProcessSupervisor({ spawnHelper: 'auto', rssBytes: large });
      const small = new ProcessSupervisor({ spawnHelper: 'auto', rssBytes: () => SPAWN_HELPER_MIN_RSS_BYTES - 1 });
      const ws = makeWorkspace({ tools: { supervisor } });
      const smallWs = makeWorkspace({ tools: { supervisor: small } });
      try {
        supervisor.warmUp();
        small.warmUp();
        assert.ok(supervisor.spawnHelperPid !== undefined, 'warmUp started the helper');
        assert.equal(small.spawnHelperPid, undefined);
        await until(() => supervisor.spawnHelperReady);
        assert.equal(await parentOf(ws), supervisor.spawnHelperPid);
        assert.equal(await parentOf(smallWs), process.pid);
        assert.equal(small.spawnHelperPid, undefined);
      } finally {
        await supervisor.dispose();
        await small.dispose();
        await ws.dispose();
        await smallWs.dispose();
      }
    });
  });

  it('a helper killed at any moment of a spawn leaves no process of it running', async () => {
    const marker = uniqueSleep();
    try {
      for (let attempt = 0; attempt < 20; attempt++) {
        const supervisor = new ProcessSupervisor({ spawnHelper: 'always' });
        try {
          // A helper that is up, so the kill lands while it forks, hands over or waits (the later the attempt, the later the kill).
          const warm = await supervisor.startShell('/bin/sh', ['-c', 'true'], { env: process.env });
          warm.child.stdout!.resume();
          warm.child.stderr?.resume();
          await warm.exited;
          const helper = supervisor.spawnHelperPid!;
          const starting = supervisor.startShell('/bin/sh', ['-c', `sleep ${marker}`], { env: process.env });
          const delayMs = attempt % 5;
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          process.kill(helper, 'SIGKILL');
          const tree = await starting;
          tree.child.stdout?.resume();
          tree.child.stderr?.resume();
          await assert.rejects(tree.exited, /spawn helper/);
          await tree.kill();
          assert.equal(countProcesses(marker), 0, `attempt ${attempt}: the kill ${delayMs} ms after the spawn left the command running`);
        } finally {
          await supervisor.dispose();
        }
      }
    } finally {
      killMarked(marker);
    }
  });

  it('a spawn given up on while the helper forks it: its whole tree is stopped once it runs', async () => {
    const supervisor = new ProcessSupervisor({ spawnHelper: 'always' });
    const marker = uniqueSleep();
    try {
      const controller = new AbortController();
      const starting = supervisor.startShell('/bin/sh', ['-c', `setsid sleep ${marker} & sleep ${marker}`], { env: process.env }, onSignalAbort(controller.signal));
      controller.abort(new Error('given up'));
      await assert.rejects(starting, /given up/);
      // The helper takes requests in order: once the next one is answered, the first one's shell ran.
      const next = await supervisor.startShell('/bin/sh', ['-c', 'exit 0'], { env: process.env });
      next.child.stdout!.resume();
      next.child.stderr?.resume();
      await next.exited;
      await supervisor.idle();
      assert.equal(countProcesses(marker), 0);
    } finally {
      killMarked(marker);
      await supervisor.dispose();
    }
  });

  it('a failed spawn is reported as child_process reports it: a child without a pid that emits the error', async () => {
    const helper = new SpawnHelper();
    try {
      const child = await helper.spawn('/bin/sh', ['-c', 'true'], { cwd: path.join('/nonexistent', String(process.pid)), env: process.env });
      assert.equal(child.pid, undefined);
      const error = await new Promise<NodeJS.ErrnoException>((resolve) => child.once('error', resolve));
      assert.equal(error.code, 'ENOENT');
    } finally {
      helper.dispose();
    }
  });

  it('exits with the host, and kills the commands it started that the host never heard of', async () => {
    const marker = uniqueSleep();
    // A host that asks for a command and exits at once, without its exit hook's kills (SIGKILL of itself).
    const script = [
      `const { SpawnHelper } = require(${JSON.stringify(path.join(__dirname, '../../../src/tools/process/spawnHelper.js'))});`,
      'const helper = new SpawnHelper();',
      `helper.spawn('/bin/sh', ['-c', 'sleep ${marker}'], { env: process.env });`,
      'setTimeout(() => { process.stdout.write(String(helper.pid)); }, 300);',
    ].join('\n');
    const host = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let helperPid = '';
    host.stdout.on('data', (chunk: Buffer) => (helperPid += chunk.toString()));
    try {
      await until(() => helperPid !== '' && countProcesses(marker) === 1);
      host.kill('SIGKILL');
      await until(() => !isAlive(Number(helperPid)));
      await until(() => countProcesses(marker) === 0);
    } finally {
      host.kill('SIGKILL');
      killMarked(marker);
    }
  });
});
