import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { CallAbort } from '../../../src/executor/call/callAbort';

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

  describe('listen (ToolContext.onAbort)', () => {
    it('tells a listener the first abort once, before the executor\'s own listener, and makes no signal', () => {
      const abort = new CallAbort();
      const order: string[] = [];
      const heard: unknown[] = [];
      abort.onAbort(() => order.push('executor'));
      abort.listen((reason) => {
        order.push('handler');
        heard.push(reason);
      });
      const stopped = abort.listen(() => order.push('stopped'));
      stopped();
      const cancelled = new Error('cancelled');
      abort.abort(cancelled);
      abort.abort(new Error('again'));
      assert.deepEqual(order, ['handler', 'executor']);
      assert.deepEqual(heard, [cancelled]);
      assert.equal((abort as unknown as { controller: unknown }).controller, undefined);
    });

    it('tells a listener that comes after the abort at once, with its reason', () => {
      const abort = new CallAbort();
      const timedOut = new Error('timed out');
      abort.abort(timedOut);
      const heard: unknown[] = [];
      const stop = abort.listen((reason) => heard.push(reason));
      assert.deepEqual(heard, [timedOut]);
      stop();
    });

    it('tells a listener still there when the call ends, at the next turn, with the end\'s reason', async () => {
      const abort = new CallAbort();
      const heard: unknown[] = [];
      abort.listen((reason) => heard.push(reason));
      const gone: unknown[] = [];
      abort.listen((reason) => gone.push(reason))();
      const finished = new Error('tool call finished');
      abort.end(() => finished);
      assert.deepEqual(heard, []);
      await nextTurn();
      assert.deepEqual(heard, [finished]);
      assert.deepEqual(gone, []);
    });

    it('does not let a listener that throws keep the others or the executor from hearing the abort', () => {
      const abort = new CallAbort();
      const heard: string[] = [];
      abort.onAbort(() => heard.push('executor'));
      abort.listen(() => {
        throw new Error('a broken listener');
      });
      abort.listen(() => heard.push('handler'));
      abort.abort(new Error('cancelled'));
      assert.deepEqual(heard, ['handler', 'executor']);
    });
  });
});
