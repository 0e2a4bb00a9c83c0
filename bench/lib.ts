// Shared bench helpers: repeated side-by-side measures, their summary, and fixture trees.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** Repeats of every row; each repeat measures the baseline and the candidate back to back. */
export const REPEATS = 3;

/** One number per repeat, summarised as median and min–max. */
export interface Stat {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export function stat(values: readonly number[]): Stat {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor((sorted.length - 1) / 2)]!, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

/** `12.3 (11.9–13.0)` with `digits` decimals. */
export function fmt(value: Stat, digits = 1, unit = ''): string {
  const f = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${f(value.median)}${unit} (${f(value.min)}–${f(value.max)})`;
}

/** A row of the bench's table, as measured. */
export interface Row {
  readonly measure: string;
  readonly baseline: string;
  readonly now: string;
  readonly goal: string;
  /** Whether the goal was met in this run (median against the goal). */
  readonly met: boolean;
  readonly note?: string;
}

/** Mean time of one `fn` over `ops` runs, in µs. */
export async function perOpMicros(ops: number, fn: (index: number) => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < ops; index++) await fn(index);
  return ((performance.now() - started) * 1000) / ops;
}

/**
 * A tree of `files` small files spread over `levels` levels of folders, committed to git when `git`
 * (so `git status` has an index to compare with).
 */
export function makeTree(files: number, levels: number, options: { git?: boolean } = {}): string {
  const root = mkdtempSync(path.join(tmpdir(), 'bench-tree-'));
  const fanout = Math.max(2, Math.ceil(Math.pow(files / 10, 1 / Math.max(1, levels - 1))));
  for (let index = 0; index < files; index++) {
    const parts: string[] = [];
    let rest = Math.floor(index / 10);
    for (let level = 1; level < levels; level++) {
      parts.push(`d${rest % fanout}`);
      rest = Math.floor(rest / fanout);
    }
    const dir = path.join(root, ...parts);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `f${index}.txt`), `file ${index}\n`);
  }
  if (options.git) {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
    git('init', '-q');
    git('-c', 'user.email=b@b', '-c', 'user.name=bench', 'add', '-A');
    git('-c', 'user.email=b@b', '-c', 'user.name=bench', 'commit', '-qm', 'tree');
  }
  return root;
}

/** Runs a command to its end; wall ms. */
export function runTimed(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ ms: number; stdout: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - started, stdout, code }));
  });
}

/** Bash's `times`: the shell's own user and system time, then its children's (`0m0.950s 0m0.750s`). */
const TIMES_LINE = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/;

/**
 * The CPU time (user + system, ms) of a bash script that ended with `times`: the shell's own and its
 * children's (which include what each of them waited for: a CLI's shell, its `yes` and `head`), and the
 * output before those two lines. Undefined when the script printed no such lines.
 */
export function splitTimes(stdout: string): { output: string; cpuMs: number | undefined } {
  const lines = stdout.trimEnd().split('\n');
  const own = TIMES_LINE.exec(lines[lines.length - 2] ?? '');
  const children = TIMES_LINE.exec(lines[lines.length - 1] ?? '');
  if (!own || !children) return { output: stdout, cpuMs: undefined };
  const seconds = (line: RegExpExecArray) => Number(line[1]) * 60 + Number(line[2]) + Number(line[3]) * 60 + Number(line[4]);
  return { output: lines.slice(0, -2).join('\n'), cpuMs: 1000 * (seconds(own) + seconds(children)) };
}

/** `command args…` run by bash, which prints its CPU times at the end (`splitTimes`); the exit code is the command's. */
export async function runWithCpu(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ ms: number; stdout: string; code: number | null; cpuMs: number }> {
  const run = await runTimed('/bin/bash', ['-c', '"$@"; code=$?; times; exit $code', 'bash', command, ...args], options);
  const { output, cpuMs } = splitTimes(run.stdout);
  if (cpuMs === undefined) throw new Error(`no CPU time from bash's times: ${run.stdout.slice(-500)}`);
  return { ...run, stdout: output, cpuMs };
}

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

let bundleDir: Promise<string> | undefined;

/**
 * The production bundles (`npm run package` ships them: minified, no source maps), built once per
 * run into a temporary folder, with esbuild's metafile next to each.
 */
export function productionBundle(): Promise<string> {
  bundleDir ??= (async () => {
    const outdir = mkdtempSync(path.join(tmpdir(), 'bench-bundle-'));
    const build = await runTimed(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.mjs'), '--production', `--outdir=${outdir}`, '--metafile'], { cwd: REPO_ROOT });
    if (build.code !== 0) throw new Error('production build failed');
    return outdir;
  })();
  return bundleDir;
}
