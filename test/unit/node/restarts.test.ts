import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RESTART_HEALTHY_AFTER_MS, RESTART_MAX_ATTEMPTS, RESTART_MAX_DELAY_MS, RestartBackoff } from '../../../src/node/runtime/restarts';

describe('RestartBackoff', () => {
  it('doubles the wait per crash in a row, capped, then gives up', () => {
    let now = 0;
    const backoff = new RestartBackoff(() => now);
    const delays: number[] = [];
    for (let crash = 0; crash < RESTART_MAX_ATTEMPTS; crash++) {
      backoff.started();
      now += 10;
      const decision = backoff.crashed();
      assert.ok(decision.restart);
      delays.push(decision.delayMs);
    }
    assert.deepEqual(delays.slice(0, 4), [500, 1000, 2000, 4000]);
    assert.ok(delays.every((delay) => delay <= RESTART_MAX_DELAY_MS));
    backoff.started();
    assert.deepEqual(backoff.crashed(), { restart: false, attempts: RESTART_MAX_ATTEMPTS });
  });

  it('forgives earlier crashes after a healthy run', () => {
    let now = 0;
    const backoff = new RestartBackoff(() => now);
    backoff.started();
    backoff.crashed();
    backoff.started();
    assert.equal((backoff.crashed() as { delayMs: number }).delayMs, 1000);
    backoff.started();
    now += RESTART_HEALTHY_AFTER_MS;
    assert.deepEqual(backoff.crashed(), { restart: true, attempt: 1, delayMs: 500 });
  });
});
