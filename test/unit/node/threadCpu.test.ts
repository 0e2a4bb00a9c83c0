// The extension host thread's CPU time, logged with the extension's own load and activate times.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as fs from 'node:fs';
import { startThreadClock, threadCpuMs, threadCpuSince, threadRunQueueMs, threadRunQueueSince } from '../../../src/node/runtime/threadCpu';

const kept = fs.existsSync('/proc/thread-self/schedstat');
const told = typeof (process as unknown as { threadCpuUsage?: unknown }).threadCpuUsage === 'function';

describe('threadCpu', () => {
  it('counts the CPU time a busy loop spends on this thread, where Node tells it', { skip: told ? false : `Node ${process.versions.node} has no process.threadCpuUsage` }, () => {
    const started = threadCpuMs();
    assert.equal(typeof started, 'number');
    const until = performance.now() + 30;
    while (performance.now() < until);
    const spent = threadCpuSince(started)!;
    // The loop ran on this thread, so its clock moved; how far is not asserted (no timing in tests).
    assert.ok(Number.isFinite(spent) && spent > 0, `spent ${spent} ms`);
  });

  it('is undefined where Node cannot tell it, and since an unknown start', () => {
    assert.equal(threadCpuSince(undefined), undefined);
    if (!told) assert.equal(threadCpuMs(), undefined);
  });

  it("reads the thread's wait on a run queue where the kernel keeps it: a count that never goes back", { skip: kept ? false : 'no /proc/thread-self/schedstat here' }, () => {
    const started = threadRunQueueMs();
    assert.equal(typeof started, 'number');
    assert.ok(started! >= 0);
    const until = performance.now() + 30;
    while (performance.now() < until);
    const waited = threadRunQueueSince(started)!;
    // Whether this thread waited at all depends on the machine's other work: only the count's sense is asserted.
    assert.ok(Number.isFinite(waited) && waited >= 0, `waited ${waited} ms`);
    assert.equal(threadRunQueueSince(undefined), undefined);
  });

  it('a thread clock reads the wall time and, where they are told, the CPU time and the run-queue wait since its start', () => {
    const clock = startThreadClock();
    const until = performance.now() + 30;
    while (performance.now() < until);
    const took = clock.elapsed();
    assert.ok(took.ms >= 30, `ms ${took.ms}`);
    assert.equal(took.cpuMs === undefined, !told);
    if (told) assert.ok(took.cpuMs! > 0, `cpuMs ${took.cpuMs}`);
    assert.equal(took.runQueueMs === undefined, !kept);
    if (kept) assert.ok(took.runQueueMs! >= 0, `runQueueMs ${took.runQueueMs}`);
  });
});
