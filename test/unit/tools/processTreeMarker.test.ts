import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { environMarked, execUnderWay, markedProcesses, readMemoryLayout, TREE_MARKER_VARIABLE } from '../../../src/tools/process/procfs';
import { ProcessSupervisor } from '../../../src/tools/process/supervisor';
import { countProcesses, killMarked, uniqueSleep, until } from './processes';

/** How many programs the daemon of the exec test runs one after another (each `env` execs the next). */
const EXEC_CHAIN_LENGTH = 40;

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
    tree.child.stderr?.resume();
    // Both pipes at EOF and the shell reaped: only the marker still leads to the daemon.
    await closed;
    await until(() => countProcesses(marker) === 1);
    const report = await tree.kill();
    assert.equal(report.signalled, 1);
    assert.deepEqual(report.survivors, []);
    assert.equal(countProcesses(marker), 0);
    await supervisor.dispose();
  });

  it('stops a setsid daemon that is still exec-ing programs when the shell has exited, every time (100 commands)', async () => {
    // The daemon leaves the group (setsid) and loses its parent when the shell exits; while it execs, its
    // environment reads as empty. Each `env` execs the next program (some 40 ms for the chain here), so the
    // daemon is still exec-ing after the shell is gone: without reading such a process again, 9 of 100 were missed.
    const supervisor = new ProcessSupervisor();
    const missed: string[] = [];
    const markers: string[] = [];
    const execs = 'env '.repeat(EXEC_CHAIN_LENGTH);
    for (let i = 0; i < 100; i++) {
      const marker = uniqueSleep();
      markers.push(marker);
      const tree = supervisor.start('/bin/sh', ['-c', `setsid ${execs}sleep ${marker} >/dev/null 2>&1 & sleep 0.01; echo started`], { stdio: ['ignore', 'pipe', 'pipe'] });
      tree.child.stdout!.resume();
      tree.child.stderr?.resume();
      await tree.exited;
      // The shell is reaped, so the daemon is the one process to signal.
      const report = await tree.kill();
      if (report.signalled !== 1) missed.push(`${i}: ${JSON.stringify(report)}`);
    }
    await supervisor.dispose();
    // A daemon missed mid-chain is a `sleep` once its last exec is done (the chain takes some 40 ms).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const left = markers.filter((marker) => countProcesses(marker) > 0);
    for (const marker of left) killMarked(marker);
    assert.deepEqual(missed, []);
    assert.deepEqual(left, []);
  });

  it('tells an exec under way from an environment that is empty, a kernel thread and a zombie', async () => {
    const marker = uniqueSleep();
    const needle = [Buffer.from(`${TREE_MARKER_VARIABLE}=${marker}\0`)];
    const marked = spawn('sleep', [marker], { env: { [TREE_MARKER_VARIABLE]: marker }, stdio: 'ignore' });
    const empty = spawn('env', ['-i', 'sleep', marker], { stdio: 'ignore' });
    // A zombie: a child of a shell that does not wait for it, as long as that shell lives. The child
    // exits only once the shell has become `sleep`: one that exited at once was at times reaped by the
    // shell before its exec (ENOENT for its /proc entry, seen once in a run of the suite here).
    const parent = spawn('/bin/sh', ['-c', `sh -c 'sleep 0.1' & echo $!; exec sleep ${marker}`], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = await new Promise<number>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))));
      await until(() => countProcesses(marker) === 3);
      await until(() => readFileSync(`/proc/${zombie}/stat`, 'latin1').includes(') Z '));
      assert.equal(environMarked(marked.pid!, needle), true);
      assert.equal(environMarked(empty.pid!, needle), false);
      assert.equal(environMarked(zombie, needle), false);
      assert.equal(environMarked(process.pid, needle), false);
      // kthreadd, where this kernel shows its threads (not in a container with its own pid namespace).
      const kthreadd = (() => {
        try {
          return readFileSync('/proc/2/stat', 'latin1').includes('(kthreadd)');
        } catch {
          return false;
        }
      })();
      if (kthreadd) assert.equal(environMarked(2, needle), false);
    } finally {
      for (const child of [marked, empty, parent]) child.kill('SIGKILL');
    }
  });

  it('takes a process caught while its environment is counted for one in an exec, not for one with an empty environment', async () => {
    // The moment itself lasts microseconds: the layouts are those of a real `env -i` process, and of it as
    // the kernel shows it at each step of laying out a new program's memory.
    const marker = uniqueSleep();
    const empty = spawn('env', ['-i', 'sleep', marker], { stdio: 'ignore' });
    try {
      await until(() => countProcesses(marker) === 1);
      const settled = readMemoryLayout(empty.pid!)!;
      assert.equal(settled.envStart, settled.envEnd);
      assert.notEqual(settled.startCode, 0);
      assert.equal(execUnderWay(settled), false);
      assert.equal(execUnderWay({ ...settled, startCode: 0, envStart: 0, envEnd: 0 }), true, 'no environment laid out yet');
      assert.equal(execUnderWay({ ...settled, startCode: 0 }), true, 'the environment being counted');
      assert.equal(execUnderWay({ ...settled, startCode: 0, envEnd: settled.envEnd + 10 }), true, 'counted, the code not yet recorded');
      assert.equal(execUnderWay({ ...settled, state: 'Z' }), false);
    } finally {
      empty.kill('SIGKILL');
    }
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

  it('finds it by the output FIFO a shell writes to, forked here or by the spawn helper', async () => {
    for (const spawnHelper of ['never', 'always'] as const) {
      const supervisor = new ProcessSupervisor({ spawnHelper });
      const marker = uniqueSleep();
      try {
        const tree = await supervisor.startShell('/bin/sh', ['-c', `env -i setsid sleep ${marker} & sleep 0.3; stat -L -c %F /proc/self/fd/1`], {});
        let output = '';
        tree.child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        await tree.exited;
        await until(() => countProcesses(marker) === 1 && output !== '');
        assert.equal(output, 'fifo\n', spawnHelper);
        const report = await tree.kill();
        assert.deepEqual(report.survivors, [], spawnHelper);
        assert.equal(countProcesses(marker), 0, spawnHelper);
      } finally {
        killMarked(marker);
        await supervisor.dispose();
      }
    }
  });
});
