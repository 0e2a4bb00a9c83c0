import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ProcessSupervisor, windowEnd } from '../../../src/tools/process/processTree';
import { countProcesses, killMarked, uniqueSleep, until } from './processes';

describe('ProcessSupervisor', () => {
  it('kills a tree with TERM and reports what it signalled', async () => {
    const supervisor = new ProcessSupervisor();
    const marker = uniqueSleep();
    const tree = supervisor.start('/bin/sh', ['-c', `sleep ${marker} & sleep ${marker} & wait`], { stdio: 'ignore' });
    await until(() => countProcesses(marker) === 2);
    const report = await tree.kill();
    assert.equal(report.signalled, 3);
    assert.equal(report.forced, 0);
    assert.equal(countProcesses(marker), 0);
    assert.deepEqual(await tree.exited, { code: null, signal: 'SIGTERM' });
    await supervisor.dispose();
  });

  it('says a tree started nothing only once its root was reaped, and never for one that left a process running', async () => {
    const supervisor = new ProcessSupervisor();
    const marker = uniqueSleep();
    const tree = supervisor.start('/bin/sh', ['-c', `sleep ${marker} & echo started`], { stdio: ['ignore', 'pipe', 'ignore'] });
    assert.equal(tree.startedNothing(), false, 'the root still runs');
    await tree.exited;
    await until(() => countProcesses(marker) === 1);
    assert.equal(tree.startedNothing(), false, 'its sleep was given a pid after it');
    const report = await tree.kill();
    assert.equal(report.signalled, 1);
    assert.equal(countProcesses(marker), 0);
    await supervisor.dispose();
  });

  it('uses KILL for a process that ignores TERM', async () => {
    const supervisor = new ProcessSupervisor();
    const marker = uniqueSleep();
    const tree = supervisor.start('/bin/sh', ['-c', `trap '' TERM; echo ready; sleep ${marker}; sleep ${marker}`], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise((resolve) => tree.child.stdout!.once('data', resolve));
    await until(() => countProcesses(marker) === 1);
    const report = await tree.kill();
    assert.ok(report.forced >= 1);
    assert.equal(countProcesses(marker), 0);
    await supervisor.dispose();
  });

  it('kills the running trees when the host process exits', async () => {
    const marker = uniqueSleep();
    const module = path.resolve(__dirname, '..', '..', '..', 'src', 'tools', 'process', 'processTree.js');
    const script = `
      const { ProcessSupervisor } = require(${JSON.stringify(module)});
      const tree = new ProcessSupervisor().start('sleep', [${JSON.stringify(marker)}], { stdio: 'ignore' });
      const fs = require('node:fs');
      const started = () => { try { return fs.readFileSync('/proc/' + tree.pid + '/cmdline', 'utf8').startsWith('sleep'); } catch { return false; } };
      const wait = () => (started() ? process.exit(0) : setTimeout(wait, 10));
      wait();`;
    try {
      const host = spawnSync(process.execPath, ['-e', script], { stdio: 'inherit' });
      assert.equal(host.status, 0);
      await until(() => countProcesses(marker) === 0);
    } finally {
      killMarked(marker);
    }
  });
});

describe('windowEnd', () => {
  const pidMaxOf = (max: number) => {
    const read = () => {
      read.calls++;
      return max;
    };
    read.calls = 0;
    return read;
  };

  it('proves no wrap from a last pid above what a wrap could reach, without reading pid_max', () => {
    const readPidMax = pidMaxOf(32768);
    assert.equal(windowEnd(24000, { lastPid: 23990, forks: 1000, tasks: 90 }, { lastPid: 24000, forks: 1001, tasks: 90 }, readPidMax), 24000);
    assert.equal(readPidMax.calls, 0);
  });

  it('asks pid_max when pids are low (a container), and gives up when a wrap is possible', () => {
    const since = { lastPid: 340, forks: 10, tasks: 20 };
    const now = { lastPid: 350, forks: 11, tasks: 20 };
    const readPidMax = pidMaxOf(32768);
    assert.equal(windowEnd(350, since, now, readPidMax), 350);
    assert.equal(readPidMax.calls, 1);
    // 1 fork and up to 63 pid numbers in use could pass over the 50 pids above the reserved ones.
    assert.equal(windowEnd(350, since, now, pidMaxOf(350)), undefined);
  });

  it('gives up when the last pid is below the root or enough forks happened to wrap and climb back', () => {
    const readPidMax = pidMaxOf(32768);
    assert.equal(windowEnd(32710, { lastPid: 32700, forks: 0, tasks: 50 }, { lastPid: 320, forks: 100, tasks: 50 }, readPidMax), undefined);
    assert.equal(windowEnd(500, { lastPid: 490, forks: 0, tasks: 10 }, { lastPid: 600, forks: 40_000, tasks: 10 }, readPidMax), undefined);
    assert.equal(windowEnd(500, { lastPid: 490, forks: 10, tasks: 10 }, { lastPid: 600, forks: 5, tasks: 10 }, readPidMax), undefined);
  });
});
