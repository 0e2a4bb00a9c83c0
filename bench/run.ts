// Benchmarks, reported as ratios measured side by side in one run (these machines are noisy).
// Usage: npm run bench
import { z } from 'zod';
import { applyBudget } from '../src/executor/budget';
import { ToolExecutor } from '../src/executor/executor';
import type { ToolCall, ToolDefinition } from '../src/executor/contract';

const ROUNDS = 5;

interface Row {
  readonly name: string;
  readonly baseline: string;
  readonly candidate: string;
  readonly ratio: number;
  readonly note: string;
}

/** Median of `ROUNDS` timings of `fn`, in ms. */
async function median(fn: () => Promise<unknown> | unknown): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

function noopTool(name: string, handler: ToolDefinition['handler']): ToolDefinition {
  return { name, description: name, inputSchema: z.object({}), readOnly: true, concurrentSafe: true, sideEffectScope: 'none', handler };
}

async function pipelineOverhead(): Promise<Row> {
  const CALLS = 10_000;
  const handler = () => ({ content: 'ok' });
  const executor = new ToolExecutor({ workspaceFolders: [process.cwd()] });
  executor.registry.register(noopTool('noop', handler));
  const calls: ToolCall[] = Array.from({ length: CALLS }, (_, i) => ({ id: `c${i}`, name: 'noop', input: {} }));
  const direct = await median(async () => {
    for (const _call of calls) await handler();
  });
  const piped = await median(() => executor.executeBatch(calls));
  return {
    name: `${CALLS} no-op calls`,
    baseline: `direct handler ${direct.toFixed(1)} ms`,
    candidate: `executeBatch ${piped.toFixed(1)} ms (${((piped * 1000) / CALLS).toFixed(1)} µs/call)`,
    ratio: piped / direct,
    note: 'pipeline cost per call: lookup, validation, hooks, permission, deadline, budget, events',
  };
}

async function groupConcurrency(): Promise<Row> {
  const CALLS = 40;
  const WAIT_MS = 10;
  const executor = new ToolExecutor({ workspaceFolders: [process.cwd()] });
  executor.registry.register(noopTool('wait', () => new Promise((resolve) => setTimeout(() => resolve({ content: 'ok' }), WAIT_MS))));
  const calls: ToolCall[] = Array.from({ length: CALLS }, (_, i) => ({ id: `w${i}`, name: 'wait', input: {} }));
  const serial = await median(() => executor.executeBatch(calls, { maxConcurrency: 1 }));
  const five = await median(() => executor.executeBatch(calls, { maxConcurrency: 5 }));
  return {
    name: `${CALLS} I/O-bound calls (${WAIT_MS} ms each)`,
    baseline: `1 at once ${serial.toFixed(0)} ms`,
    candidate: `5 at once ${five.toFixed(0)} ms`,
    ratio: five / serial,
    note: 'groups of 10, at most 5 handlers at once: expect about 1/5',
  };
}

async function budgetScaling(): Promise<Row> {
  const line = 'line of a long build log with some text in it\n';
  const small = line.repeat(20_000);
  const large = line.repeat(200_000);
  const budget = { maxModelBytes: 400, strategy: 'truncate' as const };
  const one = await median(() => applyBudget({ toolName: 't', text: small, budget, readOnlySuccess: false }));
  const ten = await median(() => applyBudget({ toolName: 't', text: large, budget, readOnlySuccess: false }));
  return {
    name: 'head/tail truncation',
    baseline: `${(small.length / 1e6).toFixed(1)} MB ${one.toFixed(2)} ms`,
    candidate: `${(large.length / 1e6).toFixed(1)} MB ${ten.toFixed(2)} ms`,
    ratio: ten / one,
    note: '10× the text: linear would be 10',
  };
}

async function main(): Promise<void> {
  const rows = [await pipelineOverhead(), await groupConcurrency(), await budgetScaling()];
  for (const row of rows) {
    process.stdout.write(`${row.name}\n  baseline:  ${row.baseline}\n  candidate: ${row.candidate}\n  ratio:     ${row.ratio.toFixed(2)}  (${row.note})\n`);
  }
}

void main();
