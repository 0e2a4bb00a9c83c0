// What a workspace snapshot costs a non-read-only call: begin + finish with no change, on a tree
// of N files (W's walk stops at 500; the watcher's first start scans everything once).
// Usage: node out/bench/snapshotCost.js [files]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createNodeSnapshotter } from '../src/node/snapshot/nodeSnapshotter';

async function main(): Promise<void> {
  const files = Number(process.argv[2] ?? 20_000);
  const root = mkdtempSync(path.join(tmpdir(), 'snap-bench-'));
  for (let index = 0; index < files; index++) {
    const dir = path.join(root, `d${index % 50}`, `e${index % 7}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `f${index}.txt`), 'x');
  }
  const never = new AbortController().signal;
  for (const mode of ['walk alone', 'walk and watcher'] as const) {
    const snapshotter = createNodeSnapshotter(mode === 'walk alone' ? { feed: false } : {});
    let started = performance.now();
    await (await snapshotter.begin([root], never)).finish();
    const first = performance.now() - started;
    const runs = 10;
    started = performance.now();
    for (let run = 0; run < runs; run++) await (await snapshotter.begin([root], never)).finish();
    const each = (performance.now() - started) / runs;
    console.log(JSON.stringify({ mode, files, firstCallMs: Math.round(first), laterCallMs: Math.round(each) }));
    await snapshotter.dispose();
  }
  rmSync(root, { recursive: true, force: true });
}

void main();
