// Undo back to any turn gives exactly that turn's starting tree, and redo the later one: random file
// operations, by direct writes (as the tools make them) and by a real shell, over several turns.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { CheckpointStore } from '../../../src/node/checkpoints/checkpointStore';
import { StatPool } from '../../../src/node/checkpoints/statPool';
import { undoTurn } from '../../../src/node/checkpoints/undo';
import { treeHash } from '../node/checkpoints/treeHash';
const SOAK = process.env.TOOL_EXEC_SOAK === '1';

/** Each case runs real processes: fewer cases than the pure properties. */
const CASES = SOAK ? 500 : 25;

const NAMES = ['a', 'b', 'd/c', 'd/e/f', 'g.bin'] as const;
type Op =
  | { readonly op: 'write'; readonly file: string; readonly bytes: Uint8Array }
  | { readonly op: 'remove'; readonly file: string }
  | { readonly op: 'chmod'; readonly file: string; readonly executable: boolean }
  | { readonly op: 'link'; readonly file: string; readonly to: string }
  | { readonly op: 'shell'; readonly script: string };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('write' as const), file: fc.constantFrom(...NAMES), bytes: fc.uint8Array({ maxLength: 64 }) }),
  fc.record({ op: fc.constant('remove' as const), file: fc.constantFrom(...NAMES) }),
  fc.record({ op: fc.constant('chmod' as const), file: fc.constantFrom(...NAMES), executable: fc.boolean() }),
  fc.record({ op: fc.constant('link' as const), file: fc.constantFrom(...NAMES), to: fc.constantFrom('a', 'missing', '../x') }),
  fc.record({
    op: fc.constant('shell' as const),
    script: fc.constantFrom("mv a moved 2>/dev/null; true", "rm -rf d", "printf 'x\\r\\n' > d2/new 2>/dev/null || (mkdir -p d2 && printf 'y\\n' > d2/new)", "cp g.bin copy.bin 2>/dev/null; true", "ln -sf a link"),
  }),
);

function apply(folder: string, op: Op): void {
  try {
    if (op.op === 'shell') {
      execFileSync('bash', ['-c', op.script], { cwd: folder, stdio: 'ignore' });
      return;
    }
    const file = path.join(folder, op.file);
    if (op.op === 'write') {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.rmSync(file, { force: true, recursive: true });
      fs.writeFileSync(file, op.bytes);
    } else if (op.op === 'remove') fs.rmSync(file, { force: true, recursive: true });
    else if (op.op === 'chmod') {
      if (fs.lstatSync(file, { throwIfNoEntry: false })?.isFile()) fs.chmodSync(file, op.executable ? 0o755 : 0o644);
    } else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.rmSync(file, { force: true, recursive: true });
      fs.symlinkSync(op.to, file);
    }
  } catch {
    // An operation that does not apply (a folder in the way) is skipped, as a tool's error would be.
  }
}

describe('undo and redo over random turns (property)', () => {
  // Every walk's stats are shared with a worker, however small the tree, so its path is part of the property.
  const stats = new StatPool({ minPaths: 1 });
  after(() => stats.stop());
  it('undoing back to turn k gives checkpoint k exactly; redoing gives the later tree', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(opArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }), fc.nat(), async (turns, pick) => {
        const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ckpt-prop-'));
        try {
          const folder = path.join(root, 'ws');
          fs.mkdirSync(folder);
          const store = new CheckpointStore(path.join(root, 'store'), { stats });
          const hashes: string[] = [];
          for (const [index, ops] of turns.entries()) {
            hashes.push(treeHash(folder));
            await store.beginTurn(`t${index}`, `turn ${index}`, [folder]);
            for (const op of ops) apply(folder, op);
            await store.endTurn(`t${index}`);
          }
          const last = treeHash(folder);
          const k = pick % turns.length;
          // Undo back to turn k: the newest first, each answered by the turn it reverses.
          const undos: string[] = [];
          for (let index = turns.length - 1; index >= k; index--) {
            const outcome = await undoTurn(store, `t${index}`, () => assert.fail(`turn ${index}: a conflict with nobody else writing`));
            assert.deepEqual(outcome.failed, []);
            if (outcome.record) undos.push(outcome.record.turnId);
          }
          assert.equal(treeHash(folder), hashes[k], `undo back to turn ${k}`);
          for (const undo of undos.reverse()) await undoTurn(store, undo, () => assert.fail('a conflict while redoing'));
          assert.equal(treeHash(folder), last, 'redo');
        } finally {
          fs.rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: CASES },
    );
  });
});
