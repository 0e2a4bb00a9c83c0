// Command hooks as real shell scripts in Claude Code's format, run through the executor.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import type { ToolDefinition } from '../../../src/executor/contract/contract';
import type { ApprovalAnswer, ApprovalClient } from '../../../src/executor/ports/approvalClient';
import { commandHookSource } from '../../../src/node/hooks/commandHooks';
import { deferred, makeExecutor, RecordingLogger } from '../executor/fixtures';

/** Alive and not a zombie. */
function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits for a condition the test cannot get an event for (a file written by a hook, a process gone). */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`gave up waiting: ${what}`);
}

const Bash: ToolDefinition = {
  name: 'Bash',
  description: 'runs',
  inputSchema: z.object({ command: z.string() }),
  sideEffectScope: 'external',
  handler: (input: { command: string }) => ({ content: `ran ${input.command}` }),
};

describe('command hooks (Claude Code format) through the executor', () => {
  let dir: string;
  const script = (name: string, body: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  };
  const setup = (hooks: unknown, approvalClient?: ApprovalClient) => {
    const logger = new RecordingLogger();
    const made = makeExecutor([Bash], { workspaceFolders: [dir], hooks: commandHookSource(hooks, logger), approvalClient, logger });
    return { ...made, logger };
  };
  const pre = (command: string, matcher = 'Bash', timeout?: number) => ({ PreToolUse: [{ matcher, hooks: [{ type: 'command', command, timeout }] }] });

  before(() => {
    dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hooks-')));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('exit 2 blocks, with stderr as the reason for the model', async () => {
    const hook = script('block.sh', 'cat > /dev/null\necho "rm is not allowed here" >&2\nexit 2');
    const { executor } = setup(pre(hook));
    const result = await executor.execute({ id: 'c', name: 'Bash', input: { command: 'rm -rf build' } });
    assert.equal(result.modelContent, 'PreToolUse hook denied this Bash call: rm is not allowed here');
    assert.equal(result.permission.by, 'hook');
  });

  it('JSON permissionDecision allow removes the ask; additionalContext reaches the model', async () => {
    const hook = script('allow.sh', `cat > /dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"safe","additionalContext":"lint first"}}'`);
    const { executor } = setup(pre(hook));
    const result = await executor.execute({ id: 'c', name: 'Bash', input: { command: 'ls' } });
    assert.equal(result.isError, false, result.modelContent);
    assert.equal(result.modelContent, 'ran ls\n\n[Hook additional context]\n1. lint first');
    assert.deepEqual(result.permission, { outcome: 'none', by: 'hook', detail: result.permission.detail });
  });

  it('the hook gets Claude Code\'s JSON on stdin, in the workspace, with CLAUDE_PROJECT_DIR', async () => {
    const out = path.join(dir, 'stdin.json');
    const hook = script('record.sh', `cat > "${out}"\npwd > "${out}.cwd"\necho "$CLAUDE_PROJECT_DIR" > "${out}.env"`);
    const { executor } = setup(pre(hook), { requestApproval: () => Promise.resolve({ kind: 'allowOnce' }) });
    await executor.execute({ id: 'call-7', name: 'Bash', input: { command: 'echo hi' } });
    const input = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(input.hook_event_name, 'PreToolUse');
    assert.equal(input.tool_name, 'Bash');
    assert.deepEqual(input.tool_input, { command: 'echo hi' });
    assert.equal(input.tool_use_id, 'call-7');
    assert.equal(input.cwd, dir);
    assert.equal(input.permission_mode, 'default');
    assert.equal(readFileSync(`${out}.cwd`, 'utf8').trim(), dir);
    assert.equal(readFileSync(`${out}.env`, 'utf8').trim(), dir);
  });

  it('the matcher selects tools', async () => {
    const hook = script('never.sh', 'echo "should not run" >&2\nexit 2');
    const { executor } = setup(pre(hook, 'Edit|Write'), { requestApproval: () => Promise.resolve({ kind: 'allowOnce' }) });
    const result = await executor.execute({ id: 'c', name: 'Bash', input: { command: 'ls' } });
    assert.equal(result.isError, false);
  });

  it('a crashing hook gives no decision and is logged; never a silent allow', async () => {
    const hook = script('crash.sh', 'echo "boom" >&2\nexit 1');
    const { executor, logger } = setup(pre(hook));
    const result = await executor.execute({ id: 'c', name: 'Bash', input: { command: 'ls' } });
    assert.equal(result.modelContent, 'No permission client configured');
    assert.ok(logger.lines.some((line) => line.message === 'tool.hook.crashed' && String(line.fields?.error).includes('boom')));
  });

  it('a hook that times out gives no decision, is logged, and its whole process group is killed', async () => {
    const pids = path.join(dir, 'pids');
    const hook = script('slow.sh', `sleep 300 &\necho "$$ $!" > "${pids}"\nwait`);
    const { executor, logger } = setup(pre(hook, 'Bash', 0.3));
    const result = await executor.execute({ id: 'c', name: 'Bash', input: { command: 'ls' } });
    assert.equal(result.modelContent, 'No permission client configured');
    assert.ok(logger.messages().includes('tool.hook.timeout'));
    const [shell, child] = readFileSync(pids, 'utf8').trim().split(' ').map(Number);
    await until(() => !isAlive(shell!) && !isAlive(child!), 'the hook and its child are killed');
  });

  it('a PermissionRequest hook that loses the race to the user is killed', async () => {
    const pidFile = path.join(dir, 'perm.pid');
    const hook = script('perm.sh', `echo $$ > "${pidFile}"\nexec sleep 300`);
    const answer = deferred<ApprovalAnswer>();
    const { executor } = setup({ PermissionRequest: [{ matcher: '*', hooks: [{ type: 'command', command: hook }] }] }, { requestApproval: () => answer.promise });
    const running = executor.execute({ id: 'c', name: 'Bash', input: { command: 'make' } });
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the hook started');
    answer.resolve({ kind: 'allowOnce' });
    const result = await running;
    assert.deepEqual(result.permission, { outcome: 'approved', by: 'user' });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await until(() => !isAlive(pid), 'the losing hook is killed');
  });

  it('PostToolUse and PostToolUseFailure hooks add context; an early denial keeps the PreToolUse context', async () => {
    const post = script('post.sh', `cat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"tests still pass"}}'`);
    const context = script('ctx-deny.sh', `cat > /dev/null\necho '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no","additionalContext":"try make instead"}}'`);
    const allow = { requestApproval: () => Promise.resolve({ kind: 'allowOnce' as const }) };
    const ran = setup({ PostToolUse: [{ hooks: [{ type: 'command', command: post }] }] }, allow);
    const ok = await ran.executor.execute({ id: 'a', name: 'Bash', input: { command: 'ls' } });
    assert.equal(ok.modelContent, 'ran ls\n\n[Hook additional context]\n1. tests still pass');
    const denied = setup(pre(context), allow);
    const early = await denied.executor.execute({ id: 'b', name: 'Bash', input: { command: 'ls' } });
    assert.equal(early.modelContent, 'PreToolUse hook denied this Bash call: no\n\n[Hook additional context]\n1. try make instead');
  });
  it('a cancelled call runs PostToolUseFailure hooks with is_interrupt', async () => {
    const out = path.join(dir, 'failure.json');
    const hook = script('failure.sh', `cat > "${out}"`);
    const started = deferred();
    const slow: ToolDefinition = {
      ...Bash,
      name: 'Slow',
      readOnly: true,
      sideEffectScope: 'none',
      handler: (_input: unknown, ctx) =>
        new Promise((_resolve, reject) => {
          started.resolve();
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
        }),
    };
    const logger = new RecordingLogger();
    const { executor } = makeExecutor([slow], { workspaceFolders: [dir], logger, hooks: commandHookSource({ PostToolUseFailure: [{ matcher: 'Slow', hooks: [{ type: 'command', command: hook }] }] }, logger) });
    const turn = new AbortController();
    const running = executor.execute({ id: 'c', name: 'Slow', input: { command: 'x' } }, { signal: turn.signal });
    await started.promise;
    turn.abort();
    const result = await running;
    assert.equal(result.errorKind, 'cancelled');
    const input = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual([input.hook_event_name, input.tool_name, input.is_interrupt], ['PostToolUseFailure', 'Slow', true]);
  });
});

