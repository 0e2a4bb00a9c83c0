// Every row of issue 13's table, each measured against its baseline in the same run (these
// machines are noisy: ratios side by side, medians with min–max of several repeats). Prints the
// table and writes BENCHMARKS.md. Usage: npm run bench [-- row-name ...] (a subset writes no file)
import { writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPEATS, REPO_ROOT, type Row } from './lib';
import { bundleRow } from './rows/bundle';
import { echoRow, noopRow, readRow } from './rows/pipeline';
import { bigOutputRow, freshCliRow } from './rows/process';
import { redactionRow } from './rows/redaction';
import { writeSnapshotRow } from './rows/snapshot';
import { truncationRow } from './rows/truncation';

const ROWS: ReadonlyArray<readonly [string, () => Promise<Row>]> = [
  ['read', readRow],
  ['echo', echoRow],
  ['noop', noopRow],
  ['write500', () => writeSnapshotRow(500, 4)],
  ['write5000', () => writeSnapshotRow(5000, 8)],
  ['cli', freshCliRow],
  ['output', bigOutputRow],
  ['redaction', redactionRow],
  ['truncation', truncationRow],
  ['bundle', bundleRow],
];

function table(rows: readonly Row[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [
    '| measure (same run) | baseline | now | goal | met |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${cell(row.measure)} | ${cell(row.baseline)} | ${cell(row.now)} | ${cell(row.goal)} | ${row.met ? 'yes' : 'no'} |`),
  ].join('\n');
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}`;
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const started = performance.now();
  const rows: Row[] = [];
  for (const [name, run] of ROWS) {
    if (only.length > 0 && !only.includes(name)) continue;
    const rowStarted = performance.now();
    const row = await run();
    rows.push(row);
    process.stdout.write(`${row.measure}\n  baseline: ${row.baseline}\n  now:      ${row.now}\n  goal:     ${row.goal} (${row.met ? 'met' : 'not met'}) [${((performance.now() - rowStarted) / 1000).toFixed(0)} s]\n`);
  }
  const seconds = Math.round((performance.now() - started) / 1000);
  process.stdout.write(`\n${table(rows)}\n\n${seconds} s\n`);
  if (only.length > 0) return;
  const notes = rows.filter((row) => row.note).map((row) => `- ${row.measure}: ${row.note}.`);
  const doc = [
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString().slice(0, 10)}; the whole run took ${seconds} s.`,
    '',
    `- Machine: ${machine()}`,
    `- Node ${process.version}`,
    `- Each row measures its baseline and the candidate back to back, ${REPEATS} repeats (5 for the bundle's load + activate);`,
    '  numbers are the median with min–max in parentheses. The rows are issue 13\'s table.',
    '',
    table(rows),
    '',
    '## How each row is measured',
    '',
    '- Read and Bash rows: in one process, the executor built as `tool-exec run --mode bypass --approve allow` builds it',
    '  (bench/wiring.ts: redactor, redacting logger, rules policy, artifact store, workspace snapshots with the watcher,',
    '  session record) and a bare executor (defaults only); hundreds of calls per repeat after a warm-up.',
    '- Write rows: the CLI wiring on a git-committed tree; a Write of a new file per call, including both snapshots,',
    '  against `git status --porcelain` of the same tree.',
    '- Fresh CLI: `node dist/cli.js run … --json` with one Read in a 5,000-file workspace, against `node -e \'\'`.',
    '- Large output: a child process (bench/child/bashOutput.ts) runs `yes … | head -c N` through Bash wired like the',
    '  CLI (stream redaction, artifact, budgets) and reports its own peak RSS; against `bash -c "yes … | head -c N > file"`.',
    '- Redaction: bench/redactionCorpus.ts — this repository\'s src/ plus near-miss log and config lines, 10 MiB,',
    '  with 200 secrets of 10 formats in their real surroundings; false positives are masks in the same text without them.',
    '  The combined regex joins every built-in rule in one alternation (case-sensitive).',
    ...notes,
    '',
  ].join('\n');
  writeFileSync(path.join(REPO_ROOT, 'BENCHMARKS.md'), doc);
  process.stdout.write('wrote BENCHMARKS.md\n');
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
