import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ProcessSupervisor } from '../../../src/tools/processTree';
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
    const module = path.resolve(__dirname, '..', '..', '..', 'src', 'tools', 'processTree.js');
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
