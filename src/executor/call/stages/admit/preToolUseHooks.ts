// Stage 4 (spec §3.4): PreToolUse hooks in order; the first that decides ends the chain; deny ends the call.
import type { CallState, ExecutorDeps, StageFailure } from '../../callState';
import { runHookChain } from '../../hookChain';
import { hookInput } from './hookInput';

const PRE_TOOL_USE_DECISIONS: ReadonlySet<string> = new Set(['allow', 'deny', 'ask']);

/** Undefined at once when no PreToolUse hook matches the tool: the runner awaits only a chain that runs. */
export function preToolUseHooks(state: CallState, deps: ExecutorDeps): Promise<StageFailure | undefined> | undefined {
  if (deps.hooks.hooksFor('PreToolUse', state.toolName).length === 0) return undefined;
  return runPreToolUseHooks(state, deps);
}

async function runPreToolUseHooks(state: CallState, deps: ExecutorDeps): Promise<StageFailure | undefined> {
  const result = await runHookChain(
    deps.hooks,
    hookInput(state, deps, 'PreToolUse'),
    { stopAtDecision: true, allowedDecisions: PRE_TOOL_USE_DECISIONS, logger: deps.logger },
    state.signal,
  );
  state.hookContext.push(...result.additionalContext);
  const decision = result.decision;
  if (!decision) return undefined;
  const { hook, outcome } = decision;
  state.preToolUse = { decision: outcome.decision, hook, reason: outcome.reason };
  if (outcome.decision === 'deny') {
    state.decide('denied', 'hook', hook);
    return {
      kind: 'permission',
      stage: 'hook',
      message: `PreToolUse hook denied this ${state.toolName} call: ${outcome.reason?.trim() || 'no reason given'}`,
      errorClass: 'HookDenied',
    };
  }
  return undefined;
}
