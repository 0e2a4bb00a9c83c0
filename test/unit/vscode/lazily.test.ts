// src/vscode/lazily.ts: what activation holds in place of the core's objects, made on first use.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lazily } from '../../../src/vscode/lazily';

class Counter {
  #count = 0;
  label = 'counter';
  increment(): number {
    return ++this.#count;
  }
  get count(): number {
    return this.#count;
  }
}

describe('lazily', () => {
  it('makes nothing until a property is read, then makes it once', () => {
    let made = 0;
    const counter = lazily(() => {
      made++;
      return new Counter();
    });
    assert.equal(made, 0);
    assert.equal(counter.label, 'counter');
    assert.equal(counter.increment(), 1);
    assert.equal(counter.increment(), 2);
    assert.equal(made, 1);
  });

  it('calls methods and getters on the real object, so its private fields work, also when a method is passed on', () => {
    const counter = lazily(() => new Counter());
    const increment = counter.increment;
    assert.equal(increment(), 1);
    assert.equal(counter.count, 1);
  });

  it('writes and `in` go to the real object', () => {
    const real = new Counter();
    const counter = lazily(() => real);
    counter.label = 'renamed';
    assert.equal(real.label, 'renamed');
    assert.ok('increment' in counter);
  });

  it('a failure to make it reaches the reader, and the next read tries again', () => {
    let attempts = 0;
    const counter = lazily((): Counter => {
      attempts++;
      if (attempts === 1) throw new Error('not yet');
      return new Counter();
    });
    assert.throws(() => counter.increment(), /not yet/);
    assert.equal(counter.increment(), 1);
    assert.equal(attempts, 2);
  });
});
