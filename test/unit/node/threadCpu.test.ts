// The extension host thread's CPU time, logged with the extension's own load and activate times (issue 13).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { threadCpuMs, threadCpuSince } from '../../../src/node/threadCpu';

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
});
