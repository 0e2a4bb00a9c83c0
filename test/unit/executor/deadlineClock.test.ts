import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { DeadlineClock } from '../../../src/executor/call/deadlineClock';

/** Runs `script` in a fresh Node with the compiled clock as `clock`; its stdout and exit code. */
function inFreshNode(script: string): { stdout: string; status: number | null } {
  const module = path.join(__dirname, '..', '..', '..', 'src', 'executor', 'call', 'deadlineClock.js');
  const result = spawnSync(process.execPath, ['-e', `const clock = require(${JSON.stringify(module)}).deadlineClock;\n${script}`], { encoding: 'utf8', timeout: 60_000 });
  return { stdout: result.stdout, status: result.status };
}

describe('DeadlineClock', () => {
  it('fires each deadline once, in the order of their expiry, never before it, and not one that was cancelled', async () => {
    const clock = new DeadlineClock();
    const fired: Array<{ name: string; late: boolean }> = [];
    const start = performance.now();
    const done = new Promise<void>((resolve) => {
      const at = (name: string, ms: number) =>
        clock.at(start + ms, () => {
          fired.push({ name, late: performance.now() >= start + ms });
          if (name === 'last') resolve();
        });
      at('last', 60);
      at('first', 10);
      at('cancelled', 20).cancel();
      at('second', 30);
    });
    await done;
    assert.deepEqual(fired.map((entry) => entry.name), ['first', 'second', 'last']);
    assert.ok(fired.every((entry) => entry.late), 'a deadline fired before its expiry');
  });

  it('takes deadlines added while one fires, and one earlier than the armed timer', async () => {
    const clock = new DeadlineClock();
    const fired: string[] = [];
    await new Promise<void>((resolve) => {
      clock.at(performance.now() + 10_000, () => fired.push('far'));
      clock.at(performance.now() + 5, () => {
        fired.push('near');
        clock.at(performance.now() + 5, () => {
          fired.push('added');
          resolve();
        });
      });
    });
    assert.deepEqual(fired, ['near', 'added']);
  });

  it('fires every deadline due at a tick even if one of them throws, and the error is still uncaught', () => {
    const run = inFreshNode(
      [
        "process.on('uncaughtException', (error) => console.log('uncaught ' + error.message));",
        'const at = performance.now() + 20;',
        "clock.at(at, () => { throw new Error('boom'); });",
        "clock.at(at, () => console.log('second fired'));",
      ].join('\n'),
    );
    assert.deepEqual(run.stdout.trim().split('\n').sort(), ['second fired', 'uncaught boom']);
    assert.equal(run.status, 0);
  });

  it('holds the process open while a deadline waits, and no longer once every deadline was cancelled', () => {
    const waiting = inFreshNode(`clock.at(performance.now() + 50, () => console.log('fired'));`);
    assert.equal(waiting.stdout.trim(), 'fired');
    assert.equal(waiting.status, 0);
    // The timer stays armed for the cancelled minute; the process must still end at once.
    const cancelled = inFreshNode(`clock.at(performance.now() + 60_000, () => console.log('fired')).cancel(); console.log('done');`);
    assert.equal(cancelled.stdout.trim(), 'done');
    assert.equal(cancelled.status, 0);
  });
});
