// The young-generation cap of the `tool-exec` process (src/node/runtime/youngGeneration.ts): in a real V8 (a child
// Node process, so the cap does not change the test runner's heap) and, for when V8 shrinks the space
// again, with a faked heap.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { capYoungGeneration, V8_SEMI_SPACE_GROWTH_FACTOR, type YoungGenerationHeap } from '../../../src/node/runtime/youngGeneration';

const MODULE = path.join(__dirname, '../../../src/node/runtime/youngGeneration.js');
const MIB = 1024 * 1024;

/**
 * A child that keeps about a fifth of what it allocates alive for a while (what makes V8 grow the young
 * generation), letting the event loop run between bursts as a streaming command does; it prints the
 * largest new space it saw and whether the cap was set.
 */
function largestNewSpace(capMiB: number | undefined, nodeFlags: readonly string[] = []): { maxBytes: number; capped: boolean } {
  const script = `
    const v8 = require('node:v8');
    const { capYoungGeneration } = require(${JSON.stringify(MODULE)});
    const cap = ${capMiB === undefined ? 'undefined' : `capYoungGeneration({ capBytes: ${capMiB * MIB}, nodeFlags: ${JSON.stringify(nodeFlags)} })`};
    const size = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
    (async () => {
      const kept = [];
      let maxBytes = size();
      for (let burst = 0; burst < 400; burst++) {
        for (let i = 0; i < 5000; i++) {
          const item = { burst, text: 'item ' + i };
          if (i % 5 === 0) kept.push(item);
        }
        if (kept.length > 40000) kept.splice(0, 20000);
        await new Promise((resolve) => setImmediate(resolve));
        maxBytes = Math.max(maxBytes, size());
      }
      process.stdout.write(JSON.stringify({ maxBytes, capped: cap !== undefined }));
    })();`;
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout) as { maxBytes: number; capped: boolean };
}

describe('capYoungGeneration', () => {
  it('keeps the young generation of a real V8 at the cap, where it grows past it uncapped', () => {
    const uncapped = largestNewSpace(undefined);
    const capped = largestNewSpace(2);
    assert.ok(uncapped.maxBytes > 2 * MIB, `uncapped the workload grows the young generation past 2 MiB (${uncapped.maxBytes})`);
    assert.equal(capped.capped, true);
    assert.ok(capped.maxBytes <= 2 * MIB, `capped at 2 MiB: ${capped.maxBytes}`);
  });

  it('leaves V8 as it was told when the process has its own young-generation flags', () => {
    for (const flags of [['--max-semi-space-size=64'], ['--semi_space_growth_factor=4'], ['--max-old-space-size=100 --min-semi-space-size=2']]) {
      assert.equal(capYoungGeneration({ nodeFlags: flags, heap: fakeHeap().heap }), undefined, flags.join(' '));
    }
    const grown = largestNewSpace(2, ['--max-semi-space-size=64']);
    assert.equal(grown.capped, false);
    assert.ok(grown.maxBytes > 2 * MIB, `${grown.maxBytes}`);
  });

  it('turns growth off at the cap and on again when V8 shrinks the space, and on at dispose', () => {
    const { heap, factors, collect, setSize, watching } = fakeHeap();
    setSize(1 * MIB);
    const cap = capYoungGeneration({ capBytes: 8 * MIB, nodeFlags: [], heap })!;
    assert.deepEqual(factors, [], 'below the cap V8 is left as it is');
    setSize(4 * MIB);
    collect();
    assert.deepEqual(factors, []);
    setSize(8 * MIB);
    collect();
    collect();
    assert.deepEqual(factors, [1], 'at the cap: growth off, once');
    setSize(2 * MIB);
    collect();
    assert.deepEqual(factors, [1, V8_SEMI_SPACE_GROWTH_FACTOR], 'shrunk: growth on again');
    setSize(16 * MIB);
    collect();
    assert.deepEqual(factors, [1, V8_SEMI_SPACE_GROWTH_FACTOR, 1], 'past the cap (grown twice between checks): off');
    cap.dispose();
    assert.deepEqual(factors, [1, V8_SEMI_SPACE_GROWTH_FACTOR, 1, V8_SEMI_SPACE_GROWTH_FACTOR], 'disposed: on');
    assert.equal(watching(), false);
  });

  it('turns growth off at once when the young generation is at the cap already', () => {
    const { heap, factors, setSize } = fakeHeap();
    setSize(8 * MIB);
    capYoungGeneration({ capBytes: 8 * MIB, nodeFlags: [], heap })!.dispose();
    assert.deepEqual(factors, [1, V8_SEMI_SPACE_GROWTH_FACTOR]);
  });
});

function fakeHeap() {
  let size = 0;
  let listener: (() => void) | undefined;
  const factors: number[] = [];
  const heap: YoungGenerationHeap = {
    newSpaceBytes: () => size,
    setGrowthFactor: (factor) => factors.push(factor),
    watchCollections: (onCollection) => {
      listener = onCollection;
      return () => (listener = undefined);
    },
  };
  return { heap, factors, collect: () => listener?.(), setSize: (bytes: number) => (size = bytes), watching: () => listener !== undefined };
}
