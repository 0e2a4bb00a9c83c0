// Leak tests (hardening issue): many batches in one process, then the heap after GC compared with the
// heap before (the delta is reported in RELIABILITY.md), and nothing left behind: no timers, handles or
// child processes beyond what was there before (`process.getActiveResourcesInfo()`, `/proc`).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { z } from 'zod';
import { runBatch } from '../../../src/cli/run';
import type { CliWriter } from '../../../src/cli/cliOutput';
import { ModePolicy } from '../../../src/executor/policy/modePolicy';
import { createRedactor } from '../../../src/executor/results/redaction/patternRedactor';
import { NodeArtifactStore } from '../../../src/node/artifacts/nodeArtifactStore';
import { JsonlSessionRecorder } from '../../../src/node/sessionRecord/jsonlSessionRecorder';
import { registerBuiltinTools } from '../../../src/tools/index';
import { ProcessSupervisor } from '../../../src/tools/process/supervisor';
import { writeSection } from '../../faults/reliabilityDoc';
import type { ToolDefinition } from '../../../src/executor/contract/contract';
import { ToolExecutor } from '../../../src/executor/executor';

/** Batches through the core in one process. */
export const CORE_BATCHES = 1_000;
/** Batches through the CLI's `runBatch` (adapters, snapshots, artifacts, session record) in one process. */
export const CLI_BATCHES = 150;
/** Every this many core batches, one runs a real command (a child process). */
const COMMAND_EVERY = 10;
/** The retained heap may grow by at most this much over all the batches (measured: see RELIABILITY.md). */
const MAX_HEAP_GROWTH_BYTES = 16 * 1024 * 1024;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function settledHeap(): number {
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage().heapUsed;
}

/** Active resources by type, without the ones a test runner and this file hold for themselves. */
function resources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

function children(): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === process.pid) out.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

async function quiet(): Promise<void> {
  // Let closed handles finish closing (their close callbacks run on the next turns).
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

const root = fs.mkdtempSync(path.join(tmpdir(), 'leaks-'));
const measured: string[] = [];
after(() => {
  fs.rmSync(root, { recursive: true, force: true });
  if (process.env.UPDATE_RELIABILITY === '1') writeSection('leaks', measured.join('\n'));
});

const customTools: unknown[] = [
  { name: 'Echo', description: 'echo', inputSchema: z.object({ text: z.string() }), readOnly: true, concurrentSafe: true, sideEffectScope: 'none' as const, handler: (input: { text: string }) => ({ content: input.text.repeat(50) }) },
  { name: 'Crash', description: 'throws', inputSchema: z.object({}), readOnly: true, concurrentSafe: true, sideEffectScope: 'none' as const, handler: () => { throw new Error('crash'); } },
  { name: 'Hang', description: 'hangs until its timeout', inputSchema: z.object({}), readOnly: true, concurrentSafe: true, sideEffectScope: 'none' as const, timeout: { defaultMs: 5 }, handler: () => new Promise(() => {}) },
  { name: 'Big', description: 'large output', inputSchema: z.object({}), readOnly: true, concurrentSafe: true, sideEffectScope: 'none' as const, resultBudget: { maxModelBytes: 1000, strategy: 'artifact' as const }, handler: () => ({ content: 'row of output\n'.repeat(5000) }) },
];

describe('leaks', { concurrency: false }, () => {
  it(`${CORE_BATCHES} batches through the core: heap flat after GC, no timers, handles or children left`, async () => {
    const dir = path.join(root, 'core');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'a.txt'), 'hello\n'.repeat(100));
    const supervisor = new ProcessSupervisor();
    const store = new NodeArtifactStore({ root: path.join(dir, 'store') });
    const recorder = new JsonlSessionRecorder({ dir: path.join(dir, 'sessions'), sessionId: 'leaks' });
    // No recording ports here (they keep what they see by design): only what the product itself keeps.
    const executor = new ToolExecutor({
      workspaceFolders: [dir],
      sessionId: 'leaks',
      redactor: createRedactor({ env: {} }),
      artifactStore: store,
      sessionRecorder: recorder,
      permissionPolicy: new ModePolicy('bypass'),
    });
    for (const def of customTools) executor.registry.register(def as ToolDefinition);
    registerBuiltinTools(executor.registry, { backgroundTasks: executor, supervisor });
    const batch = (index: number) => [
      { id: `r${index}`, name: 'Read', input: { file_path: 'a.txt' } },
      { id: `e${index}`, name: 'Echo', input: { text: `batch ${index}` } },
      { id: `c${index}`, name: 'Crash', input: {} },
      { id: `h${index}`, name: 'Hang', input: {} },
      { id: `b${index}`, name: 'Big', input: {} },
      { id: `u${index}`, name: 'Missing', input: {} },
      ...(index % COMMAND_EVERY === 0 ? [{ id: `x${index}`, name: 'Bash', input: { command: 'echo hi' } }] : []),
    ];
    for (let i = 0; i < 50; i++) await executor.executeBatch(batch(-i - 1));
    await recorder.flush();
    await quiet();
    const before = { heap: settledHeap(), resources: resources(), children: children() };
    for (let i = 0; i < CORE_BATCHES; i++) {
      const results = await executor.executeBatch(batch(i));
      assert.equal(results.length, batch(i).length);
      // The session keeps a bounded history of its own (the record file, the artifact index), not the batches.
      if (i % 100 === 99) await recorder.flush();
    }
    await recorder.flush();
    await supervisor.idle();
    await quiet();
    const afterRun = { heap: settledHeap(), resources: resources(), children: children() };
    const growth = afterRun.heap - before.heap;
    // Once this process is large enough, its shells are forked by the supervisor's spawn helper, which lives
    // as long as the supervisor: the one child allowed until then.
    const helper = supervisor.spawnHelperPid;
    const left = afterRun.children.filter((pid) => pid !== helper);
    measured.push(`- ${CORE_BATCHES} batches through the core (Read, a custom tool, a crash, a timeout, a 70 KB output saved as an artifact, an unknown tool; a real command every ${COMMAND_EVERY}th): heap after GC ${mb(before.heap)} → ${mb(afterRun.heap)} (${growth >= 0 ? '+' : ''}${mb(growth)}); active resources before ${JSON.stringify(before.resources)}, after ${JSON.stringify(afterRun.resources)}; child processes left: ${left.length}${helper === undefined ? '' : ' (and the spawn helper, ended with the supervisor)'}.`);
    assert.deepEqual(afterRun.resources, before.resources, 'no timer or handle left behind');
    assert.deepEqual(left, [], 'no child process left');
    assert.ok(growth < MAX_HEAP_GROWTH_BYTES, `the heap grew by ${mb(growth)}`);
    await executor.dispose();
    await supervisor.dispose();
    for (let wait = 0; wait < 100 && children().length > 0; wait++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(children(), [], 'nothing left once the supervisor is disposed');
  });

  it(`${CLI_BATCHES} batches through the CLI's runBatch: heap flat after GC, nothing left`, async () => {
    const ws = path.join(root, 'cli-ws');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'some notes\n');
    const callsFile = path.join(root, 'calls.json');
    fs.writeFileSync(
      callsFile,
      JSON.stringify([
        { id: 'r', name: 'Read', input: { file_path: 'notes.txt' } },
        { id: 'g', name: 'Grep', input: { pattern: 'notes' } },
        { id: 'w', name: 'Write', input: { file_path: 'out.txt', content: 'x' } },
        { id: 'b', name: 'Bash', input: { command: 'echo hi' } },
        { id: 'u', name: 'Nope', input: {} },
      ]),
    );
    const out: CliWriter = { write: () => {} };
    const io = { stdin: process.stdin, stdout: out, cwd: ws, logger: nullLogger, signal: new AbortController().signal };
    const args = { workspace: ws, tools: [], approve: 'allow' as const, artifacts: path.join(root, 'cli-artifacts'), json: true, stream: false, calls: callsFile };
    for (let i = 0; i < 10; i++) assert.equal(await runBatch(args, io), 0);
    await quiet();
    const before = { heap: settledHeap(), resources: resources(), children: children() };
    for (let i = 0; i < CLI_BATCHES; i++) assert.equal(await runBatch(args, io), 0);
    await quiet();
    const afterRun = { heap: settledHeap(), resources: resources(), children: children() };
    const growth = afterRun.heap - before.heap;
    measured.push(`- ${CLI_BATCHES} batches through the CLI's \`runBatch\` (settings, artifacts, session record, workspace snapshots; Read, Grep, Write, Bash, an unknown tool): heap after GC ${mb(before.heap)} → ${mb(afterRun.heap)} (${growth >= 0 ? '+' : ''}${mb(growth)}); active resources before ${JSON.stringify(before.resources)}, after ${JSON.stringify(afterRun.resources)}; child processes left: ${afterRun.children.length}.`);
    assert.deepEqual(afterRun.resources, before.resources, 'no timer or handle left behind');
    assert.deepEqual(afterRun.children, [], 'no child process left');
    assert.ok(growth < MAX_HEAP_GROWTH_BYTES, `the heap grew by ${mb(growth)}`);
  });
});

const nullLogger = { debug() {}, info() {}, warn() {}, error() {} };

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}
