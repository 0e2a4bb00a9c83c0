import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countLines, detachedSlice, MEASURE_BLOCK_CHARS, utf8Bytes, utf8BytesAndLines } from '../../../src/executor/format/text';

describe('detachedSlice', () => {
  it('gives what slice gives, for any start, short and long, ASCII and not', () => {
    for (const text of ['', 'a', 'abcdefghijklmnop'.repeat(100), 'é中😀\n'.repeat(300)]) {
      for (const start of [0, 1, 5, 12, 13, 14, text.length - 1, text.length, text.length + 3]) {
        assert.equal(detachedSlice(text, start), text.slice(start), `${text.length} from ${start}`);
      }
    }
  });
});

describe('utf8BytesAndLines', () => {
  /** A text of `length` chars from pieces that matter at a block's edge: pairs, lone halves, newlines, multi-byte chars. */
  function randomText(length: number, seed: number): string {
    const pieces = ['a', '\n', 'é', '€', '😀', '\ud800', '\udc00', '\r\n', 'xyz'];
    let state = seed;
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31);
    let text = '';
    while (text.length < length) text += pieces[next() % pieces.length];
    return text;
  }

  /** The chars of the longest line, the slow way. */
  const longestLine = (text: string) => Math.max(...text.split('\n').map((line) => line.length));

  it('counts what utf8Bytes and countLines count, and the longest line, whatever falls at a block edge', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const text = randomText(MEASURE_BLOCK_CHARS * 3 + (seed % 7), seed);
      assert.deepEqual(utf8BytesAndLines(text), { bytes: utf8Bytes(text), lines: countLines(text), longestLine: longestLine(text) }, `seed ${seed}`);
    }
  });

  it('finds the longest line across block edges, at the start, at the end without a newline, and in a short text', () => {
    const across = `ab\n${'x'.repeat(MEASURE_BLOCK_CHARS * 2)}\ncd`;
    for (const text of ['', '\n', 'abc', 'a\nbcd\n', '\n\nabcd', across, `${'y'.repeat(MEASURE_BLOCK_CHARS + 5)}`, `z\n${'w'.repeat(MEASURE_BLOCK_CHARS - 2)}\n`]) {
      assert.equal(utf8BytesAndLines(text).longestLine, longestLine(text), JSON.stringify(text.slice(0, 12)));
    }
  });

  it('keeps a surrogate pair whole across a block edge, and counts a lone half there as the encoder does', () => {
    const pair = `${'a'.repeat(MEASURE_BLOCK_CHARS - 1)}😀${'b'.repeat(10)}\n`;
    assert.deepEqual(utf8BytesAndLines(pair), { bytes: MEASURE_BLOCK_CHARS - 1 + 4 + 11, lines: 2, longestLine: MEASURE_BLOCK_CHARS - 1 + 2 + 10 });
    const lone = `${'a'.repeat(MEASURE_BLOCK_CHARS - 1)}\ud800b${'\n'.repeat(3)}`;
    assert.deepEqual(utf8BytesAndLines(lone), { bytes: utf8Bytes(lone), lines: 4, longestLine: MEASURE_BLOCK_CHARS + 1 });
  });
});

