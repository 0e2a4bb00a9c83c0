import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { ToolContext, ToolDefinition } from '../../../../src/executor/contract/contract';
import { ModePolicy } from '../../../../src/executor/policy/modePolicy';
import { buildFileDiffDisplay } from '../../../../src/executor/results/displays/fileDiff';
import { createRedactor } from '../../../../src/executor/results/redaction/patternRedactor';
import { NodeArtifactStore } from '../../../../src/node/artifacts/nodeArtifactStore';
import { JsonlSessionRecorder } from '../../../../src/node/sessionRecord/jsonlSessionRecorder';
import { random } from '../random';
import { makeExecutor, tool } from '../fixtures';
import { PLANTED, pemKey } from '../results/secrets';

const ENV_SECRET = 'env-secret-value-7f3a9c';
const SECRETS = [...PLANTED.map((planted) => planted.secret), ENV_SECRET, pemKey().split('\n')[5]!];

function plant(next: () => number): string {
  const planted = PLANTED[Math.floor(next() * PLANTED.length)]!;
  if (planted.text === 'https://deploy:') return `${planted.text}${planted.secret}@example.com/repo`;
  return next() < 0.1 ? `export X=${ENV_SECRET}` : next() < 0.1 ? pemKey() : `${planted.text}${planted.secret}`;
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

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('redaction stage: no planted secret survives anywhere (property)', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`seed ${seed}: model text, UI text, display, artifact files, session record, hook context, logs, events`, async () => {
      const next = random(seed);
      const root = mkdtempSync(path.join(tmpdir(), 'redact-'));
      roots.push(root);
      const lines = (count: number) => Array.from({ length: count }, (_, i) => (next() < 0.05 ? plant(next) : `plain line ${i}`)).join('\n');
      const budget = 200 + Math.floor(next() * 3000);
      const tools: ToolDefinition[] = [
        tool('Echo', { resultBudget: { maxModelBytes: budget, strategy: 'artifact' }, handler: () => ({ content: lines(Math.floor(next() * 3000)) }) }),
        tool('Stream', {
          resultBudget: { maxModelBytes: budget, strategy: next() < 0.5 ? 'artifact' : 'truncate' },
          handler: async (_input: unknown, ctx: ToolContext) => {
            const stream = ctx.openOutputStream({ display: 'bash_output' });
            const text = Buffer.from(`${lines(4000)}\n${plant(next)}\n${plant(next)}`);
            for (let at = 0; at < text.length; ) {
              const size = 1 + Math.floor(next() * 5000);
              await stream.write(text.subarray(at, at + size));
              at += size;
            }
            return { content: `exit ${plant(next)}` };
          },
        }),
        tool('Crash', {
          handler: () => {
            throw new Error(`connection failed: ${plant(next)}`);
          },
        }),
        tool('Failing', { handler: () => ({ content: `bad: ${plant(next)}`, isError: true }) }),
        tool('Edit', {
          handler: () => ({ content: 'edited', data: { before: lines(30), after: lines(30) } }),
          display: (output) => {
            const data = output.data as { before: string; after: string };
            return buildFileDiffDisplay(`config/${PLANTED[2]!.secret}.env`, data.before, `${data.after}\n${plant(next)}`);
          },
        }),
      ];
      const logger = { lines: [] as unknown[] };
      const store = new NodeArtifactStore({ root: path.join(root, 'store') });
      const recorder = new JsonlSessionRecorder({ dir: path.join(root, 'sessions'), sessionId: 'test-session' });
      const { executor, events, logger: recording } = makeExecutor(tools, {
        redactor: createRedactor({ env: { MY_API_TOKEN: ENV_SECRET } }),
        artifactStore: store,
        sessionRecorder: recorder,
        permissionPolicy: new ModePolicy('bypass'),
      });
      executor.hooks.register({ name: 'ctx', event: 'PostToolUse', run: () => ({ additionalContext: `note ${plant(next)}` }) });
      executor.hooks.register({ name: 'ctx-fail', event: 'PostToolUseFailure', run: () => ({ additionalContext: `why ${plant(next)}` }) });
      executor.hooks.register({
        name: 'crashy',
        event: 'PostToolUse',
        run: () => {
          throw new Error(`hook saw ${plant(next)}`);
        },
      });
      const results = await executor.executeBatch(
        ['Echo', 'Stream', 'Crash', 'Failing', 'Edit', 'Echo', 'Stream'].map((name, i) => ({ id: `c${i}`, name, input: { text: `input ${plant(next)}` } })),
      );
      await recorder.flush();
      logger.lines.push(...recording.lines);
      const surfaces: Record<string, string> = {
        results: JSON.stringify(results),
        events: JSON.stringify(events),
        logs: JSON.stringify(logger.lines),
      };
      for (const file of filesUnder(root)) surfaces[file] = readFileSync(file, 'utf8');
      assert.ok(Object.keys(surfaces).some((name) => name.endsWith('.jsonl')), 'a session record was written');
      for (const [surface, text] of Object.entries(surfaces)) {
        for (const secret of SECRETS) {
          if (surface === 'events' && text.includes(secret)) {
            // Only the approval-facing events may carry the raw input (the user approves what runs).
            const leaking = events.filter((event) => JSON.stringify(event).includes(secret)).map((event) => event.type);
            assert.deepEqual([...new Set(leaking)].filter((type) => type !== 'toolCallStarted' && type !== 'permissionRequested'), [], `events leak ${secret}`);
            continue;
          }
          assert.ok(!text.includes(secret), `${surface} leaks ${secret}`);
        }
      }
      assert.ok(results.some((result) => result.modelContent.includes('[REDACTED:')));
    });
  }
});
