// Every row of the bench's table, each measured against its baseline in the same run (these
// machines are noisy: ratios side by side, medians with min–max of several repeats). Prints the
// table and writes BENCHMARKS.md. Usage: npm run bench [-- row-name ...] (a subset writes no file)
import { writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPEATS, REPO_ROOT, runTimed, type Row } from './lib';
import { bundleRow, HOST_STARTS } from './rows/bundle';
import { checkpointStorageRow, firstCheckpointRow, laterCheckpointRow, undoRow } from './rows/checkpoints';
import { echoRow, noopRow, readRow } from './rows/pipeline';
import { bigOutputRow, freshCliRow } from './rows/process';
import { promptAssemblyRow } from './rows/promptAssembly';
import { redactionRow } from './rows/redaction';
import { sandboxEchoRow } from './rows/sandbox';
import { writeSnapshotRow } from './rows/snapshot';
import { truncationRow } from './rows/truncation';
import { installFileSystemProbe } from '../src/executor';
import { nodeFileSystemProbe } from '../src/node/runtime/fileSystemProbe';
import { processMountTable } from '../src/node/runtime/localMounts';

// The benches drive the core in this process: its paths resolve on this machine, as in the CLI.
installFileSystemProbe(nodeFileSystemProbe(processMountTable()));

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
  ['sandbox', sandboxEchoRow],
  ['prompt', promptAssemblyRow],
  ['checkpoint', firstCheckpointRow],
  ['checkpoint10', laterCheckpointRow],
  ['undo100', undoRow],
  ['checkpointStorage', checkpointStorageRow],
];

/**
 * The same bench at 2e71f6d, before the speed work (this machine, 2026-12-01; the fresh-CLI row then
 * ran the development bundle, and its time was the watcher's initial scan, not the bundle).
 */
const BEFORE: Readonly<Record<string, string>> = {
  'Read of a 4 KiB file, full pipeline wired like the CLI': '2,305 µs: 11.0× (10.0–20.3); bare executor 8.6×',
  '`echo hi` through Bash': 'bare executor +1.98 ms; CLI wiring +67.42 ms (67.11–68.34)',
  'no-op read-only call in a 10,000-call batch': '32.5 µs (31.2–33.5) per call',
  'Write incl. before/after snapshot, 500 files / 4 levels': '98.4 ms: 18.14× (12.30–28.17)',
  'Write incl. before/after snapshot, 5,000 files / 8 levels': '70.2 ms: 3.19× (2.28–3.79)',
  'fresh CLI process, one Read, 5,000-file workspace (production bundle)': '719 ms: 12.41× (12.18–13.19)',
  'a command printing 1 GiB (and 256 MiB) through Bash': '19.3× (7.7–20.0) (19.4×); peak RSS 127 MiB',
  'redaction of 10 MiB with 200 planted secrets of 10 formats': '71.1 MiB/s (0.64× the combined regex), 154/200, 1,323 false positives',
  'head/tail truncation, 1 → 10 → 100 MB': '×10.0 (9.7–16.0), ×20.5 (15.3–35.5) (2.9 → 30.0 → 712.6 ms)',
  'extension bundle; load + `activate()`': '1,028 KiB (zod 444, domino 230, ours 169, unbash 103); 67 ms (65–90)',
};

function table(rows: readonly Row[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [
    '| measure (same run) | baseline | now | goal | met | before (2e71f6d) |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${cell(row.measure)} | ${cell(row.baseline)} | ${cell(row.now)} | ${cell(row.goal)} | ${row.met ? 'yes' : 'no'} | ${cell(BEFORE[row.measure] ?? '—')} |`),
  ].join('\n');
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}`;
}

/** Each row runs in a fresh process (`--row NAME`): no row inherits another's heap, JIT or threads. */
async function runRow(name: string): Promise<Row> {
  const child = await runTimed(process.execPath, [__filename, '--row', name]);
  if (child.code !== 0) throw new Error(`row ${name} failed (exit ${child.code})`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as Row;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--row') {
    const row = ROWS.find(([name]) => name === process.argv[3]);
    if (!row) throw new Error(`no row ${process.argv[3]}`);
    process.stdout.write(`${JSON.stringify(await row[1]())}\n`);
    process.exit(0);
  }
  const only = process.argv.slice(2);
  const started = performance.now();
  const loadBefore = os.loadavg()[0]!;
  const rows: Row[] = [];
  for (const [name] of ROWS) {
    if (only.length > 0 && !only.includes(name)) continue;
    const rowStarted = performance.now();
    const row = await runRow(name);
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
    `- Node ${process.version}; load average (1 min) ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end`,
    '  (other work on the machine shows up as wide min–max ranges: compare ratios, not absolute times)',
    `- Each row runs in a fresh Node process and measures its baseline and the candidate back to back, ${REPEATS} repeats`,
    '  (5 for the bundle\'s load + activate in Node with a `vscode` stub, 9 for redaction and truncation, whose passes are short,',
    `  15 for the fresh CLI, whose start varies; the bundle's load + activate in the real extension host is ${HOST_STARTS} fresh`,
    '  VS Code servers with the code cache, one browser each, after one that writes it);',
    '  numbers are the median with min–max in parentheses.',
    '- The measurements behind design choices in the code, each with its date and machine: [docs/MEASUREMENTS.md](docs/MEASUREMENTS.md)',
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
    '- Fresh CLI: the production bundle (`cli.js` as `npm run package` builds it, into a temporary folder) running',
    '  `run … --json` with one Read in a 5,000-file workspace, against `node -e \'\'`; from the second run on (its V8',
    '  code cache written by the first), and the first run (no cache) apart.',
    '- Large output: `tool-exec run … --json` of the production bundle runs `yes … | head -c N` through Bash (stream',
    '  redaction, artifact, budgets), in a child (bench/child/cliPeak.ts) that reports the process\'s peak RSS, with the',
    '  batch\'s wall time from the CLI\'s summary; the goal is judged on it. Also in the same run: the executor wired like',
    '  the CLI loaded from tsc\'s output (bench/child/bashOutput.ts), and two floors, Node only copying the same command\'s',
    '  output to a file with its streams on the event loop (bench/child/pipeCopy.ts) and a worker thread copying it with',
    '  blocking reads and writes (bench/child/threadCopy.ts); against `bash -c "yes … | head -c N > file"`. Each runs',
    '  under bash, whose `times` gives the CPU time of all its processes.',
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
