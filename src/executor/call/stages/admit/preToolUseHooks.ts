// Stage 4 (spec §3.4): PreToolUse hooks in order; the first that decides ends the chain; deny ends the call.
import { decide, type CallState, type ExecutorDeps, type PermissionState, type StageFailure } from '../../callState';
import { runHookChain } from '../../hookChain';
import { hookInput } from './hookInput';

const PRE_TOOL_USE_DECISIONS: ReadonlySet<string> = new Set(['allow', 'deny', 'ask']);

/** Undefined at once when no PreToolUse hook matches the tool: the runner awaits only a chain that runs. */
export function preToolUseHooks(state: CallState, deps: ExecutorDeps, own: Own): Promise<StageFailure | undefined> | undefined {
  if (deps.hooks.hooksFor('PreToolUse', state.toolName).length === 0) return undefined;
  return runPreToolUseHooks(state, deps, own);
}

/** What this stage writes. */
type Own = Pick<PermissionState, 'preToolUse' | 'record' | 'hookContext'>;

async function runPreToolUseHooks(state: CallState, deps: ExecutorDeps, own: Own): Promise<StageFailure | undefined> {
  const result = await runHookChain(
    deps.hooks,
    hookInput(state, deps, 'PreToolUse'),
    { stopAtDecision: true, allowedDecisions: PRE_TOOL_USE_DECISIONS, logger: deps.logger },
    state.signal,
  );
  own.hookContext = [...own.hookContext, ...result.additionalContext];
  const decision = result.decision;
  if (!decision) return undefined;
  const { hook, outcome } = decision;
  own.preToolUse = { decision: outcome.decision, hook, reason: outcome.reason };
  if (outcome.decision === 'deny') {
    decide(own, 'denied', 'hook', hook);
    return {
      kind: 'permission',
      stage: 'hook',
      message: `PreToolUse hook denied this ${state.toolName} call: ${outcome.reason?.trim() || 'no reason given'}`,
      errorClass: 'HookDenied',
    };
  }
  return undefined;
}
