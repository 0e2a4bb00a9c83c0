// Stats taken ahead by a worker thread and the caller together: the same numbers lstat gives, every
// path answered whatever the worker does (runs, stalls, never starts), and a walk that uses them
// records the tree a walk without them records. Real files and a real worker thread.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { ObjectStore } from '../../../../src/node/checkpoints/objectStore';
import { entryStatOf, STAT_POOL_MAX_STALLS, StatPool, type StatList } from '../../../../src/node/checkpoints/statPool';
import { CHECKPOINT_RACY_MS } from '../../../../src/node/checkpoints/tree';
import { WalkMemo, writeTree } from '../../../../src/node/checkpoints/walk';

const roots: string[] = [];
const pools: StatPool[] = [];
after(() => {
  for (const pool of pools) pool.stop();
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

/** Bounds the waits below on a loaded machine; no test asserts a time. */
const PATIENCE_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + PATIENCE_MS;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`gave up waiting: ${what}`);
    await sleep(5);
  }
}

function pool(options: ConstructorParameters<typeof StatPool>[0] = {}): StatPool {
  const made = new StatPool(options);
  pools.push(made);
  return made;
}

/** Files, folders, a link and names that are gone: the list a walk would hand over. */
function paths(count: number): string[] {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stat-pool-'));
  roots.push(root);
  const list: string[] = [];
  for (let index = 0; index < count; index++) {
    const full = path.join(root, `d${index % 7}`, `f${index}`);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, 'x'.repeat(index % 13));
    if (index % 5 === 0) fs.chmodSync(full, 0o755);
    list.push(full);
  }
  fs.symlinkSync('f1', path.join(root, 'd0', 'link'));
  list.push(path.join(root, 'd0', 'link'), path.join(root, 'd3'), path.join(root, 'gone'), path.join(root, 'd1', 'gone', 'deeper'));
  return list;
}

function assertSameAsLstat(list: StatList, all: readonly string[], except: ReadonlySet<number> = new Set()): void {
  for (const [index, full] of all.entries()) {
    if (except.has(index)) continue;
    const stat = fs.lstatSync(full, { throwIfNoEntry: false });
    assert.deepEqual(list.at(index), stat && entryStatOf(stat), full);
  }
}

describe('stats taken ahead', () => {
  it('by the worker alone: what lstat gives, a gone path as none', async () => {
    const stats = pool({ minPaths: 1 });
    const all = paths(300);
    stats.warm();
    await until('the worker runs', () => stats.state === 'running');
    const list = stats.lstatAhead(all);
    await until('the worker states every path', () => list.progress().finished === all.length);
    assertSameAsLstat(list, all);
    list.finish();
    assert.deepEqual(stats.counts, { here: 0, worker: all.length });
  });

  it('by the caller alone while the worker is still starting, and below the pool minimum', () => {
    const starting = pool({ minPaths: 1 });
    const all = paths(100);
    const first = starting.lstatAhead(all);
    assert.equal(starting.state, 'starting');
    assertSameAsLstat(first, all);
    first.finish();
    const small = pool();
    const second = small.lstatAhead(all);
    assertSameAsLstat(second, all);
    second.finish();
    assert.equal(small.state, 'none', 'a short list starts no worker');
    assert.deepEqual([starting.counts.worker, small.counts.here], [0, all.length]);
  });

  it('by both, in any order of asking: every answer is lstat\'s', async () => {
    const stats = pool({ minPaths: 1 });
    const all = paths(2000);
    stats.warm(all);
    await until('the worker runs', () => stats.state === 'running');
    const list = stats.lstatAhead(all);
    // Backwards from the middle, then forwards: a path far past the claims gets no answer (the caller
    // states it), one in the next run is claimed here, one the worker has is waited for.
    const order = [...all.keys()].slice(0, 1000).reverse().concat([...all.keys()].slice(1000));
    let answered = 0;
    for (const index of order) {
      const answer = list.at(index);
      if (answer === undefined) continue;
      answered++;
      assert.deepEqual(answer, entryStatOf(fs.lstatSync(all[index]!)));
    }
    list.finish();
    assert.ok(answered > 0);
  });

  it('a worker that stalls in a stat: the caller states its paths after the wait; after a few such workers, none is started', async () => {
    // Claims every path, then never returns, as a stat on a hung network mount would.
    const stalls = `
      const { parentPort } = require('node:worker_threads');
      parentPort.on('message', (job) => {
        Atomics.add(new Int32Array(job.control), 0, job.paths.length);
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
      });`;
    const stats = pool({ minPaths: 1, waitMs: 50, workerSource: stalls });
    const all = paths(50);
    for (let stall = 1; stall <= STAT_POOL_MAX_STALLS; stall++) {
      stats.warm();
      await until('the worker runs', () => stats.state === 'running');
      const list = stats.lstatAhead(all);
      await until('the worker claims every path', () => list.progress().claimed === all.length);
      assert.equal(list.at(0), undefined, 'no stat from a stalled worker: the caller takes its own');
      assert.equal(stats.state, stall < STAT_POOL_MAX_STALLS ? 'none' : 'failed');
      for (const index of all.keys()) assert.equal(list.at(index), undefined);
      list.finish();
    }
    stats.warm();
    assert.equal(stats.state, 'failed', 'no worker is started again');
    const next = stats.lstatAhead(all);
    assertSameAsLstat(next, all);
    next.finish();
    assert.equal(stats.counts.worker, 0);
  });

  it('a worker that cannot start: every stat is the caller\'s own', async () => {
    const stats = pool({ minPaths: 1, workerSource: 'throw new Error("no worker here")' });
    stats.warm();
    await until('the worker fails', () => stats.state === 'failed');
    const all = paths(40);
    const list = stats.lstatAhead(all);
    assertSameAsLstat(list, all);
    list.finish();
    assert.deepEqual(stats.counts, { here: all.length, worker: 0 });
  });
});

describe('a walk with stats taken ahead', () => {
  it('records the tree a walk without a memo records, after files and folders changed in every way', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stat-pool-walk-'));
    roots.push(root);
    const folder = path.join(root, 'ws');
    for (let index = 0; index < 700; index++) {
      const full = path.join(folder, `p${index % 9}`, `m${index % 4}`, `f${index}.txt`);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, `file ${index}\n`);
    }
    const store = new ObjectStore(path.join(root, 'objects'));
    const stats = pool();
    const memo = new WalkMemo();
    const walk = (previous?: { tree: string; takenAt: number }, withMemo = memo) =>
      writeTree(folder, { store, ignoreFiles: [], skip: new Set(), memo: withMemo, stats, ...(previous ? { previous } : {}) });
    let takenAt = Date.now();
    let last = { tree: (await walk()).tree, takenAt };
    await until('the worker runs', () => stats.state === 'running');
    const changes = [
      () => fs.appendFileSync(path.join(folder, 'p1', 'm1', 'f1.txt'), 'more\n'),
      () => fs.rmSync(path.join(folder, 'p2', 'm2', 'f2.txt')),
      () => fs.writeFileSync(path.join(folder, 'p3', 'new.txt'), 'new\n'),
      () => fs.renameSync(path.join(folder, 'p4'), path.join(folder, 'p4-renamed')),
      () => fs.rmSync(path.join(folder, 'p5', 'm1'), { recursive: true }),
      () => fs.writeFileSync(path.join(folder, 'p5', 'm1'), 'a file where a folder was\n'),
      () => fs.chmodSync(path.join(folder, 'p6', 'm2', 'f6.txt'), 0o755),
      () => fs.symlinkSync('f7.txt', path.join(folder, 'p7', 'm3', 'link')),
    ];
    for (const change of changes) {
      await sleep(CHECKPOINT_RACY_MS + 20);
      change();
      takenAt = Date.now();
      const later = await walk(last);
      const cold = await walk(undefined, new WalkMemo());
      assert.equal(later.tree, cold.tree, `after ${change.toString()}`);
      last = { tree: later.tree, takenAt };
    }
    assert.ok(stats.counts.here + stats.counts.worker > 0, 'the later walks took their stats ahead');
  });
});
