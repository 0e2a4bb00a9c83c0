// Rows 4-5: a Write with its before/after workspace snapshot, against `git status` of the same tree.
import * as path from 'node:path';
import { fmt, makeTree, perOpMicros, REPEATS, runTimed, stat, type Row } from '../lib';
import { cliWiredExecutor } from '../wiring';

const OPS = 10;

export async function writeSnapshotRow(files: number, levels: number): Promise<Row> {
  const workspace = makeTree(files, levels, { git: true });
  const wired = await cliWiredExecutor(workspace);
  let serial = 0;
  const write = async () => {
    const file = path.join(workspace, `written-${serial++}.txt`);
    const result = await wired.executor.execute({ id: `w${serial}`, name: 'Write', input: { path: file, content: 'hello\n' } });
    if (result.isError) throw new Error(`write failed: ${result.modelContent}`);
  };
  const gitStatus = async () => {
    const { code } = await runTimed('git', ['status', '--porcelain'], { cwd: workspace });
    if (code !== 0) throw new Error('git status failed');
  };
  await perOpMicros(2, gitStatus);
  await perOpMicros(2, write);
  const base: number[] = [];
  const now: number[] = [];
  const ratio: number[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    const baseline = (await perOpMicros(OPS, gitStatus)) / 1000;
    const writeMs = (await perOpMicros(OPS, write)) / 1000;
    base.push(baseline);
    now.push(writeMs);
    ratio.push(writeMs / baseline);
  }
  await wired.close();
  const r = stat(ratio);
  return {
    measure: `Write incl. before/after snapshot, ${files.toLocaleString('en-US')} files / ${levels} levels`,
    baseline: `\`git status --porcelain\` ${fmt(stat(base), 1, ' ms')}`,
    now: `${fmt(stat(now), 1, ' ms')}: ${fmt(r, 2, '×')}`,
    goal: '≤ 1.0×',
    met: r.median <= 1.0,
  };
}
