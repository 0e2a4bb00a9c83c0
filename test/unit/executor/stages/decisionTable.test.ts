// Decision table over mode × rule × PreToolUse decision × alwaysAsk × sensitive path, through the
// whole pipeline (stages 4–6), against an oracle written from the spec and the policy issue.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ToolDefinition } from '../../../../src/executor/contract/contract';
import type { ApprovalAnswer, ApprovalClient } from '../../../../src/executor/ports/approvalClient';
import { PERMISSION_MODES, type PermissionMode } from '../../../../src/executor/policy/modes';
import { RulesPolicy } from '../../../../src/executor/policy/rulesPolicy';
import { makeExecutor } from '../fixtures';
import { WriteTool, makeSandbox, type Sandbox } from '../policy/policyFixtures';

type Rule = 'none' | 'allow' | 'ask' | 'deny';
type HookDecision = 'none' | 'allow' | 'ask' | 'deny';
type Expected = 'run' | 'asked-then-run' | 'denied';

const RULES: readonly Rule[] = ['none', 'allow', 'ask', 'deny'];
const HOOK_DECISIONS: readonly HookDecision[] = ['none', 'allow', 'ask', 'deny'];

/** The oracle: what must happen to a Write of a file inside the workspace. */
function expected(mode: PermissionMode, rule: Rule, hook: HookDecision, alwaysAsk: boolean, sensitive: boolean): Expected {
  if (hook === 'deny') return 'denied';
  let base: 'allow' | 'ask' | 'deny';
  let forced = false;
  if (rule === 'deny' || mode === 'plan') base = 'deny';
  else if (sensitive) [base, forced] = ['ask', true];
  else if (rule === 'ask' && mode !== 'bypass') base = 'ask';
  else if (mode === 'bypass' || rule === 'allow' || mode === 'acceptEdits') base = 'allow';
  else base = 'ask';
  if (alwaysAsk && base !== 'deny') [base, forced] = ['ask', true];
  if (hook === 'allow' && base === 'ask' && !forced) base = 'allow';
  if (hook === 'ask' && base === 'allow') base = 'ask';
  return base === 'deny' ? 'denied' : base === 'ask' ? 'asked-then-run' : 'run';
}

class CountingClient implements ApprovalClient {
  calls = 0;
  requestApproval(): Promise<ApprovalAnswer> {
    this.calls += 1;
    return Promise.resolve({ kind: 'allowOnce' });
  }
}

describe('permission decision table: mode × rule × hook × alwaysAsk × sensitive', () => {
  let box: Sandbox;
  before(() => {
    box = makeSandbox();
  });
  after(() => box.dispose());

  it('every combination behaves as the spec says, and its span says who decided', async () => {
    let checked = 0;
    for (const mode of PERMISSION_MODES) {
      for (const rule of RULES) {
        for (const hook of HOOK_DECISIONS) {
          for (const alwaysAsk of [false, true]) {
            for (const sensitive of [false, true]) {
              const label = `mode=${mode} rule=${rule} hook=${hook} alwaysAsk=${alwaysAsk} sensitive=${sensitive}`;
              let ran = false;
              const tool: ToolDefinition = {
                ...WriteTool,
                permission: { alwaysAsk },
                handler: () => {
                  ran = true;
                  return { content: 'written' };
                },
              };
              const policy = new RulesPolicy({ mode, user: rule === 'none' ? {} : { [rule]: ['Write'] } });
              const client = new CountingClient();
              const { executor, telemetry } = makeExecutor([tool], { workspaceFolders: [box.ws], permissionPolicy: policy, approvalClient: client });
              if (hook !== 'none') {
                executor.hooks.register({ name: 'table-hook', event: 'PreToolUse', run: () => ({ decision: hook, reason: `hook says ${hook}` }) });
              }
              const result = await executor.execute({ id: 'c', name: 'Write', input: { path: sensitive ? 'AGENTS.md' : 'notes.md', content: 'x' } });
              const want = expected(mode, rule, hook, alwaysAsk, sensitive);
              const got: Expected = result.isError ? 'denied' : client.calls > 0 ? 'asked-then-run' : 'run';
              assert.equal(got, want, label);
              assert.equal(ran, want !== 'denied', `${label}: handler ran`);
              const span = telemetry.spans[0]!.attributes;
              const outcome = { run: 'none', 'asked-then-run': 'approved', denied: 'denied' }[want];
              assert.equal(span['permission.outcome'], outcome, `${label}: span outcome`);
              if (want === 'denied') {
                assert.equal(result.errorKind, 'permission', label);
                assert.equal(span['permission.by'], hook === 'deny' ? 'hook' : rule === 'deny' ? 'rule' : 'mode', `${label}: span by`);
              }
              if (want === 'asked-then-run') assert.equal(span['permission.by'], 'user', label);
              await executor.dispose();
              checked += 1;
            }
          }
        }
      }
    }
    assert.equal(checked, 4 * 4 * 4 * 2 * 2);
  });
});

describe('the agent-memory rule of stage 5', () => {
  let box: Sandbox;
  before(() => {
    box = makeSandbox();
  });
  after(() => box.dispose());

  it('asks before writing AGENTS.md even under a policy that allows everything, and a hook cannot remove it', async () => {
    const allowAll = { evaluate: () => ({ behavior: 'allow' as const, by: 'rule' as const, reason: 'allow all' }) };
    const client = new CountingClient();
    const { executor } = makeExecutor([WriteTool], { workspaceFolders: [box.ws], permissionPolicy: allowAll, approvalClient: client });
    executor.hooks.register({ name: 'yes', event: 'PreToolUse', run: () => ({ decision: 'allow' }) });
    const memory = await executor.execute({ id: 'a', name: 'Write', input: { path: 'docs/../AGENTS.md', content: 'x' } });
    assert.equal(memory.isError, false);
    assert.equal(client.calls, 1);
    await executor.execute({ id: 'b', name: 'Write', input: { path: 'notes.md', content: 'x' } });
    assert.equal(client.calls, 1, 'an ordinary file is not asked about');
  });
});

describe('a failing policy', () => {
  it('asks (forced, no session option) and logs; it never allows or crashes the call', async () => {
    const broken = { evaluate: () => Promise.reject(new Error('rules file vanished')) };
    const requests: string[] = [];
    const { executor, logger } = makeExecutor([WriteTool], {
      permissionPolicy: broken,
      approvalClient: { requestApproval: (request) => (requests.push(request.reason), Promise.resolve({ kind: 'deny' })) },
    });
    const result = await executor.execute({ id: 'c', name: 'Write', input: { path: 'x', content: '' } });
    assert.equal(result.errorKind, 'permission');
    assert.match(requests[0]!, /the permission policy failed \(rules file vanished\)/);
    assert.ok(logger.messages().includes('tool.permission.policy_failed'));
  });
});

