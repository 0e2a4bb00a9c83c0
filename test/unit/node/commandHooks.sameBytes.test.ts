// "What you approve is what runs": the rules, a real command hook, the approval request and its
// preview, and the handler all see the same normalised bytes; the preview shows invisible characters
// escaped.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import type { ToolDefinition } from '../../../src/executor/contract/contract';
import { escapeForDisplay } from '../../../src/executor/format/displayEscape';
import type { ApprovalRequest } from '../../../src/executor/ports/approvalClient';
import type { PermissionRequest } from '../../../src/executor/ports/permissionPolicy';
import { RulesPolicy } from '../../../src/executor/policy/rulesPolicy';
import { commandHookSource } from '../../../src/node/hooks/commandHooks';
import { makeExecutor, RecordingLogger } from '../executor/fixtures';

describe('the same bytes everywhere', () => {
  let dir: string;
  before(() => {
    dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'bytes-')));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('policy, command hook, approval and handler see the resolved command byte for byte', async () => {
    // ANSI colour, a bidi override, a NUL-free control char, CRLF that resolveInput normalises.
    const raw = '  echo "\u001b[31mred\u001b[0m" \u202Eevil\u202C && printf "a\\tb\u0007"\r\n';
    const normalised = raw.trim().replace(/\r\n/g, '\n');
    const seen: Record<string, string> = {};
    const tool: ToolDefinition = {
      name: 'Bash',
      description: 'runs',
      inputSchema: z.object({ command: z.string() }),
      sideEffectScope: 'external',
      resolveInput: (input: { command: string }) => ({ command: input.command.trim().replace(/\r\n/g, '\n') }),
      handler: (input: { command: string }) => {
        seen.handler = input.command;
        return { content: 'ok' };
      },
    };
    const policy = new RulesPolicy();
    const evaluate = policy.evaluate.bind(policy);
    policy.evaluate = (request: PermissionRequest, signal: AbortSignal) => {
      seen.policy = (request.input as { command: string }).command;
      return evaluate(request, signal);
    };
    const hookOut = path.join(dir, 'hook-stdin.json');
    const hook = path.join(dir, 'record.sh');
    writeFileSync(hook, `#!/bin/sh\ncat > "${hookOut}"\n`);
    chmodSync(hook, 0o755);
    let approval: ApprovalRequest | undefined;
    const { executor, events } = makeExecutor([tool], {
      workspaceFolders: [dir],
      permissionPolicy: policy,
      hooks: commandHookSource({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] }, new RecordingLogger()),
      approvalClient: {
        requestApproval: (request) => {
          approval = request;
          return Promise.resolve({ kind: 'allowOnce' });
        },
      },
    });
    const result = await executor.execute({ id: 'c', name: 'Bash', input: { command: raw } });
    assert.equal(result.isError, false, result.modelContent);
    seen.hook = JSON.parse(readFileSync(hookOut, 'utf8')).tool_input.command;
    seen.approval = (approval!.input as { command: string }).command;
    const requested = events.find((event) => event.type === 'permissionRequested');
    seen.event = requested?.type === 'permissionRequested' ? (requested.input as { command: string }).command : '';
    const expected = Buffer.from(normalised, 'utf8');
    for (const where of ['policy', 'hook', 'approval', 'event', 'handler']) {
      assert.ok(seen[where] !== undefined, `${where} saw the command`);
      assert.ok(Buffer.from(seen[where]!, 'utf8').equals(expected), `${where} saw different bytes: ${JSON.stringify(seen[where])}`);
    }
    const preview = approval!.preview!.detail;
    assert.equal(preview, escapeForDisplay(normalised));
    assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e]/.test(preview), 'no raw control, ANSI or bidi character in the preview');
    assert.match(preview, /\\e\[31mred\\e\[0m/);
    assert.match(preview, /\\u202e/);
    assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e]/.test(approval!.reason), 'the reason quoting the command is escaped too');
  });
});
