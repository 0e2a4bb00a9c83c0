import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { ToolContext } from '../../../../src/executor/contract/contract';
import { ModePolicy } from '../../../../src/executor/policy/modePolicy';
import { createNodeSnapshotter } from '../../../../src/node/snapshot/nodeSnapshotter';
import { makeExecutor, tool } from '../fixtures';

const roots: string[] = [];
const snapshotter = createNodeSnapshotter();
after(async () => {
  await snapshotter.dispose();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function setup(tools: Parameters<typeof makeExecutor>[0]) {
  const root = mkdtempSync(path.join(tmpdir(), 'stage-snap-'));
  roots.push(root);
  return { root, ...makeExecutor(tools, { workspaceFolders: [root], snapshotter, permissionPolicy: new ModePolicy('bypass') }) };
}

const writer = (name: string, extra: Record<string, unknown> = {}) =>
  tool(name, {
    readOnly: false,
    sideEffectScope: 'workspace',
    handler: (_input: unknown, ctx: ToolContext) => {
      execFileSync('sh', ['-c', 'mkdir -p a/b/c/d/e/f && printf 1234567 > a/b/c/d/e/f/g.txt && printf hi > top.txt'], { cwd: ctx.workDir });
      return { content: 'ok' };
    },
    ...extra,
  });

describe('snapshot stages (before and after)', () => {
  it('appends the changes of a non-read-only call, 7 levels deep included', async () => {
    const { executor } = setup([writer('Writer')]);
    const result = await executor.execute({ id: '1', name: 'Writer', input: {} });
    assert.equal(result.modelContent, 'ok\n\n[Workspace Changes]\n+ a/b/c/d/e/f/g.txt (created, 7 B)\n+ top.txt (created, 2 B)');
    assert.equal(result.changes.length, 2);
  });

  it('takes no snapshot for a read-only call', async () => {
    const { executor } = setup([writer('Reader', { readOnly: true, sideEffectScope: 'none' })]);
    const result = await executor.execute({ id: '1', name: 'Reader', input: {} });
    assert.equal(result.modelContent, 'ok');
    assert.deepEqual(result.changes, []);
  });

  it('reports changes after a crash, a timeout and a cancel', async () => {
    const crash = tool('Crash', {
      readOnly: false,
      handler: (_input: unknown, ctx: ToolContext) => {
        writeFileSync(path.join(ctx.workDir, 'half.txt'), 'half');
        throw new Error('died');
      },
    });
    // The cancel comes once the handler has written its file (not after a fixed delay, which a busy
    // machine can outlast before the handler even starts: then nothing was written to report).
    let started!: () => void;
    const cancelledStarted = new Promise<void>((resolve) => (started = resolve));
    const slow = (name: string, onStart?: () => void) =>
      tool(name, {
        readOnly: false,
        timeout: { defaultMs: 50 },
        handler: (_input: unknown, ctx: ToolContext) => {
          writeFileSync(path.join(ctx.workDir, `${name}.txt`), name);
          onStart?.();
          return new Promise(() => undefined);
        },
      });
    const { executor } = setup([crash, slow('Slow'), slow('Cancelled', () => started())]);
    const crashed = await executor.execute({ id: '1', name: 'Crash', input: {} });
    assert.equal(crashed.modelContent, 'tool Crash crashed: died\n\n[Workspace Changes]\n+ half.txt (created, 4 B)');
    const timedOut = await executor.execute({ id: '2', name: 'Slow', input: {} });
    assert.equal(timedOut.errorKind, 'timeout');
    assert.match(timedOut.modelContent, /\[Workspace Changes\]\n\+ Slow\.txt \(created, 4 B\)$/);
    const controller = new AbortController();
    const pending = executor.execute({ id: '3', name: 'Cancelled', input: {} }, { signal: controller.signal });
    void cancelledStarted.then(() => controller.abort());
    const cancelled = await pending;
    assert.equal(cancelled.errorKind, 'cancelled');
    assert.match(cancelled.modelContent, /\[Workspace Changes\]\n\+ Cancelled\.txt \(created, 9 B\)$/);
  });

  it('makes changed files the read-before-write baseline and forgets deleted ones', async () => {
    const { executor, root } = setup([
      writer('Writer'),
      tool('Remover', {
        readOnly: false,
        handler: (_input: unknown, ctx: ToolContext) => {
          rmSync(path.join(ctx.workDir, 'top.txt'));
          return { content: 'removed' };
        },
      }),
    ]);
    await executor.execute({ id: '1', name: 'Writer', input: {} });
    const deep = path.join(root, 'a/b/c/d/e/f/g.txt');
    const stat = statSync(deep);
    assert.deepEqual(executor.files.get(deep), { mtimeMs: stat.mtimeMs, size: 7 });
    assert.ok(executor.files.get(path.join(root, 'top.txt')));
    await executor.execute({ id: '2', name: 'Remover', input: {} });
    assert.equal(executor.files.get(path.join(root, 'top.txt')), undefined);
  });
});
