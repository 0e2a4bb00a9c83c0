// Stage 5 (spec §3.5): rules and mode decide; the PreToolUse decision is laid over it (`alwaysAsk`
// stays); then the agent-memory rule: a write to `AGENTS.md` and kin always asks, whatever the policy.
import { decide, type CallState, type ExecutorDeps, type PermissionState, type StageFailure } from '../../callState';
import type { ToolCall } from '../../../contract/contract';
import type { ToolEntry } from '../../../contract/registry';
import { projectErrorMessage } from '../../../contract/errors';
import { agentMemoryWriteTarget } from '../../../policy/rules/memoryRule';
import type { PathJudge } from '../../../policy/path/judgePath';
import type { PermissionDecision } from '../../../ports/permissionPolicy';

export async function permission(state: CallState, deps: ExecutorDeps, own: Pick<PermissionState, 'decision' | 'record'>): Promise<StageFailure | undefined> {
  const def = state.entry!.def;
  // The call's paths are read once, for the policy, the agent-memory rule and the handler alike.
  const judge = state.judgePath;
  let decision = state.options.prejudged?.decision ?? (await evaluatePolicy(state, deps, judge));
  if (state.flags!.alwaysAsk && decision.behavior !== 'deny') {
    decision = {
      behavior: 'ask',
      by: decision.behavior === 'ask' ? decision.by : 'tool',
      reason: decision.behavior === 'ask' ? decision.reason : `${state.toolName} always asks for confirmation`,
      rule: decision.rule,
      forced: true,
    };
  }
  const pre = state.permission.preToolUse;
  if (pre.decision === 'allow' && decision.behavior === 'ask' && !decision.forced) {
    decision = { behavior: 'allow', by: 'hook', reason: pre.reason ?? `allowed by PreToolUse hook ${pre.hook}`, rule: pre.hook };
  } else if (pre.decision === 'ask' && decision.behavior === 'allow') {
    decision = { behavior: 'ask', by: 'hook', reason: pre.reason ?? `PreToolUse hook ${pre.hook} asks for confirmation`, rule: pre.hook };
  }
  if (decision.behavior !== 'deny' && !decision.forced) {
    const memory = await agentMemoryWriteTarget(def, state.input, deps.workspaceFolders, judge);
    state.signal.throwIfAborted();
    if (memory) {
      decision = { behavior: 'ask', by: 'rule', rule: 'agent memory file', reason: `${memory} is an agent memory file: writing it always asks`, forced: true };
    }
  }
  own.decision = decision;
  // The span says what decided, beyond the outcome and `by` that finish() records.
  state.span.setAttribute('permission.decision', decision.behavior);
  state.span.setAttribute('permission.reason', decision.reason);
  if (decision.rule) state.span.setAttribute('permission.rule', decision.rule);
  if (decision.forced) state.span.setAttribute('permission.forced', true);
  if (decision.behavior === 'deny') {
    decide(own, 'denied', decision.by, decision.rule ?? decision.reason);
    return {
      kind: 'permission',
      stage: 'permission',
      message: `Permission to use ${state.toolName} was denied: ${decision.reason}`,
      errorClass: 'PermissionDenied',
    };
  }
  if (decision.behavior === 'allow') {
    decide(own, 'none', decision.by, decision.rule);
  }
  return undefined;
}

/** A policy that fails (a bug) neither allows nor loses the call: the user is asked, and it is logged. */
async function evaluatePolicy(state: CallState, deps: ExecutorDeps, judgePath: PathJudge): Promise<PermissionDecision> {
  try {
    return await judgeByPolicy(state.call, state.entry!, state.input, deps, judgePath, state.signal);
  } catch (error) {
    state.signal.throwIfAborted();
    deps.logger.error('tool.permission.policy_failed', { tool: state.toolName, callId: state.call.id, error: projectErrorMessage(error) });
    return { behavior: 'ask', by: 'executor', reason: `the permission policy failed (${projectErrorMessage(error)}), so the call needs your approval`, forced: true };
  }
}

/** The policy's decision on an admitted call (rules and mode only); throws when the policy does. Early dispatch judges with it too. */
export function judgeByPolicy(call: ToolCall, entry: ToolEntry, input: unknown, deps: ExecutorDeps, judgePath: PathJudge, signal: AbortSignal): PermissionDecision | Promise<PermissionDecision> {
  return deps.permissionPolicy.evaluate({ tool: entry.def, input, callId: call.id, workspaceFolders: deps.workspaceFolders, judgePath }, signal);
}
