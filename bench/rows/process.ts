// Rows 6-7: a fresh CLI process doing one Read, and a command printing 1 GiB (256 MiB) through Bash.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import * as path from 'node:path';
import { bigOutputCommand, YES_LINE } from '../child/outputRun';
import { fmt, makeTree, productionBundle, REPEATS, REPO_ROOT, runTimed, runWithCpu, splitTimes, stat, type Row } from '../lib';

/** A CLI start is ~0.1 s and varies by tens of ms on a busy machine: more repeats than the other rows. */
const CLI_REPEATS = 15;

export async function freshCliRow(): Promise<Row> {
  const CLI = path.join(await productionBundle(), 'cli.js');
  const workspace = makeTree(5000, 4);
  const calls = path.join(mkdtempSync(path.join(tmpdir(), 'bench-calls-')), 'calls.json');
  writeFileSync(calls, JSON.stringify([{ id: 'r1', name: 'Read', input: { path: 'd0/d0/d0/f0.txt' } }]));
  const artifacts = mkdtempSync(path.join(tmpdir(), 'bench-artifacts-'));
  // The CLI's V8 code cache (src/cli/launch/cliCodeCache.ts) in a cache home of the bench's own: the user's is left
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
      "the CLI keeps a V8 code cache of its bundle (src/cli/launch/cliCodeCache.ts: `cli.js` is a launcher, `cli-main.js` the bundle). The row gives it a cache home of its own; the warm-up run writes the cache, so `now` is what a user sees from the second run on (the same bundle and Node). The first run's number is measured with the cache deleted before each such run: it compiles without one and writes it at exit",
  };
}

/**
 * A log line of `key=value` pairs: the redaction looks back at each `=`, and what survives the young
 * generation's collections differs; before the CLI capped the young generation, V8 grew it with this line in
 * every run (peak RSS 81-86 MiB, 2026-12-01), with `YES_LINE` in a few.
 */
const KEY_VALUE_LINE = 'INFO 2026-01-01 request handled id=1234 status=ok path=/api/v1/items';

/** One contender's run: its wall time (ms), its process's peak RSS, and the CPU time of all it ran (its threads, the shell, `yes`, `head`). */
interface CopyRun {
  readonly ms: number;
  readonly rssMiB: number;
  readonly cpuMs: number;
}

/** A child bench (bench/child/NAME.js MiB) that prints `{ms, rssMiB}` last, with the CPU time of all it ran. */
async function childRun(name: string, mib: number): Promise<CopyRun> {
  const run = await runWithCpu(process.execPath, [path.join(REPO_ROOT, 'out', 'bench', 'child', `${name}.js`), String(mib)]);
  if (run.code !== 0) throw new Error(`${name} child failed: ${run.stdout}`);
  const { ms, rssMiB } = JSON.parse(run.stdout.trim().split('\n').pop()!) as { ms: number; rssMiB: number };
  return { ms, rssMiB, cpuMs: run.cpuMs };
}

/** One run of the child bench: the executor wired like the CLI, loaded from tsc's output (out/, as the tests load it), runs the command through Bash. */
function throughBash(mib: number): Promise<CopyRun> {
  return childRun('bashOutput', mib);
}

/** The `tool-exec` CLI of the production bundle, as a user runs it, with a code cache of the row's own. */
interface Cli {
  /** One run of the command through Bash: the batch's wall time (the CLI's summary), the process's peak RSS (bench/child/cliPeak.ts), the CPU time of all it ran. */
  run(mib: number, line?: string): Promise<CopyRun>;
  dispose(): void;
}

async function cliRunner(): Promise<Cli> {
  const cli = path.join(await productionBundle(), 'cli.js');
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-cli-output-'));
  const workspace = path.join(dir, 'workspace');
  const artifacts = path.join(dir, 'artifacts');
  mkdirSync(workspace);
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: path.join(dir, 'cache') };
  delete env.TOOL_EXEC_NO_CODE_CACHE;
  const run = async (mib: number, line = YES_LINE) => {
    const calls = path.join(dir, 'calls.json');
    writeFileSync(calls, JSON.stringify([{ id: 'big', name: 'Bash', input: { command: bigOutputCommand(mib, line) } }]));
    const args = [path.join(REPO_ROOT, 'out', 'bench', 'child', 'cliPeak.js'), cli, 'run', '--workspace', workspace, '--artifacts', artifacts, '--mode', 'bypass', '--approve', 'allow', '--json', calls];
    const child = await runWithCpu(process.execPath, args, { env });
    rmSync(artifacts, { recursive: true, force: true });
    const lines = child.stdout.trim().split('\n');
    if (child.code !== 0 || !lines[0]?.includes('"isError":false')) throw new Error(`tool-exec failed: ${child.stdout.slice(0, 2000)}`);
    const summary = JSON.parse(lines.find((line) => line.startsWith('{"summary"'))!) as { summary: { wallMs: number } };
    const { rssMiB } = JSON.parse(lines.pop()!) as { rssMiB: number };
    return { ms: summary.summary.wallMs, rssMiB, cpuMs: child.cpuMs };
  };
  // The warm-up writes the CLI's code cache: the runs measured are a user's second run on.
  await run(1);
  return { run, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The shell writing the same bytes to a file: its wall time and the CPU time of it, `yes` and `head`. */
async function shellToFile(mib: number, line = YES_LINE): Promise<{ ms: number; cpuMs: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-out-'));
  try {
    const run = await runTimed('/bin/bash', ['-c', `${bigOutputCommand(mib, line)} > ${path.join(dir, 'out.txt')}; times`]);
    const { cpuMs } = splitTimes(run.stdout);
    if (run.code !== 0 || cpuMs === undefined) throw new Error(`the shell failed: ${run.stdout}`);
    return { ms: run.ms, cpuMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Node doing nothing but read the pipe and write the file with its stream plumbing, on the event loop (bench/child/pipeCopy.ts). */
function nodeCopy(mib: number): Promise<CopyRun> {
  return childRun('pipeCopy', mib);
}

/** The same copy by a worker thread with blocking reads and writes, as `cat` does it (bench/child/threadCopy.ts; Linux: it reads a FIFO). */
function threadCopy(mib: number): Promise<CopyRun> {
  return childRun('threadCopy', mib);
}

export async function bigOutputRow(): Promise<Row> {
  type Runs = { ratio: number[]; rss: number[]; cpu: number[] };
  const runs = (): Runs => ({ ratio: [], rss: [], cpu: [] });
  type At = { cli: Runs; out: Runs; floor: Runs; thread: Runs; base: number[]; baseCpu: number[] };
  const results: Record<number, At> = {};
  /** `tool-exec` with the key=value line, 1 GiB. */
  const keyValue = runs();
  const withThread = process.platform === 'linux';
  const cli = await cliRunner();
  try {
    for (const mib of [1024, 256]) {
      const at: At = { cli: runs(), out: runs(), floor: runs(), thread: runs(), base: [], baseCpu: [] };
      results[mib] = at;
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        const base = await shellToFile(mib);
        at.base.push(base.ms);
        at.baseCpu.push(base.cpuMs);
        const contenders: Array<readonly [Runs, (mib: number) => Promise<CopyRun>]> = [
          [at.floor, nodeCopy],
          [at.cli, cli.run],
          [at.out, throughBash],
          ...(withThread ? [[at.thread, threadCopy] as const] : []),
        ];
        for (const [into, run] of contenders) {
          const { ms, rssMiB, cpuMs } = await run(mib);
          into.ratio.push(ms / base.ms);
          into.rss.push(rssMiB);
          into.cpu.push(cpuMs);
        }
        if (mib === 1024) {
          const keyValueBase = await shellToFile(mib, KEY_VALUE_LINE);
          const { ms, rssMiB, cpuMs } = await cli.run(mib, KEY_VALUE_LINE);
          keyValue.ratio.push(ms / keyValueBase.ms);
          keyValue.rss.push(rssMiB);
          keyValue.cpu.push(cpuMs);
        }
      }
    }
  } finally {
    cli.dispose();
  }
  const ratios = (of: (at: At) => Runs): string => `${fmt(stat(of(results[1024]!).ratio), 1, '×')} (${fmt(stat(of(results[256]!).ratio), 1, '×')})`;
  const rssValues = (of: (at: At) => Runs) => [...of(results[1024]!).rss, ...of(results[256]!).rss];
  const rss = (of: (at: At) => Runs) => stat(rssValues(of));
  /**
   * CPU time per MiB of output, all processes: the 1 GiB runs' median less the 256 MiB runs', over the 768 MiB
   * between them (what does not grow with the output, a process's start, drops out).
   */
  const perMiB = (of: (at: At) => number[]) => (stat(of(results[1024]!)).median - stat(of(results[256]!)).median) / 768;
  const shellWallPerMiB = perMiB((at) => at.base);
  const cpu = {
    shell: perMiB((at) => at.baseCpu),
    cli: perMiB((at) => at.cli.cpu),
    floor: perMiB((at) => at.floor.cpu),
    thread: withThread ? perMiB((at) => at.thread.cpu) : undefined,
  };
  const cores = cpus().length;
  const gib = stat(results[1024]!.cli.ratio);
  const quarter = stat(results[256]!.cli.ratio);
  const cliRss = stat([...rssValues((at) => at.cli), ...keyValue.rss]);
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  return {
    measure: 'a command printing 1 GiB (and 256 MiB) through Bash',
    baseline: `the shell writing it to a file: ${fmt(stat(results[1024]!.base), 0, ' ms')} (${fmt(stat(results[256]!.base), 0, ' ms')})`,
    now:
      `\`tool-exec\` (production bundle): ${ratios((at) => at.cli)}; peak RSS ${fmt(cliRss, 0, ' MiB')} ` +
      `(1 GiB of a key=value log line: ${fmt(stat(keyValue.ratio), 1, '×')}, peak RSS ${fmt(stat(keyValue.rss), 0, ' MiB')}); ` +
      `the same executor loaded from tsc's output (out/): ${ratios((at) => at.out)}, peak RSS ${fmt(rss((at) => at.out), 0, ' MiB')}; ` +
      `Node only copying the pipe to the file on its event loop: ${ratios((at) => at.floor)}, peak RSS ${fmt(rss((at) => at.floor), 0, ' MiB')}` +
      (withThread ? `; a worker thread only copying it with blocking reads and writes: ${ratios((at) => at.thread)}, peak RSS ${fmt(rss((at) => at.thread), 0, ' MiB')}` : '') +
      `. CPU time of all processes per MiB of output (1 GiB less 256 MiB): the shell, \`yes\` and \`head\` ${ms(cpu.shell)} in ${ms(shellWallPerMiB)} of wall; ` +
      `\`tool-exec\` ${ms(cpu.cli)}, which ${cores} cores cannot run in less than ${(cpu.cli / cores / shellWallPerMiB).toFixed(1)}× the shell's wall; ` +
      `the event-loop copy ${ms(cpu.floor)}` +
      (cpu.thread === undefined ? '' : `, the thread copy ${ms(cpu.thread)}`),
    goal: '≤ 1.5×; ≤ 80 MiB',
    met: gib.median <= 1.5 && quarter.median <= 1.5 && cliRss.max <= 80,
    note: BIG_OUTPUT_NOTE,
  };
}

/**
 * Why the row's time goal is out of reach, from the row's own measures (the floors, and the CPU time of all processes, bash's
 * `times`), CPU profiles of the children (`node --cpu-prof out/bench/child/bashOutput.js 256`), and `--trace-gc` /
 * `--trace-gc-nvp` for the young generation.
 */
const BIG_OUTPUT_NOTE =
  'two floors are measured in the same run: Node doing nothing but read the pipe and write the file, with its streams on the event loop ' +
  '(bench/child/pipeCopy.ts), and a worker thread doing the same with blocking reads and writes, as `cat` does (bench/child/threadCopy.ts). ' +
  'The thread copy keeps close to the shell (0.9–1.5× on 2026-12-03) and uses 0.6–0.8 ms of CPU per MiB of its own, the event-loop copy 1.5–2.0 ms ' +
  '(an epoll wake-up, a read of at most the pipe\'s 64 KiB and a write through the thread pool for each chunk). `tool-exec` uses 2.6–3.0 ms per MiB ' +
  'of its own: with the shell\'s 2.2–2.3, the CPU time of all the processes is such that 2 cores could not run them in less than 1.4–1.5× the shell\'s ' +
  'wall (the row\'s CPU measure), at the goal, even with neither core ever idle; it measures more because its main thread waits part of the time ' +
  '(a CPU profile over 256 MiB, 2026-12-03: 399 ms idle of 1,514; of its work the trigger scan of the redaction 296 ms, 1.15 ms per MiB: one native ' +
  '`indexOf` per anchor literal and trigger char over each 32 Ki-char block, each near memory speed; the collector 89 ms, counting lines 45, ' +
  'decoding 38, the copy into the artifact buffer 31). Reading the FIFO on a thread of its own was tried (2026-12-03, a prototype: a worker reading it ' +
  'with blocking reads into a ring in shared memory, the main thread taking what is there): 1.14–1.17 s for 256 MiB in 64 KiB pieces against ' +
  '1.03–1.20 s as it is, since what bounds the run is the main thread\'s own work on each MiB, not the reads; in larger pieces it was slower ' +
  '(2.0 s in 256 KiB ones: each string is then too large for V8\'s young generation and goes to the large-object space, collected with the old ' +
  'generation), and peak RSS rose to 96–172 MiB; a worker alone adds 11 MiB to a process (39 → 50–51 MiB), where the CLI peaks at 75 of the 80 ' +
  'allowed. So the goal needs the executor\'s CPU per MiB cut by about a third and no idle core: the redaction, which must read every byte ' +
  'before the artifact does, is a third of it already. Without that scan the row is still above the goal: on 2026-12-05 (same guest, ' +
  'busier: the row\'s CLI measured 1.9× there) the production CLI built with the scan\'s function emptied, which finds no secret (an experiment, ' +
  'not a build anyone can make), took turns with the real one, 8 runs each: 1 GiB 1.86× (1.32–2.85) against 1.93× (1.78–3.00), 256 MiB 2.07× ' +
  '(1.82–2.71) against 2.34× (1.87–2.75), its process\'s CPU time 1,145–1,686 ms for 256 MiB against 1,360–1,832. What is left is a pipe of ' +
  '64 KiB read on the event loop and three processes, `yes`, `head` and the CLI, on two cores. The scan itself runs at the speed of what it is ' +
  'made of (2026-12-05, the row\'s line in 64 Ki-char chunks): each of its 16 anchor literals is a native search at about 31 GB/s over a block in ' +
  'the cache (0.52 ms per MiB for all of them), and each `:` costs the `indexOf` that finds it, about 15 ns, and the walk back over the name before ' +
  'it, about 17 ns (0.50–0.69 ms per MiB, one `:` per line); a loop written for the one rule group of `:` and `=` took 0.44 ms per MiB, too little to show in the row. ' +
  'The 256 MiB ratio is the higher one because the row times a fresh process\'s first command, ' +
  'which costs more than its next: 16 MiB took 223-268 ms as the first command of a `tool-exec run` and 148-156 ms as its second or third (2026-12-03); ' +
  'a CPU profile of the first shows its chunks handled by code V8 has not optimised yet, and, before the shell, the first batch of FIFOs made by a `mkfifo` ' +
  '(its spawn about 6 ms of this process\'s event loop on this guest, then 7 ms on /dev/shm, 22-29 ms on an ext4 /tmp, where the FIFOs went before 2026-12-03). Before the FIFO, ' +
  'the command\'s output came through Node\'s socket pair, which made the copy slower still ' +
  '(1,180 ms against 782 ms for 256 MiB, 3.0 s against 2.3 s for 1 GiB, alternating, 2026-12-02), and the executor loaded from tsc\'s output ' +
  'took 1.26–1.51 s against 1.57–1.71 s for 256 MiB with less system time; the production CLI showed none beyond the noise (its process 1.35–1.61 s ' +
  'against 1.30–1.60 s, 4 runs each, medians of 7 more 1.53 against 1.55 s; its batch\'s own time, medians of 8, 1,379 against 1,286 ms). ' +
  'A pipe holds 64 KiB, a socket pair 176 KiB of 4 KiB writes (measured here), and Node cannot ask for a larger pipe (F_SETPIPE_SZ is an fcntl it does not offer): ' +
  'while the CLI\'s thread works on a chunk, `head` can run further ahead into a socket. ' +
  'Peak RSS: `tool-exec` starts at about 53 MiB with its code loaded, with V8\'s young ' +
  'generation at two 4 MiB semi-spaces, and the command leaves them so: each young-generation collection during it finds 2–3 KB alive ' +
  '(`--trace-gc-nvp`). The redaction stream holds back 8–16 Ki chars from one chunk to the next (a secret may straddle them); kept as ' +
  'a string, that text was alive at nearly every collection and copied by each (10–11 KB a collection), and after 110–180 of them V8 ' +
  'doubled the semi-spaces (peak RSS 83–89 MiB then); while it is ASCII it now waits in a buffer outside the JS heap. That was not enough in every run: ' +
  'of 32 runs of 1 GiB on 2026-12-01, 3 still peaked at 84–87 MiB with the semi-spaces doubled (V8 grows them once what survived its collections since ' +
  'it last grew them exceeds their capacity, and most of that was the CLI\'s own start-up), and with a key=value log line (the redaction looks back at ' +
  'each `=`) all 3 runs did, at 81–86 MiB. So `tool-exec` now caps the young generation where its start-up leaves it (src/node/runtime/youngGeneration.ts): ' +
  'V8 reads the growth factor each time it grows the space, and once the space is at 8 MiB (the two 4 MiB semi-spaces) the CLI sets that factor to 1 (and back to 2 should V8 ' +
  'shrink the space). The same 1 GiB then peaked at 72–77 MiB with either line. The cost, measured there, is more young collections where much ' +
  'survives them, as in a batch of 3,000 Read and Grep calls (0.49–0.58 s in them against 0.31–0.35 s, of 4.1–5.1 s of CPU). The same ' +
  'executor loaded from tsc\'s output, module by module, as the tests load it (no cap: that is the CLI\'s launcher), has 8 MiB semi-spaces before the command starts: loading it that way promotes ' +
  'enough objects (about 6.5 MB) for V8 to double them. Node only copying the pipe peaks at about 81 MiB: it allocates so little in ' +
  'the JS heap that its young collections are rare, and the dead 64 KiB read buffers (outside the JS heap) pile up between them';
