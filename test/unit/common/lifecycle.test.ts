import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { disposableStore, toDisposable, type Disposable } from '../../../src/common/lifecycle';

/** A disposable that records each dispose under `name` in `log`. */
function recorded(log: string[], name: string): Disposable {
  return { dispose: () => log.push(name) };
}

describe('disposableStore', () => {
  it('disposes what it owns in the order it was added', () => {
    const log: string[] = [];
    const store = disposableStore();
    store.add(recorded(log, 'first'));
    store.add(recorded(log, 'second'));
    store.add(recorded(log, 'third'));
    store.dispose();
    assert.deepEqual(log, ['first', 'second', 'third']);
    assert.equal(store.isDisposed, true);
  });

  it('disposes each once, however often it is disposed', () => {
    const log: string[] = [];
    const store = disposableStore();
    const twice = recorded(log, 'twice added');
    store.add(twice);
    store.add(twice);
    store.dispose();
    store.dispose();
    assert.deepEqual(log, ['twice added']);
  });

  it('disposes one added after its end at once, and returns it', () => {
    const log: string[] = [];
    const store = disposableStore();
    store.dispose();
    const late = recorded(log, 'late');
    assert.equal(store.add(late), late);
    assert.deepEqual(log, ['late']);
    store.dispose();
    assert.deepEqual(log, ['late'], 'the late one is not kept for a second dispose');
  });

  it('disposes the rest when one throws, then throws that error', () => {
    const log: string[] = [];
    const failure = new Error('listener failed');
    const store = disposableStore();
    store.add(recorded(log, 'before'));
    store.add({ dispose: () => { throw failure; } });
    store.add(recorded(log, 'after'));
    assert.throws(() => store.dispose(), (error) => error === failure);
    assert.deepEqual(log, ['before', 'after']);
    assert.equal(store.isDisposed, true);
    store.dispose();
    assert.deepEqual(log, ['before', 'after'], 'a second dispose disposes nothing again');
  });

  it('reports every failure of one dispose together', () => {
    const store = disposableStore();
    const errors = [new Error('one'), new Error('two')];
    for (const error of errors) store.add({ dispose: () => { throw error; } });
    assert.throws(
      () => store.dispose(),
      (thrown) => thrown instanceof AggregateError && thrown.errors.length === 2 && thrown.errors[0] === errors[0] && thrown.errors[1] === errors[1],
    );
  });

  it('addAll owns each in order, and disposes them at once after its end', () => {
    const log: string[] = [];
    const store = disposableStore();
    store.addAll(recorded(log, 'a'), recorded(log, 'b'));
    store.dispose();
    store.addAll(recorded(log, 'c'), recorded(log, 'd'));
    assert.deepEqual(log, ['a', 'b', 'c', 'd']);
  });

  it('clear disposes what it owns and keeps owning what comes after', () => {
    const log: string[] = [];
    const store = disposableStore();
    store.add(recorded(log, 'old'));
    store.clear();
    assert.deepEqual(log, ['old']);
    assert.equal(store.isDisposed, false);
    store.add(recorded(log, 'new'));
    assert.deepEqual(log, ['old'], 'one added after a clear waits for the next dispose');
    store.dispose();
    assert.deepEqual(log, ['old', 'new']);
  });
});

describe('toDisposable', () => {
  it('runs its function once', () => {
    let runs = 0;
    const disposable = toDisposable(() => runs++);
    disposable.dispose();
    disposable.dispose();
    assert.equal(runs, 1);
  });
});
