// Undo's rows: checkpoints of a 5,000-file, 50 MB tree against git doing the same work in the same
// run, an undo of a 100-file turn, and what 50 turns cost on disk against the tree itself.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointStore } from '../../src/node/checkpoints/checkpointStore';
import { undoTurn } from '../../src/node/checkpoints/undo';
import { fmt, REPEATS, runTimed, runWithCpu, stat, type Row } from '../lib';

const FILES = 5000;
/** 50 MB over 5,000 files. */
const FILE_BYTES = 10 * 1000;
const FOLDERS = 50;
/**
 * Repeats of the later checkpoint: each lasts a few milliseconds, and the first few after the first
 * checkpoint pay for its garbage and for code not yet compiled, so three would measure mostly those.
 */
const LATER_REPEATS = 15;

/** Source-like text, different in every file. */
function fileText(index: number): string {
  let text = '';
  for (let line = 0; text.length < FILE_BYTES; line++) text += `export const value${index}_${line} = computeThe(${(index * 7919 + line * 104729) % 1000003}, 'label ${line}');\n`;
  return text.slice(0, FILE_BYTES);
}

function makeTree(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ckpt-'));
  for (let index = 0; index < FILES; index++) {
    const dir = path.join(root, `pkg${index % FOLDERS}`, `mod${index % 7}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${index}.ts`), fileText(index));
  }
  return root;
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

function touch(tree: string, files: number, round: number): void {
  for (let index = 0; index < files; index++) {
    const file = path.join(tree, `pkg${index % FOLDERS}`, `mod${index % 7}`, `f${index}.ts`);
    fs.appendFileSync(file, `// round ${round}\n`);
  }
}

/** First checkpoint of the tree against `git add -A` into a fresh repository's index. */
export async function firstCheckpointRow(): Promise<Row> {
  const tree = makeTree();
  const base: number[] = [];
  const now: number[] = [];
  const ratio: number[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    const gitDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-git-'));
    execFileSync('git', ['init', '-q', '--bare', gitDir]);
    const git = await runTimed('git', ['--git-dir', gitDir, '--work-tree', tree, 'add', '-A'], { cwd: tree });
    if (git.code !== 0) throw new Error('git add failed');
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-store-'));
    const started = performance.now();
    await new CheckpointStore(storage).take([tree]);
    const ms = performance.now() - started;
    base.push(git.ms);
    now.push(ms);
    ratio.push(ms / git.ms);
    fs.rmSync(gitDir, { recursive: true, force: true });
    fs.rmSync(storage, { recursive: true, force: true });
  }
  fs.rmSync(tree, { recursive: true, force: true });
  const r = stat(ratio);
  return {
    measure: 'first checkpoint, 5,000 files / 50 MB',
    baseline: `\`git add -A\` into a fresh index ${fmt(stat(base), 0, ' ms')}`,
    now: `${fmt(stat(now), 0, ' ms')}: ${fmt(r, 2, '×')}`,
    goal: '≤ 1.5×',
    met: r.median <= 1.5,
  };
}

/** A checkpoint after 10 files changed against `git status` of the same tree. */
export async function laterCheckpointRow(): Promise<Row> {
  const tree = makeTree();
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=b@b', '-c', 'user.name=bench', ...args], { cwd: tree, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'tree');
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-store-'));
  const store = new CheckpointStore(storage);
  await store.take([tree]);
  // Past the racy window, so the stats of unchanged files are trusted as they would be a turn later.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const base: number[] = [];
  const now: number[] = [];
  const ratio: number[] = [];
  const cpuRatio: number[] = [];
  for (let repeat = 0; repeat < LATER_REPEATS; repeat++) {
    touch(tree, 10, repeat);
    const status = await runTimed('git', ['status', '--porcelain'], { cwd: tree });
    if (status.code !== 0) throw new Error('git status failed');
    const cpu = process.cpuUsage();
    const started = performance.now();
    const checkpoint = await store.take([tree]);
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (checkpoint.read > 10 + FILES / 100) throw new Error(`the checkpoint read ${checkpoint.read} files`);
    base.push(status.ms);
    now.push(ms);
    ratio.push(ms / status.ms);
    // CPU time as well: on a loaded machine git's threads win more of the cores than one thread does.
    const gitCpu = (await runWithCpu('git', ['status', '--porcelain'], { cwd: tree })).cpuMs - (await runWithCpu('true', [])).cpuMs;
    cpuRatio.push((used.user + used.system) / 1000 / Math.max(gitCpu, 1));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  fs.rmSync(tree, { recursive: true, force: true });
  fs.rmSync(storage, { recursive: true, force: true });
  const r = stat(ratio);
  return {
    measure: 'checkpoint after 10 files changed, 5,000 files / 50 MB',
    baseline: `\`git status --porcelain\` ${fmt(stat(base), 1, ' ms')}`,
    now: `${fmt(stat(now), 1, ' ms')}: ${fmt(r, 2, '×')}`,
    goal: '≤ 1.0×',
    met: r.median <= 1.0,
    note: `${LATER_REPEATS} repeats; CPU time (both threads) against git status's: ${fmt(stat(cpuRatio), 2, '×')}`,
  };
}

/** Undo of a turn that changed 100 files, with every path compared first. */
export async function undoRow(): Promise<Row> {
  const tree = makeTree();
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-store-'));
  const store = new CheckpointStore(storage);
  await store.take([tree]);
  const times: number[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await store.beginTurn(`t${repeat}`, 'bench', [tree]);
    touch(tree, 100, repeat);
    await store.endTurn(`t${repeat}`);
    const started = performance.now();
    const outcome = await undoTurn(store, `t${repeat}`, () => 'cancel');
    times.push(performance.now() - started);
    if (outcome.restored.length !== 100) throw new Error(`undo restored ${outcome.restored.length} files`);
  }
  fs.rmSync(tree, { recursive: true, force: true });
  fs.rmSync(storage, { recursive: true, force: true });
  const t = stat(times);
  return {
    measure: 'undo of a 100-file turn, 5,000 files / 50 MB',
    baseline: '—',
    now: fmt(t, 1, ' ms'),
    goal: '≤ 100 ms',
    met: t.median <= 100,
  };
}

/** Storage of 50 turns of 10 changed files each, against the tree's own bytes. */
export async function checkpointStorageRow(): Promise<Row> {
  const tree = makeTree();
  const treeBytes = bytesUnder(tree);
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-store-'));
  const store = new CheckpointStore(storage, { retention: { maxTurns: 1000, maxDays: 365, maxBytes: Infinity } });
  for (let turn = 0; turn < 50; turn++) {
    await store.beginTurn(`t${turn}`, 'bench', [tree]);
    touch(tree, 10, turn);
    await store.endTurn(`t${turn}`);
  }
  const stored = bytesUnder(storage);
  fs.rmSync(tree, { recursive: true, force: true });
  fs.rmSync(storage, { recursive: true, force: true });
  const ratio = stored / treeBytes;
  return {
    measure: 'storage of 50 turns of 10 changed files, 5,000 files / 50 MB',
    baseline: `the tree, ${(treeBytes / 1e6).toFixed(1)} MB`,
    now: `${(stored / 1e6).toFixed(1)} MB: ${ratio.toFixed(2)}×`,
    goal: '≤ 1.2×',
    met: ratio <= 1.2,
  };
}
