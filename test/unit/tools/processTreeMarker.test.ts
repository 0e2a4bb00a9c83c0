import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { markedProcesses, ProcessSupervisor, TREE_MARKER_VARIABLE } from '../../../src/tools/processTree';
import { countProcesses, uniqueSleep, until } from './processes';

describe('process trees: the environment marker', () => {
  it('finds a setsid daemon that left the tree and the group, and the kill stops it', async () => {
    const supervisor = new ProcessSupervisor();
    const marker = uniqueSleep();
    const tree = supervisor.start('/bin/sh', ['-c', `setsid sleep ${marker} & echo started`], { stdio: ['ignore', 'pipe', 'pipe'] });
    await tree.exited;
    await until(() => countProcesses(marker) === 1);
    const report = await tree.kill();
    assert.equal(report.signalled >= 1, true);
    assert.deepEqual(report.survivors, []);
    assert.equal(countProcesses(marker), 0);
    await supervisor.dispose();
  });

  it('finds a setsid daemon that redirected its output (holds no pipe, left the group) after the shell exited', async () => {
    const supervisor = new ProcessSupervisor();
    const marker = uniqueSleep();
    const tree = supervisor.start('/bin/sh', ['-c', `setsid sleep ${marker} >/dev/null 2>&1 & echo started`], { stdio: ['ignore', 'pipe', 'pipe'] });
    const closed = new Promise((resolve) => tree.child.once('close', resolve));
    tree.child.stdout!.resume();
    tree.child.stderr!.resume();
    // Both pipes at EOF and the shell reaped: only the marker still leads to the daemon.
    await closed;
    await until(() => countProcesses(marker) === 1);
    const report = await tree.kill();
    assert.equal(report.signalled, 1);
    assert.deepEqual(report.survivors, []);
    assert.equal(countProcesses(marker), 0);
    await supervisor.dispose();
  });

  it('gives each tree its own marker, inherited by its children', async () => {
    const supervisor = new ProcessSupervisor();
    const a = supervisor.start('/bin/sh', ['-c', `echo "$${TREE_MARKER_VARIABLE}"`], { stdio: ['ignore', 'pipe', 'ignore'] });
    const b = supervisor.start('/bin/sh', ['-c', `echo "$${TREE_MARKER_VARIABLE}"`], { stdio: ['ignore', 'pipe', 'ignore'] });
    const read = async (tree: typeof a) => {
      let out = '';
      for await (const chunk of tree.child.stdout!) out += String(chunk);
      return out.trim();
    };
    const [markerA, markerB] = await Promise.all([read(a), read(b)]);
    assert.match(markerA, /^[0-9a-f-]{36}$/);
    assert.notEqual(markerA, markerB);
    assert.deepEqual(markedProcesses(new Set(['no-such-marker'])), []);
    await supervisor.dispose();
  });
});

describe('process trees: holders of the output pipe', () => {
  it('finds a daemon that dropped its environment (env -i setsid) but holds the output', async () => {
    const supervisor = new ProcessSupervisor();
    const marker = uniqueSleep();
    // The shell lives a moment longer than the daemon's start: the pipes are read from it as it starts
    // (a shell gone before that is a known limit, RELIABILITY.md).
    const tree = supervisor.start('/bin/sh', ['-c', `env -i setsid sleep ${marker} & sleep 0.3; echo started`], { stdio: ['ignore', 'pipe', 'pipe'] });
    tree.child.stdout!.resume();
    await tree.exited;
    await until(() => countProcesses(marker) === 1);
    const report = await tree.kill();
    assert.deepEqual(report.survivors, []);
    assert.equal(countProcesses(marker), 0);
    await supervisor.dispose();
  });
});
