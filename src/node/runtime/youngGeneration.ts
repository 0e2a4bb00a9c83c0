// Caps V8's young generation in the `tool-exec` process, so a command printing a GiB does not raise its peak RSS.
//
// V8 doubles the young generation's semi-spaces when enough of what it collects survives, and the
// process keeps the memory. A command streaming its output through the CLI
// allocates hundreds of MiB of short-lived chunk text, and a doubled young generation shows in its peak RSS
// (docs/MEASUREMENTS.md, "Young generation cap"). A size cap can only be given on
// Node's command line (`--max-semi-space-size`, read when the heap is set up), which `tool-exec` does
// not own; the growth factor, though, is read by V8 each time it grows the space. So once the young
// generation has reached the cap, growing is turned off (factor 1) and, should V8 shrink it again
// (it does when allocation is slow, as in a long `tool-exec serve`), turned back on.
//
// The cost is more young-generation collections where much survives them, small against a batch's CPU time.
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The young generation's size (both semi-spaces, as `v8.getHeapSpaceStatistics()` reports the new space) past which V8 may not grow it. */
export const YOUNG_GENERATION_CAP_BYTES = 8 * 1024 * 1024;
/** V8's own growth factor (`node --v8-options`), restored when the young generation is below the cap. */
export const V8_SEMI_SPACE_GROWTH_FACTOR = 2;

export interface YoungGenerationCap {
  /** Stops watching and lets V8 grow the young generation again. */
  dispose(): void;
}

/** What the cap reads and sets of V8 (faked in tests). */
export interface YoungGenerationHeap {
  /** The new space's size (both semi-spaces). */
  newSpaceBytes(): number;
  setGrowthFactor(factor: number): void;
  /** Calls `listener` after garbage collections (not necessarily each one) until stopped. */
  watchCollections(listener: () => void): () => void;
}

export interface YoungGenerationCapOptions {
  /** @default YOUNG_GENERATION_CAP_BYTES */
  readonly capBytes?: number;
  /** The process's Node and V8 flags; any young-generation flag among them leaves V8 as it was told. @default process.execArgv and NODE_OPTIONS */
  readonly nodeFlags?: readonly string[];
  /** @default this process's V8 */
  readonly heap?: YoungGenerationHeap;
}

/**
 * Keeps V8's young generation from growing past the cap, checked after garbage collections. Does
 * nothing (undefined) when the process was started with its own young-generation flags.
 */
export function capYoungGeneration(options: YoungGenerationCapOptions = {}): YoungGenerationCap | undefined {
  const capBytes = options.capBytes ?? YOUNG_GENERATION_CAP_BYTES;
  const nodeFlags = options.nodeFlags ?? [...process.execArgv, process.env.NODE_OPTIONS ?? ''];
  if (nodeFlags.some((flag) => /semi[-_]space/.test(flag))) return undefined;
  const heap = options.heap ?? processHeap;
  let growthOff = false;
  const adjust = () => {
    const atCap = heap.newSpaceBytes() >= capBytes;
    if (atCap === growthOff) return;
    growthOff = atCap;
    heap.setGrowthFactor(atCap ? 1 : V8_SEMI_SPACE_GROWTH_FACTOR);
  };
  adjust();
  const stop = heap.watchCollections(adjust);
  return {
    dispose: () => {
      stop();
      if (growthOff) heap.setGrowthFactor(V8_SEMI_SPACE_GROWTH_FACTOR);
      growthOff = false;
    },
  };
}

const processHeap: YoungGenerationHeap = {
  newSpaceBytes: () => {
    for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return space.space_size;
    return 0;
  },
  setGrowthFactor: (factor) => setFlagsFromString(`--semi-space-growth-factor=${factor}`),
  watchCollections: (listener) => {
    const observer = new PerformanceObserver(() => listener());
    observer.observe({ entryTypes: ['gc'] });
    return () => observer.disconnect();
  },
};
