// Property tests over random batches (hardening issue): random flags, durations, failures, hangs past
// their timeout, cancels at random moments and outputs with planted secrets, checked against what must
// always hold: one result per call in call order; a serial call never overlaps another; never more than
// N handlers at once; budgets hold; no planted secret in model text, display, artifact, record or log.
// A few hundred cases in the unit run; `npm run test:soak` runs 10,000 (TOOL_EXEC_SOAK=1).
import assert from 'node:assert/strict';
import { setMaxListeners } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import type { ToolContext, ToolDefinition } from '../../../src/executor/contract/contract';
import { MAX_ENVELOPE_BYTES, READ_ONLY_BUDGET_FACTOR } from '../../../src/executor/results/budget';
import { MAX_ERROR_MESSAGE_CHARS } from '../../../src/executor/contract/errors';
import { ModePolicy } from '../../../src/executor/policy/modePolicy';
import { createRedactor } from '../../../src/executor/results/redaction/patternRedactor';
import { utf8Bytes } from '../../../src/executor/format/text';
import { NodeArtifactStore } from '../../../src/node/artifacts/nodeArtifactStore';
import { JsonlSessionRecorder } from '../../../src/node/sessionRecord/jsonlSessionRecorder';
import { makeExecutor } from '../executor/fixtures';
import { PLANTED } from '../executor/results/secrets';
import { readSection, writeSection } from '../../faults/reliabilityDoc';

/** Cases per property: a few hundred in the unit run, 10,000 in the soak. */
export const SOAK = process.env.TOOL_EXEC_SOAK === '1';
export const UNIT_CASES = 300;
export const SOAK_CASES = 10_000;
export const CASES_PER_PROPERTY = SOAK ? SOAK_CASES : UNIT_CASES;
/** The all-serial property runs this share of the cases. */
const SERIAL_SHARE = 3;
/** The budget of the tools here; results over it spill or are cut. */
const BUDGET_RANGE = { min: 200, max: 4000 };
/** A hanging call's own timeout. */
const HANG_TIMEOUT_MS = 15;
const ENV_SECRET = 'env-secret-value-31c9d2';
const SECRETS = [...PLANTED.map((planted) => planted.secret), ENV_SECRET];

type Outcome = 'ok' | 'throw' | 'toolError' | 'hang' | 'big' | 'stream';
interface CallSpec {
  readonly serial: boolean;
  readonly durationMs: number;
  readonly outcome: Outcome;
  readonly secret: number;
  readonly lines: number;
}
interface BatchSpec {
  readonly calls: readonly CallSpec[];
  readonly concurrency: number;
  readonly budget: number;
  readonly strategy: 'artifact' | 'truncate';
  /** Abort the turn after this many ms; undefined: never. */
  readonly cancelAfterMs?: number;
}

const callArb: fc.Arbitrary<CallSpec> = fc.record({
  serial: fc.boolean(),
  durationMs: fc.integer({ min: 0, max: 4 }),
  outcome: fc.constantFrom<Outcome>('ok', 'ok', 'throw', 'toolError', 'hang', 'big', 'stream'),
  secret: fc.nat({ max: SECRETS.length - 1 }),
  lines: fc.integer({ min: 0, max: 400 }),
});
const batchArb: fc.Arbitrary<BatchSpec> = fc.record(
  {
    calls: fc.array(callArb, { minLength: 1, maxLength: 14 }),
    concurrency: fc.integer({ min: 1, max: 4 }),
    budget: fc.integer(BUDGET_RANGE),
    strategy: fc.constantFrom<'artifact' | 'truncate'>('artifact', 'truncate'),
    cancelAfterMs: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
  },
  { requiredKeys: ['calls', 'concurrency', 'budget', 'strategy'] },
);

function planted(index: number): string {
  const secret = SECRETS[index]!;
  const entry = PLANTED.find((item) => item.secret === secret);
  if (!entry) return `export MY_API_TOKEN=${secret}`;
  return entry.text === 'https://deploy:' ? `${entry.text}${secret}@example.com/x` : `${entry.text}${secret}`;
}

function text(spec: CallSpec): string {
  const lines = Array.from({ length: spec.lines }, (_, index) => (index % 37 === 5 ? planted((spec.secret + index) % SECRETS.length) : `line ${index} of output`));
  return `${lines.join('\n')}\n${planted(spec.secret)}`;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

interface Observed {
  running: number;
  maxRunning: number;
  serialRunning: number;
  overlaps: string[];
}

function tools(spec: BatchSpec, observed: Observed): ToolDefinition[] {
  const handler = (serial: boolean) => async (input: { i: number }, ctx: ToolContext) => {
    const call = spec.calls[input.i]!;
    observed.running++;
    if (serial) observed.serialRunning++;
    observed.maxRunning = Math.max(observed.maxRunning, observed.running);
    if (observed.serialRunning > 0 && observed.running > 1) observed.overlaps.push(ctx.callId);
    try {
      await sleep(call.durationMs, ctx.signal);
      switch (call.outcome) {
        case 'throw':
          throw new Error(`failed talking to ${planted(call.secret)}`);
        case 'toolError':
          return { content: `bad: ${planted(call.secret)}`, isError: true };
        case 'hang':
          // A loaded machine can fire the timeout during the sleep above: the abort event is then already past.
          if (!ctx.signal.aborted) await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
          return { content: 'ended by its signal' };
        case 'big':
          return { content: text({ ...call, lines: call.lines * 20 }) };
        case 'stream': {
          const stream = ctx.openOutputStream({ display: 'bash_output' });
          const bytes = Buffer.from(text(call));
          for (let at = 0; at < bytes.length; at += 997) await stream.write(bytes.subarray(at, at + 997));
          return { content: `exit 0 ${planted(call.secret)}` };
        }
        default:
          return { content: text(call) };
      }
    } finally {
      observed.running--;
      if (serial) observed.serialRunning--;
    }
  };
  const common = {
    inputSchema: z.object({ i: z.number() }),
    timeout: { defaultMs: HANG_TIMEOUT_MS + 200 },
    resultBudget: { maxModelBytes: spec.budget, strategy: spec.strategy },
  };
  return [
    { ...common, name: 'Par', description: 'parallel', readOnly: true, concurrentSafe: true, sideEffectScope: 'none', handler: handler(false) },
    { ...common, name: 'Ser', description: 'serial', concurrentSafe: false, sideEffectScope: 'session', handler: handler(true) },
    { ...common, name: 'Hang', description: 'hangs', readOnly: true, concurrentSafe: true, sideEffectScope: 'none', timeout: { defaultMs: HANG_TIMEOUT_MS }, handler: handler(false) },
  ] as ToolDefinition[];
}

function filesUnder(root: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(root)) {
    const full = path.join(root, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full));
    else out.push(full);
  }
  return out;
}

const root = mkdtempSync(path.join(tmpdir(), 'property-'));
after(() => rmSync(root, { recursive: true, force: true }));
let caseNumber = 0;
let casesRun = 0;

async function runBatch(spec: BatchSpec): Promise<void> {
  casesRun++;
  const dir = path.join(root, String(caseNumber++));
  const observed: Observed = { running: 0, maxRunning: 0, serialRunning: 0, overlaps: [] };
  const store = new NodeArtifactStore({ root: path.join(dir, 'store') });
  const recorder = new JsonlSessionRecorder({ dir: path.join(dir, 'sessions'), sessionId: 'property' });
  const { executor, events, logger } = makeExecutor(tools(spec, observed), {
    redactor: createRedactor({ env: { MY_API_TOKEN: ENV_SECRET } }),
    artifactStore: store,
    sessionRecorder: recorder,
    permissionPolicy: new ModePolicy('bypass'),
    maxConcurrency: spec.concurrency,
  });
  const turn = new AbortController();
  // Every call of the batch listens to the turn's signal; 14 of them are no listener leak.
  setMaxListeners(0, turn.signal);
  const cancel = spec.cancelAfterMs === undefined ? undefined : setTimeout(() => turn.abort(), spec.cancelAfterMs);
  try {
    const calls = spec.calls.map((call, i) => ({ id: `c${i}`, name: call.outcome === 'hang' ? 'Hang' : call.serial ? 'Ser' : 'Par', input: { i } }));
    const results = await executor.executeBatch(calls, { signal: turn.signal });
    await recorder.flush();
    // 1. One result per call, in call order.
    assert.deepEqual(results.map((result) => result.callId), calls.map((call) => call.id));
    // 2. Never more than N handlers at once; 3. a serial call never overlaps another.
    assert.ok(observed.maxRunning <= spec.concurrency, `${observed.maxRunning} handlers ran at once, limit ${spec.concurrency}`);
    assert.deepEqual(observed.overlaps, [], 'a serial call overlapped another');
    // 4. Budgets hold: the model text is within its budget (3× for read-only successes) plus an envelope.
    for (const result of results) {
      const limit = spec.budget * (result.isError ? 1 : READ_ONLY_BUDGET_FACTOR) + MAX_ENVELOPE_BYTES + MAX_ERROR_MESSAGE_CHARS * 4;
      assert.ok(utf8Bytes(result.modelContent) <= limit, `${result.callId}: ${utf8Bytes(result.modelContent)} bytes, limit ${limit}`);
    }
    // 5. No planted secret anywhere it could leave.
    const surfaces: Record<string, string> = {
      results: JSON.stringify(results),
      events: JSON.stringify(events.filter((event) => event.type !== 'toolCallStarted' && event.type !== 'permissionRequested')),
      logs: JSON.stringify(logger.lines),
    };
    for (const file of filesUnder(dir)) surfaces[file] = readFileSync(file, 'utf8');
    for (const [surface, content] of Object.entries(surfaces)) {
      for (const secret of SECRETS) assert.ok(!content.includes(secret), `${surface} holds ${secret.slice(0, 10)}…`);
    }
  } finally {
    clearTimeout(cancel);
    await executor.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('random batches (property)', () => {
  it(`one result per call in order, ≤ N at once, serial alone, budgets, no secret anywhere (${CASES_PER_PROPERTY} batches)`, async () => {
    await fc.assert(fc.asyncProperty(batchArb, runBatch), { numRuns: CASES_PER_PROPERTY });
  });

  it('an all-serial batch never overlaps, whatever the concurrency', async () => {
    const serialBatch = batchArb.map((spec) => ({ ...spec, calls: spec.calls.map((call) => ({ ...call, serial: true, outcome: call.outcome === 'hang' ? ('ok' as const) : call.outcome })) }));
    await fc.assert(fc.asyncProperty(serialBatch, runBatch), { numRuns: Math.ceil(CASES_PER_PROPERTY / SERIAL_SHARE) });
  });

  it('RELIABILITY.md states the cases as this suite runs them (UPDATE_RELIABILITY=1 rewrites it)', () => {
    const cases = (per: number) => per + Math.ceil(per / SERIAL_SHARE);
    const section = [
      'Random batches (`test/unit/property/batches.test.ts`, fast-check): up to 14 calls, serial or parallel, 0–4 ms handlers that',
      'succeed, throw, report an error, hang past their timeout, return large or streamed output, each with planted secrets;',
      'concurrency 1–4, budgets 200–4000 bytes, artifact or truncate, and a cancel at a random moment. Checked for every batch:',
      'one result per call in call order, never more than N handlers at once, a serial call never overlaps another, model text',
      'within its budget plus the envelope, and no planted secret in results, events, logs, artifact files or the session record.',
      '',
      `Cases: ${cases(UNIT_CASES)} random batches in every unit run (${UNIT_CASES} mixed + ${Math.ceil(UNIT_CASES / SERIAL_SHARE)} all-serial); ` +
        `${cases(SOAK_CASES)} in \`npm run test:soak\` (${SOAK_CASES} mixed + ${Math.ceil(SOAK_CASES / SERIAL_SHARE)} all-serial).`,
    ].join('\n');
    if (process.env.UPDATE_RELIABILITY === '1') writeSection('properties', section);
    assert.equal(readSection('properties'), section);
  });

  after(() => {
    // What a soak actually checked, from the run itself.
    if (SOAK) writeSection('soak', `Last soak: ${casesRun} random batches checked, all properties held (${new Date().toISOString().slice(0, 10)}).`);
  });
});
