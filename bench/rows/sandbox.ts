// Row: `echo hi` through Bash in the OS sandbox vs outside it (issue 17), in a fresh CLI process (the
// production bundle): the start-up cost (the runtime's proxies and the `true` check) and the cost per command.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fmt, productionBundle, REPEATS, runTimed, stat, type Row } from '../lib';

/**
 * Commands in the longer batch, by mode; the per-command cost is the difference to the one-command batch over
 * this less one. Unsandboxed, ten commands (about 40 ms) were within how much a fresh CLI's start varies
 * (214-267 ms in one run), and one run gave -0.7 ms per command as its min (2026-12-02): a hundred take
 * several times that variation.
 */
const BATCH = { on: 11, off: 101 } as const;

export async function sandboxEchoRow(): Promise<Row> {
  const CLI = path.join(await productionBundle(), 'cli.js');
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-sandbox-'));
  const workspace = mkdtempSync(path.join(dir, 'ws-'));
  const settings = { on: path.join(dir, 'on.json'), off: path.join(dir, 'off.json') };
  writeFileSync(settings.on, JSON.stringify({ sandbox: { enabled: true } }));
  writeFileSync(settings.off, JSON.stringify({}));
  const batch = (count: number) => {
    const file = path.join(dir, `calls-${count}.json`);
    writeFileSync(file, JSON.stringify(Array.from({ length: count }, (_, index) => ({ id: `e${index}`, name: 'Bash', input: { command: 'echo hi' } }))));
    return file;
  };
  const calls = { one: batch(1), many: { on: batch(BATCH.on), off: batch(BATCH.off) } };
  const cli = async (mode: 'on' | 'off', file: string) => {
    const run = await runTimed(process.execPath, [CLI, 'run', '--workspace', workspace, '--settings', settings[mode], '--approve', 'allow', '--json', file]);
    if (run.code !== 0 || run.stdout.includes('"isError":true')) throw new Error(`tool-exec failed: ${run.stdout}`);
    return run.ms;
  };
  await cli('on', calls.one);
  await cli('off', calls.one);
  const fresh = { on: [] as number[], off: [] as number[] };
  const perCommand = { on: [] as number[], off: [] as number[] };
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    for (const mode of ['off', 'on'] as const) {
      const one = await cli(mode, calls.one);
      const many = await cli(mode, calls.many[mode]);
      fresh[mode].push(one);
      perCommand[mode].push((many - one) / (BATCH[mode] - 1));
    }
  }
  const on = stat(perCommand.on);
  const off = stat(perCommand.off);
  return {
    measure: '`echo hi` through Bash in the OS sandbox (fresh CLI, production bundle)',
    baseline: `unsandboxed ${fmt(off, 1, ' ms')} per command; fresh CLI with one ${fmt(stat(fresh.off), 0, ' ms')}`,
    now: `sandboxed ${fmt(on, 1, ' ms')} per command; fresh CLI with one ${fmt(stat(fresh.on), 0, ' ms')}`,
    goal: 'measured, so users know the cost (≤ 100 ms per command)',
    met: on.median <= 100,
    note:
      'Linux, bubblewrap 0.8. Of a sandboxed command, about 20 ms is the runtime building the bubblewrap command and 20 ms ' +
      'bubblewrap itself; the workspace snapshots see the empty placeholders bubblewrap makes (and the runtime removes) for ' +
      'protected files that do not exist. The fresh CLI includes starting the runtime and its start-up check.',
  };
}
