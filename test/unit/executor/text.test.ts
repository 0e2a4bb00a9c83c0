import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detachedSlice } from '../../../src/executor/text';

describe('detachedSlice', () => {
  it('gives what slice gives, for any start, short and long, ASCII and not', () => {
    for (const text of ['', 'a', 'abcdefghijklmnop'.repeat(100), 'é中😀\n'.repeat(300)]) {
      for (const start of [0, 1, 5, 12, 13, 14, text.length - 1, text.length, text.length + 3]) {
        assert.equal(detachedSlice(text, start), text.slice(start), `${text.length} from ${start}`);
      }
    }
  });
});
