// Rows 6-7: a fresh CLI process doing one Read, and a command printing 1 GiB (256 MiB) through Bash.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fmt, makeTree, productionBundle, REPEATS, REPO_ROOT, runTimed, stat, type Row } from '../lib';

const MIB = 1024 * 1024;
/** A CLI start is ~0.1 s and varies by tens of ms on a busy machine: more repeats than the other rows. */
const CLI_REPEATS = 15;

export async function freshCliRow(): Promise<Row> {
  const CLI = path.join(await productionBundle(), 'cli.js');
  const workspace = makeTree(5000, 4);
  const calls = path.join(mkdtempSync(path.join(tmpdir(), 'bench-calls-')), 'calls.json');
  writeFileSync(calls, JSON.stringify([{ id: 'r1', name: 'Read', input: { path: 'd0/d0/d0/f0.txt' } }]));
  const artifacts = mkdtempSync(path.join(tmpdir(), 'bench-artifacts-'));
  // The CLI's V8 code cache (src/cli/codeCache.ts) in a cache home of the bench's own: the user's is left
  // alone, and the first run is one without a cache.
  const cacheHome = mkdtempSync(path.join(tmpdir(), 'bench-cache-'));
  const codeCache = path.join(cacheHome, 'agent-tool-executor', 'code-cache');
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: cacheHome };
  delete env.TOOL_EXEC_NO_CODE_CACHE;
  const node = () => runTimed(process.execPath, ['-e', '']);
  const cli = async () => {
    const run = await runTimed(process.execPath, [CLI, 'run', '--workspace', workspace, '--artifacts', artifacts, '--approve', 'allow', '--json', calls], { env });
    if (run.code !== 0 || !run.stdout.includes('"isError":false')) throw new Error(`tool-exec failed: ${run.stdout}`);
    return run;
  };
  /** A first run: no cache yet (it writes one at exit). */
  const coldCli = () => {
    rmSync(codeCache, { recursive: true, force: true });
    return cli();
  };
  // The warm-up: its run writes the code cache, so the runs below are the second run on.
  await node();
  await cli();
  if (!existsSync(codeCache) || readdirSync(codeCache).length === 0) throw new Error('tool-exec wrote no code cache');
  const base: number[] = [];
  const now: number[] = [];
  const ratio: number[] = [];
  const cold: number[] = [];
  const coldRatio: number[] = [];
  for (let repeat = 0; repeat < CLI_REPEATS; repeat++) {
    const b = (await node()).ms;
    const c = (await cli()).ms;
    const first = (await coldCli()).ms;
    base.push(b);
    now.push(c);
    ratio.push(c / b);
    cold.push(first);
    coldRatio.push(first / b);
  }
  rmSync(cacheHome, { recursive: true, force: true });
  const r = stat(ratio);
  return {
    measure: 'fresh CLI process, one Read, 5,000-file workspace (production bundle)',
    baseline: `\`node -e ''\` ${fmt(stat(base), 0, ' ms')}`,
    now: `${fmt(stat(now), 0, ' ms')} wall: ${fmt(r, 2, '×')}; first run (no code cache yet) ${fmt(stat(cold), 0, ' ms')}: ${fmt(stat(coldRatio), 2, '×')}`,
    goal: "≤ 2× node's own start",
    met: r.median <= 2,
    note:
      "the CLI keeps a V8 code cache of its bundle (src/cli/codeCache.ts: `cli.js` is a launcher, `cli-main.js` the bundle). The row gives it a cache home of its own; the warm-up run writes the cache, so `now` is what a user sees from the second run on (the same bundle and Node). The first run's number is measured with the cache deleted before each such run: it compiles without one and writes it at exit",
  };
}

const YES_LINE = 'npm WARN deprecated some-package@1.0.0: this line is a typical build log line';

/** One run of the child bench: the executor wired like the CLI runs the command through Bash. */
async function throughBash(mib: number): Promise<{ ms: number; rssMiB: number }> {
  const child = path.join(REPO_ROOT, 'out', 'bench', 'child', 'bashOutput.js');
  const run = await runTimed(process.execPath, [child, String(mib)]);
  if (run.code !== 0) throw new Error(`bashOutput child failed: ${run.stdout}`);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as { ms: number; rssMiB: number };
}

/** The shell writing the same bytes to a file. */
async function shellToFile(mib: number): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-out-'));
  try {
    const run = await runTimed('/bin/bash', ['-c', `yes '${YES_LINE}' | head -c ${mib * MIB} > ${path.join(dir, 'out.txt')}`]);
    return run.ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Node doing nothing but read the pipe and write the file (bench/child/pipeCopy.ts): the floor for any Node implementation. */
async function nodeCopy(mib: number): Promise<{ ms: number; rssMiB: number }> {
  const run = await runTimed(process.execPath, [path.join(REPO_ROOT, 'out', 'bench', 'child', 'pipeCopy.js'), String(mib)]);
  if (run.code !== 0) throw new Error(`pipeCopy child failed: ${run.stdout}`);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as { ms: number; rssMiB: number };
}

export async function bigOutputRow(): Promise<Row> {
  const results: Record<number, { ratio: number[]; floor: number[]; rss: number[]; floorRss: number[]; base: number[] }> = {};
  for (const mib of [1024, 256]) {
    results[mib] = { ratio: [], floor: [], rss: [], floorRss: [], base: [] };
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      const base = await shellToFile(mib);
      const floor = await nodeCopy(mib);
      const run = await throughBash(mib);
      results[mib]!.ratio.push(run.ms / base);
      results[mib]!.floor.push(floor.ms / base);
      results[mib]!.floorRss.push(floor.rssMiB);
      results[mib]!.rss.push(run.rssMiB);
      results[mib]!.base.push(base);
    }
  }
  const gib = stat(results[1024]!.ratio);
  const quarter = stat(results[256]!.ratio);
  const rss = stat([...results[1024]!.rss, ...results[256]!.rss]);
  const floorRss = stat([...results[1024]!.floorRss, ...results[256]!.floorRss]);
  return {
    measure: 'a command printing 1 GiB (and 256 MiB) through Bash',
    baseline: `the shell writing it to a file: ${fmt(stat(results[1024]!.base), 0, ' ms')} (${fmt(stat(results[256]!.base), 0, ' ms')})`,
    now:
      `${fmt(gib, 1, '×')} (${fmt(quarter, 1, '×')}); peak RSS ${fmt(rss, 0, ' MiB')}; ` +
      `Node only copying the pipe to the file: ${fmt(stat(results[1024]!.floor), 1, '×')} (${fmt(stat(results[256]!.floor), 1, '×')}), peak RSS ${fmt(floorRss, 0, ' MiB')}`,
    goal: '≤ 1.5×; ≤ 80 MiB',
    met: gib.median <= 1.5 && quarter.median <= 1.5 && rss.max <= 80,
    note: BIG_OUTPUT_NOTE,
  };
}

/**
 * Why the row's goal is out of reach, as CPU profiles of the child (`node --cpu-prof out/bench/child/bashOutput.js 1024`) show it;
 * CPU per MiB is `process.cpuUsage()` of each child (its own threads, not the shell's) for 1 GiB, and `--trace-gc` shows the young generation.
 */
const BIG_OUTPUT_NOTE =
  'the floor is measured in the same run: Node doing nothing but read the pipe and write the file (bench/child/pipeCopy.ts) already ' +
  'takes about 2× the shell, more than the goal allows: it uses 1.3–1.5 ms of CPU per MiB of its own (mostly pipe reads and file ' +
  'writes in the kernel), and on 2 cores it competes with `yes` and `head` for them. Bash wired like the CLI uses 2.9–3.1 ms per MiB: ' +
  'besides that floor, it decodes each chunk, redacts it (about 1 ms/MiB on this log line: 18 native `indexOf` passes over each 32 Ki-char ' +
  'block for the triggers and a look back at every `:`), counts bytes and lines, keeps the tail, copies the text into the artifact ' +
  'buffer, and collects the garbage of it all. Peak RSS: Node only copying the pipe peaks at about 81 MiB itself (it starts at 39 MiB ' +
  "and its JS heap stays under 7 MB: the rest is memory outside V8's heap). The executor's process has 62 MiB " +
  "before the command (the executor's modules and heap on top of Node's), and V8 has sized its young generation on the survivors of " +
  'loading them: two 8 MiB semi-spaces, where the collections during the command (each promotes a few KB) leave it. A redaction ' +
  'stream joins only the first 16 Ki chars of each 64 Ki-char chunk to the text it holds back and goes on with a slice of the chunk: ' +
  'joining whole chunks made V8 grow the semi-spaces to 16 MiB after about a GiB (peak RSS 101–108 MiB for 1 GiB then, 83–87 now). ' +
  'Smaller semi-spaces would meet the goal (`node --max-semi-space-size=4` on the child: 74–76 MiB), but only a flag given to Node ' +
  'at its start sets them (`v8.setFlagsFromString` at run time leaves them as they are), which the executor, a library in a host ' +
  'such as the VS Code extension host, does not control';
