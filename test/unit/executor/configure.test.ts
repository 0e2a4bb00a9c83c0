import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Semaphore } from '../../../src/executor/turn/limiter';
import { deferred, makeExecutor, tick, tool } from './fixtures';

describe('settings that change while the executor runs', () => {
  it('raising the limit admits waiters at once; lowering it lets holders finish and admits no one until below it', async () => {
    const slots = new Semaphore(1);
    const first = await slots.acquire();
    const admitted: number[] = [];
    const waiting = [1, 2, 3].map((n) => slots.acquire().then((release) => (admitted.push(n), release)));
    await tick();
    assert.deepEqual(admitted, []);
    slots.setLimit(3);
    await tick();
    assert.deepEqual(admitted, [1, 2]);
    slots.setLimit(1);
    first();
    await tick();
    assert.deepEqual(admitted, [1, 2], 'two still hold slots, over the new limit of one');
    const [release1, release2] = await Promise.all(waiting.slice(0, 2));
    release1!();
    await tick();
    assert.deepEqual(admitted, [1, 2], 'one holder left: still at the limit');
    release2!();
    await tick();
    assert.deepEqual(admitted, [1, 2, 3]);
    assert.throws(() => slots.setLimit(0), RangeError);
  });

  it('configure: a new concurrency applies to running turns, a new default timeout to turns begun after it', async () => {
    let running = 0;
    let peak = 0;
    const gate = deferred<void>();
    const { executor } = makeExecutor(
      [
        tool('Read', { handler: async () => (running++, (peak = Math.max(peak, running)), await gate.promise, running--, { content: 'ok' }) }),
        tool('Hang', { handler: () => new Promise(() => {}) }),
      ],
      { maxConcurrency: 1, defaultTimeoutMs: 60_000 },
    );
    const pending = executor.executeBatch(Array.from({ length: 4 }, (_, i) => ({ id: `r${i}`, name: 'Read', input: {} })));
    await tick(10);
    assert.equal(running, 1);
    executor.configure({ maxConcurrency: 3 });
    await tick(10);
    assert.equal(running, 3);
    gate.resolve();
    await pending;
    assert.equal(peak, 3);
    executor.configure({ defaultTimeoutMs: 30 });
    const [hung] = await executor.executeBatch([{ id: 'h', name: 'Hang', input: {} }]);
    assert.equal(hung!.errorKind, 'timeout');
  });
});
