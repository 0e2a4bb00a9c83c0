// Fault catalogue, class 9: A path changes between its check and its open. Each entry runs the real
// tools through the real executor (acceptEdits mode, no one to approve) under a policy that makes the
// swap a process in the workspace would make, right after the real policy judged the path: the worst
// moment, every time. The swapper loop itself races 1,000 calls in test/unit/tools/symlinkRace.test.ts.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ToolExecutor } from '../../../src/executor/executor';
import { RulesPolicy } from '../../../src/executor/policy/rulesPolicy';
import type { PermissionDecision, PermissionPolicy, PermissionRequest } from '../../../src/executor/ports/permissionPolicy';
import type { ToolCallResult } from '../../../src/executor/contract/result';
import { ProcessSupervisor, registerBuiltinTools } from '../../../src/tools/index';
import { core, PLAIN_SECRET } from '../define';

const CHANGED = /changed between its permission check and its open/;

/** The real policy's decision, then `swap` (once): what a swapper loop hits by chance. */
class SwapAfterJudging implements PermissionPolicy {
  private readonly inner = new RulesPolicy({ mode: 'acceptEdits' });
  constructor(private swap: (() => void) | undefined) {}
  get mode(): string {
    return this.inner.mode;
  }
  async evaluate(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision> {
    const decision = await this.inner.evaluate(request, signal);
    const swap = this.swap;
    this.swap = undefined;
    swap?.();
    return decision;
  }
}

/** ws/ with a.txt and .env (holding `PLAIN_SECRET`), outside/ with target.txt beside it. */
async function swapped(name: string, input: unknown, swap: (ws: string, outside: string) => void, check: (result: ToolCallResult, ws: string, outside: string) => void, before?: (run: (name: string, input: unknown) => Promise<ToolCallResult>) => Promise<void>): Promise<void> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fault-race-')));
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  fs.mkdirSync(path.join(ws, 'sub'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
  fs.writeFileSync(path.join(ws, '.env'), `DB_PASSWORD=${PLAIN_SECRET}\n`);
  fs.writeFileSync(path.join(outside, 'target.txt'), 'outside\n');
  const policy = new SwapAfterJudging(undefined);
  const executor = new ToolExecutor({ workspaceFolders: [ws], permissionPolicy: policy });
  const supervisor = new ProcessSupervisor();
  registerBuiltinTools(executor.registry, { backgroundTasks: executor, supervisor });
  let counter = 0;
  const run = (tool: string, toolInput: unknown) => executor.execute({ id: `race_${++counter}`, name: tool, input: toolInput });
  try {
    await before?.(run);
    (policy as unknown as { swap: () => void }).swap = () => swap(ws, outside);
    const result = await run(name, input);
    assert.ok(!result.modelContent.includes(PLAIN_SECRET), result.modelContent);
    check(result, ws, outside);
  } finally {
    await executor.dispose();
    await supervisor.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const refused = (result: ToolCallResult) => {
  assert.equal(result.isError, true, result.modelContent);
  assert.match(result.modelContent, CHANGED);
};
const outsideUntouched = (outside: string) => {
  assert.deepEqual(fs.readdirSync(outside), ['target.txt']);
  assert.equal(fs.readFileSync(path.join(outside, 'target.txt'), 'utf8'), 'outside\n');
};

// ── 9. A path changes between its check and its open ────────────────────────────────────────────────
core('race-read-missing-becomes-link', 9, 'Read of a name judged missing, made a link to .env before the open', 'refused as changed; the secret is not read', () =>
  swapped('Read', { path: 'r' }, (ws) => fs.symlinkSync(path.join(ws, '.env'), path.join(ws, 'r')), (result) => refused(result)),
);
core('race-read-file-becomes-link', 9, 'Read of a workspace file replaced by a link to .env before the open', 'refused as changed; the secret is not read', () =>
  swapped('Read', { path: 'a.txt' }, (ws) => {
    fs.rmSync(path.join(ws, 'a.txt'));
    fs.symlinkSync(path.join(ws, '.env'), path.join(ws, 'a.txt'));
  }, (result) => refused(result)),
);
core('race-write-dangling-link', 9, 'Write of a new workspace file whose name becomes a dangling link out of the workspace', 'refused as changed; nothing created outside', () =>
  swapped('Write', { path: 'w', content: 'x' }, (ws, outside) => fs.symlinkSync(path.join(outside, 'RACED'), path.join(ws, 'w')), (result, _ws, outside) => {
    refused(result);
    outsideUntouched(outside);
  }),
);
core('race-write-folder-becomes-link', 9, 'Write into a workspace folder replaced by a link out of the workspace', 'refused as changed; nothing created outside', () =>
  swapped('Write', { path: 'sub/new/deeper.txt', content: 'x' }, (ws, outside) => {
    fs.rmSync(path.join(ws, 'sub'), { recursive: true });
    fs.symlinkSync(outside, path.join(ws, 'sub'));
  }, (result, _ws, outside) => {
    refused(result);
    outsideUntouched(outside);
  }),
);
core('race-edit-file-becomes-link', 9, 'Edit of a file read before, replaced by a link to a file outside', 'refused as changed; the outside file is unchanged', () =>
  swapped('Edit', { path: 'a.txt', old_string: 'alpha', new_string: 'beta' }, (ws, outside) => {
    fs.rmSync(path.join(ws, 'a.txt'));
    fs.symlinkSync(path.join(outside, 'target.txt'), path.join(ws, 'a.txt'));
  }, (result, _ws, outside) => {
    refused(result);
    outsideUntouched(outside);
  }, async (run) => assert.equal((await run('Read', { path: 'a.txt' })).isError, false)),
);
core('race-grep-file-becomes-link', 9, 'Grep of one workspace file replaced by a link to .env before ripgrep starts', 'refused as changed; the secret is not searched', () =>
  swapped('Grep', { pattern: 'DB_PASSWORD', path: 'a.txt', output_mode: 'content' }, (ws) => {
    fs.rmSync(path.join(ws, 'a.txt'));
    fs.symlinkSync(path.join(ws, '.env'), path.join(ws, 'a.txt'));
  }, (result) => refused(result)),
);
