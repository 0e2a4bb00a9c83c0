import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { FIFO_BATCH, FIFO_LOW_WATER, FifoPool, fifoParents, fifoReader, openFifoWriter, removeOrphanFolders, runHereQuietly, unlinkFifo, type OutputFifo, type RunQuietly } from '../../../src/tools/process/outputPipe';
import { until } from './processes';

/** `mkfifo` itself, counting its runs, and those that ended. */
function countingMkfifo(): { run: RunQuietly; runs: () => number; ended: () => number } {
  let runs = 0;
  let ended = 0;
  const run: RunQuietly = (file, args) => {
    runs++;
    return runHereQuietly(file, args).finally(() => ended++);
  };
  return { run, runs: () => runs, ended: () => ended };
}

async function take(pool: FifoPool): Promise<OutputFifo | undefined> {
  return pool.take();
}

describe('output FIFOs', () => {
  it('a FIFO carries what a process writes to its write end, and its name goes once the writer has it', async () => {
    const mkfifo = countingMkfifo();
    const pool = new FifoPool(mkfifo.run, 'linux');
    try {
      const fifo = await take(pool);
      assert.ok(fifo);
      assert.ok(fs.statSync(fifo.path).isFIFO());
      assert.equal(fs.statSync(path.dirname(fifo.path)).mode & 0o777, 0o700);
      const writeFd = openFifoWriter(fifo);
      const child = spawn('/bin/sh', ['-c', 'echo out; echo err >&2; stat -L -c %F /proc/self/fd/1'], { stdio: ['ignore', writeFd, writeFd] });
      fs.closeSync(writeFd);
      unlinkFifo(fifo);
      await until(() => !fs.existsSync(fifo.path));
      let text = '';
      const reader = fifoReader(fifo);
      reader.on('data', (chunk: Buffer) => (text += chunk.toString()));
      await new Promise((resolve) => reader.once('close', resolve));
      await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
      assert.equal(text, 'out\nerr\nfifo\n');
    } finally {
      pool.dispose();
    }
  });

  it('makes FIFOs in batches ahead of need, and removes its folder with what is left in it', async () => {
    const mkfifo = countingMkfifo();
    const pool = new FifoPool(mkfifo.run, 'linux');
    const taken: OutputFifo[] = [];
    try {
      taken.push((await take(pool))!);
      assert.equal(mkfifo.runs(), 1);
      const folder = path.dirname(taken[0]!.path);
      // Taken without waiting while enough are ready; the next batch starts once fewer than the low-water
      // mark are left (one of them may be being opened for the next command), not before.
      while (mkfifo.runs() === 1) {
        assert.ok(taken.length < FIFO_BATCH, 'the first batch ran out before the next was begun');
        const next = pool.take();
        assert.ok(next !== undefined && !(next instanceof Promise));
        taken.push(next);
      }
      assert.ok(taken.length >= FIFO_BATCH - FIFO_LOW_WATER - 1, `the next batch was begun after only ${taken.length} of ${FIFO_BATCH}`);
      assert.equal(new Set(taken.map((fifo) => fifo.path)).size, taken.length);
      // The batch begun below the low-water mark may still be under way: the folder goes when it is done.
      pool.dispose();
      await until(() => !fs.existsSync(folder));
    } finally {
      for (const fifo of taken) fs.closeSync(fifo.readFd);
      pool.dispose();
    }
  });

  it('warmUp makes the first batch before any command, which then takes a FIFO without waiting', async () => {
    const mkfifo = countingMkfifo();
    const pool = new FifoPool(mkfifo.run, 'linux');
    try {
      pool.warmUp();
      pool.warmUp();
      assert.equal(mkfifo.runs(), 1);
      await until(() => mkfifo.ended() === 1);
      const fifo = pool.take();
      assert.ok(fifo !== undefined && !(fifo instanceof Promise), 'a FIFO was ready');
      assert.equal(mkfifo.runs(), 1);
      fs.closeSync(fifo.readFd);
    } finally {
      pool.dispose();
    }
  });

  it('on a local file system, opens a FIFO as it is taken and removes its name at once, synchronously', async () => {
    const pool = new FifoPool(countingMkfifo().run, 'linux', { isLocal: () => true, inMemory: () => false });
    try {
      const first = (await take(pool))!;
      fs.closeSync(first.readFd);
      for (let command = 0; command < 3; command++) {
        // Nothing is opened ahead: each command's FIFO comes with its read end only, without a promise.
        const fifo = pool.take();
        assert.ok(fifo !== undefined && !(fifo instanceof Promise));
        assert.equal(fifo.local, true);
        assert.equal(fifo.writeFd, undefined);
        const writeFd = openFifoWriter(fifo);
        unlinkFifo(fifo);
        assert.equal(fs.existsSync(fifo.path), false);
        fs.writeSync(writeFd, `command ${command}`);
        fs.closeSync(writeFd);
        const reader = fifoReader(fifo);
        let text = '';
        reader.on('data', (chunk: Buffer) => (text += chunk.toString()));
        await new Promise((resolve) => reader.once('close', resolve));
        assert.equal(text, `command ${command}`);
      }
    } finally {
      pool.dispose();
    }
  });

  it('makes its folder in the first place in memory it can, and in the temp folder when there is none', async () => {
    const parent = fs.mkdtempSync(path.join(tmpdir(), 'fifo-parents-'));
    const [disk, memory, other] = ['disk', 'memory', 'other'].map((name) => path.join(parent, name));
    for (const folder of [disk!, memory!, other!]) fs.mkdirSync(folder);
    const real = (folder: string) => fs.realpathSync.native(folder);
    const inMemory = (folders: string[]) => ({ isLocal: () => true, inMemory: (path: string) => folders.map(real).includes(path) });
    const folderOf = async (pool: FifoPool) => {
      try {
        const fifo = (await take(pool))!;
        fs.closeSync(fifo.readFd);
        return path.dirname(path.dirname(fifo.path));
      } finally {
        pool.dispose();
      }
    };
    try {
      const missing = path.join(parent, 'missing');
      assert.equal(await folderOf(new FifoPool(countingMkfifo().run, 'linux', inMemory([memory!, other!]), () => [missing, disk!, memory!, other!])), real(memory!));
      assert.equal(await folderOf(new FifoPool(countingMkfifo().run, 'linux', inMemory([]), () => [disk!, memory!])), real(tmpdir()));
      assert.deepEqual(fifoParents({ XDG_RUNTIME_DIR: '/run/user/1000' }), [tmpdir(), '/run/user/1000', '/dev/shm']);
      assert.deepEqual(fifoParents({ XDG_RUNTIME_DIR: 'relative' }), [tmpdir(), '/dev/shm']);
      assert.deepEqual(fifoParents({}), [tmpdir(), '/dev/shm']);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it('makes its FIFOs in the temp folder when `mkfifo` fails in the one in memory', async () => {
    const memory = fs.mkdtempSync(path.join(tmpdir(), 'fifo-refused-'));
    const real = fs.realpathSync.native(memory);
    const mkfifo = countingMkfifo();
    // As a confinement that allows the folder but not the FIFOs in it.
    const refusing: RunQuietly = async (file, args) => (args.some((name) => name.startsWith(real)) ? false : mkfifo.run(file, args));
    const pool = new FifoPool(refusing, 'linux', { isLocal: () => true, inMemory: (path: string) => path === real }, () => [memory]);
    try {
      const fifo = (await take(pool))!;
      assert.ok(fifo, String(pool.unavailableReason));
      fs.closeSync(fifo.readFd);
      assert.equal(path.dirname(path.dirname(fifo.path)), fs.realpathSync.native(tmpdir()));
      assert.equal(pool.unavailableReason, undefined);
      assert.deepEqual(fs.readdirSync(memory), [], 'the refused folder is removed');
    } finally {
      pool.dispose();
      fs.rmSync(memory, { recursive: true, force: true });
    }
  });

  it("elsewhere (a TMPDIR on NFS or FUSE), opens the next command's FIFO ahead, both ends, through the thread pool", async () => {
    const pool = new FifoPool(countingMkfifo().run, 'linux', { isLocal: () => false, inMemory: () => false });
    try {
      const first = (await take(pool))!;
      // The first command's is opened as it comes: nothing was ready before the batch.
      assert.equal(first.writeFd, undefined);
      fs.closeSync(first.readFd);
      let next: OutputFifo | undefined;
      await until(() => {
        const taken = pool.take();
        assert.ok(!(taken instanceof Promise));
        if (taken && taken.writeFd === undefined) fs.closeSync(taken.readFd);
        else next = taken;
        return next !== undefined;
      });
      assert.equal(openFifoWriter(next!), next!.writeFd);
      assert.ok(fs.fstatSync(next!.writeFd!).isFIFO());
      fs.writeSync(next!.writeFd!, 'through');
      fs.closeSync(next!.writeFd!);
      const reader = fifoReader(next!);
      let text = '';
      reader.on('data', (chunk: Buffer) => (text += chunk.toString()));
      await new Promise((resolve) => reader.once('close', resolve));
      assert.equal(text, 'through');
    } finally {
      pool.dispose();
    }
  });

  it('where `mkfifo` fails, or off Linux, there is no FIFO and the reason is known', async () => {
    const failing = new FifoPool(async () => false, 'linux');
    assert.equal(await take(failing), undefined);
    assert.equal(failing.unavailableReason, '`mkfifo` failed');
    // Known to fail: asked no more.
    assert.equal(failing.take(), undefined);
    failing.dispose();
    let asked = 0;
    const mac = new FifoPool(async () => {
      asked++;
      return true;
    }, 'darwin');
    assert.equal(mac.take(), undefined);
    assert.equal(asked, 0);
    assert.match(mac.unavailableReason!, /Linux only/);
  });

  it('a batch lost for a reason of the moment (the spawn helper ended) is tried again by the next command', async () => {
    const mkfifo = countingMkfifo();
    let lose = true;
    const pool = new FifoPool((file, args) => (lose ? Promise.resolve(undefined) : mkfifo.run(file, args)), 'linux');
    try {
      assert.equal(await take(pool), undefined);
      assert.equal(pool.unavailableReason, undefined);
      lose = false;
      const fifo = await take(pool);
      assert.ok(fifo);
      fs.closeSync(fifo.readFd);
    } finally {
      pool.dispose();
    }
  });

  it('a folder removed under it (a /tmp cleaner): that command goes without, the next gets a FIFO from a new folder', async () => {
    const mkfifo = countingMkfifo();
    const pool = new FifoPool(mkfifo.run, 'linux');
    try {
      const first = (await take(pool))!;
      fs.closeSync(first.readFd);
      fs.rmSync(path.dirname(first.path), { recursive: true, force: true });
      assert.equal(await take(pool), undefined);
      const next = await take(pool);
      assert.ok(next);
      assert.notEqual(path.dirname(next.path), path.dirname(first.path));
      fs.closeSync(next.readFd);
    } finally {
      pool.dispose();
    }
  });

  it('folders left by processes that are gone are removed; those of running processes stay', async () => {
    const parent = fs.mkdtempSync(path.join(tmpdir(), 'fifo-orphans-'));
    try {
      for (const name of ['tool-exec-pipes-111-abc', 'tool-exec-pipes-222-def', 'tool-exec-pipes-x-1', 'other-333-ghi']) fs.mkdirSync(path.join(parent, name));
      fs.writeFileSync(path.join(parent, 'tool-exec-pipes-111-abc', '0'), '');
      await removeOrphanFolders(parent, (pid) => pid === 222);
      assert.deepEqual(fs.readdirSync(parent).sort(), ['other-333-ghi', 'tool-exec-pipes-222-def', 'tool-exec-pipes-x-1']);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});
