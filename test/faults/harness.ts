// Runs one fault of the catalogue through the built CLI (`out/src/cli/main.js`, what `tool-exec` bundles)
// and checks what every entry must hold, whatever the fault: the CLI ended by itself with a truthful exit
// code and no stack trace, exactly one result per call in call order then the summary, nothing it started
// is still running, and no planted secret in stdout, stderr, artifacts or the session record.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const CLI = path.join(ROOT, 'out', 'src', 'cli', 'main.js');
export const FIXTURES = path.join(ROOT, 'test', 'faults', 'fixtures');
export const HOSTILE_TOOLS = path.join(FIXTURES, 'hostile-tools.mjs');
/** Inherited by everything the CLI starts: how leftovers are found afterwards. */
export const ENTRY_MARKER = 'TOOL_EXEC_FAULT_ENTRY';
/** A CLI that has not ended after this long is killed and the entry fails (it never ended by itself). */
const HANG_LIMIT_MS = 90_000;
/** After the CLI exits, how long what it started may take to disappear (killed processes being reaped). */
const LEFTOVER_SETTLE_MS = 5_000;

export interface ResultLine {
  readonly id: string;
  readonly name: string;
  readonly isError: boolean;
  readonly errorKind: string | null;
  readonly content: string;
  readonly truncated: boolean;
  readonly artifactPath: string | null;
  readonly display: Record<string, unknown> | null;
}

export interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly results: ResultLine[];
  readonly summary?: Record<string, unknown>;
  readonly workspace: string;
  readonly artifacts: string;
}

export interface RunOptions {
  readonly id: string;
  readonly args: readonly string[];
  /** Written to the CALLS file (JSON unless a string). */
  readonly calls?: unknown;
  readonly stdin?: string;
  /** Files to create in the workspace, by relative path. */
  readonly files?: Readonly<Record<string, string>>;
  readonly env?: Readonly<Record<string, string>>;
  /** Written to `{base}/settings.json` (JSON unless a string). */
  readonly settings?: unknown;
  /** Files next to the workspace (`{base}/NAME`): tool modules, outside files. */
  readonly baseFiles?: Readonly<Record<string, string>>;
  /** Runs while the CLI runs (send a signal, close stdout); `until` resolves when the CLI exited. */
  readonly during?: (child: ReturnType<typeof spawn>, io: DuringIo) => Promise<void>;
}

export interface DuringIo {
  /** Resolves once stdout has at least `count` lines. */
  lines(count: number): Promise<void>;
  /** Resolves once a process of this entry whose command line matches is alive. */
  process(pattern: RegExp): Promise<void>;
}

/** Runs the CLI in a fresh workspace; `{workspace}` and `{artifacts}` in args are replaced. */
export async function runCli(options: RunOptions): Promise<Run> {
  const base = fs.mkdtempSync(path.join(tmpdir(), `fault-${options.id}-`));
  const workspace = path.join(base, 'ws');
  const artifacts = path.join(base, 'artifacts');
  fs.mkdirSync(workspace);
  for (const [file, text] of Object.entries(options.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
    fs.writeFileSync(path.join(workspace, file), text);
  }
  const callsFile = path.join(base, 'calls.json');
  if (options.calls !== undefined) fs.writeFileSync(callsFile, typeof options.calls === 'string' ? options.calls : JSON.stringify(options.calls));
  const args = options.args.map((arg) => arg.replaceAll('{workspace}', workspace).replaceAll('{artifacts}', artifacts).replaceAll('{calls}', callsFile).replaceAll('{base}', base));
  if (options.settings !== undefined) fs.writeFileSync(path.join(base, 'settings.json'), typeof options.settings === 'string' ? options.settings : JSON.stringify(options.settings));
  for (const [file, text] of Object.entries(options.baseFiles ?? {})) fs.writeFileSync(path.join(base, file), text);
  fs.mkdirSync(path.join(base, 'home'));
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: workspace,
    env: { ...process.env, TOOL_EXEC_LOG: 'warn', ...options.env, [ENTRY_MARKER]: options.id, HOME: path.join(base, 'home') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: (() => void)[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    for (const waiter of waiters.splice(0)) waiter();
  });
  child.stdout.on('error', () => {});
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  child.stdin.on('error', () => {});
  child.stdin.end(options.stdin ?? '');
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  const hang = setTimeout(() => child.kill('SIGKILL'), HANG_LIMIT_MS);
  const io: DuringIo = {
    lines: async (count) => {
      while (stdout.split('\n').length - 1 < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    process: async (pattern) => {
      while (!entryProcesses(options.id).some((pid) => pattern.test(commandLine(pid)))) await delay(20);
    },
  };
  if (options.during) await options.during(child, io);
  const { code, signal } = await exited;
  clearTimeout(hang);
  const parsed = parseLines(stdout, args.includes('--json'));
  return { code, signal, stdout, stderr, ...parsed, workspace, artifacts };
}

function parseLines(stdout: string, json: boolean): { results: ResultLine[]; summary?: Record<string, unknown> } {
  if (!json) return { results: [] };
  const results: ResultLine[] = [];
  let summary: Record<string, unknown> | undefined;
  for (const line of stdout.split('\n')) {
    if (line === '') continue;
    const value = JSON.parse(line) as Record<string, unknown>;
    assert.equal(summary, undefined, `nothing follows the summary line, got ${line.slice(0, 200)}`);
    if ('summary' in value) summary = value.summary as Record<string, unknown>;
    else results.push(value as unknown as ResultLine);
  }
  return { results, summary };
}

export interface Invariants {
  /** The ids of the calls, in order: exactly one result each (none when the CLI refused to start). */
  readonly ids: readonly string[];
  readonly exit: number;
  /** Secrets that must appear nowhere. */
  readonly secrets?: readonly string[];
}

/** What every entry holds. */
export async function checkInvariants(id: string, run: Run, expected: Invariants): Promise<void> {
  assert.equal(run.signal, null, `the CLI was killed by ${run.signal} (it hung); stderr: ${run.stderr.slice(0, 500)}`);
  assert.equal(run.code, expected.exit, `exit code; stderr: ${run.stderr.slice(0, 1000)}`);
  assert.doesNotMatch(run.stderr, /\n\s+at .+:\d+:\d+\)?\n/, 'no stack trace on stderr');
  if (expected.exit === 2) {
    assert.match(run.stderr, /^tool-exec: \S/m, 'a misuse names the problem');
  }
  if (run.results.length > 0 || expected.ids.length > 0) {
    assert.deepEqual(run.results.map((result) => result.id), [...expected.ids], 'one result per call, in call order');
  }
  const leftovers = await waitForNoProcesses(id);
  assert.deepEqual(leftovers, [], `nothing left running: ${leftovers.map((pid) => `${pid} ${commandLine(pid)}`).join('; ')}`);
  for (const secret of expected.secrets ?? []) {
    for (const [where, text] of [['stdout', run.stdout], ['stderr', run.stderr], ...filesUnder(run.artifacts)] as const) {
      assert.ok(!text.includes(secret), `${where} holds the planted secret ${secret.slice(0, 8)}…`);
    }
  }
}

/** Live (not zombie) processes carrying this entry's marker, other than the test process. */
export function entryProcesses(id: string): number[] {
  const needle = Buffer.from(`${ENTRY_MARKER}=${id}\0`);
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/environ`).includes(needle)) continue;
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      if (state !== 'Z' && state !== 'X') found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

async function waitForNoProcesses(id: string): Promise<number[]> {
  const until = Date.now() + LEFTOVER_SETTLE_MS;
  let live = entryProcesses(id);
  while (live.length > 0 && Date.now() < until) {
    await delay(50);
    live = entryProcesses(id);
  }
  return live;
}

export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

function filesUnder(dir: string): [string, string][] {
  const out: [string, string][] = [];
  const walk = (current: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push([full, fs.readFileSync(full, 'utf8')]);
    }
  };
  walk(dir);
  return out;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
