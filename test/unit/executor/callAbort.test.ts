import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { CallAbort } from '../../../src/executor/callAbort';

describe('CallAbort', () => {
  it('aborts a signal handed out during the call once the call is over, at the next turn of the event loop', async () => {
    const abort = new CallAbort();
    const signal = abort.signal;
    const reasons: unknown[] = [];
    signal.addEventListener('abort', () => reasons.push(signal.reason));
    const ended = new Error('tool call finished');
    abort.end(() => ended);
    assert.equal(abort.aborted, true);
    await nextTurn();
    assert.equal(signal.aborted, true);
    assert.deepEqual(reasons, [ended]);
  });

  it('gives the ended call\'s signal, read through `signal`, already aborted (and aborts it once)', async () => {
    const abort = new CallAbort();
    const handedOut = abort.signal;
    let events = 0;
    handedOut.addEventListener('abort', () => events++);
    abort.end(() => new Error('tool call finished'));
    assert.equal(abort.signal.aborted, true);
    assert.equal(abort.signal, handedOut);
    await nextTurn();
    assert.equal(events, 1);
  });

  it('makes a signal taken after the end born aborted, with the end\'s reason', () => {
    const abort = new CallAbort();
    const ended = new Error('tool call finished');
    abort.end(() => ended);
    assert.equal(abort.signal.aborted, true);
    assert.equal(abort.signal.reason, ended);
  });

  it('keeps the first abort: a timeout or cancel before the end aborts at once and the end changes nothing', async () => {
    const abort = new CallAbort();
    const signal = abort.signal;
    const heard: unknown[] = [];
    abort.onAbort((reason) => heard.push(reason));
    const cancelled = new Error('cancelled');
    abort.abort(cancelled);
    assert.equal(signal.aborted, true);
    abort.end(() => new Error('tool call finished'));
    await nextTurn();
    assert.equal(signal.reason, cancelled);
    assert.deepEqual(heard, [cancelled]);
  });

  it('throws from throwIfAborted what the signal would give as its reason: nothing while running, the abort\'s, or the end\'s', () => {
    const running = new CallAbort();
    running.throwIfAborted();
    const cancelled = new Error('cancelled');
    running.abort(cancelled);
    assert.throws(() => running.throwIfAborted(), (error) => error === cancelled);
    running.end(() => new Error('tool call finished'));
    assert.throws(() => running.throwIfAborted(), (error) => error === cancelled);

    const ended = new CallAbort();
    const finished = new Error('tool call finished');
    ended.end(() => finished);
    assert.throws(() => ended.throwIfAborted(), (error) => error === finished);
    assert.equal(ended.signal.reason, finished);
  });
});
