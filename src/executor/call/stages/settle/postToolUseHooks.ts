// Stage 13 (spec §3.13): PostToolUse, or PostToolUseFailure (`is_interrupt` on cancels), and the hook context.
import type { CallState, ExecutorDeps, ResultState } from '../../callState';
import { runHookChain } from '../../hookChain';
import { hookInput } from '../admit/hookInput';
import { NEVER_ABORTED } from '../../../contract/neverAborted';

const NO_DECISIONS: ReadonlySet<string> = new Set();

/**
 * Undefined at once when no hook matches the tool (nothing to build or await on every call);
 * the earlier hooks' context is added either way.
 */
export function postToolUseHooks(state: CallState, deps: ExecutorDeps, own: Pick<ResultState, 'modelContent'>): Promise<void> | undefined {
  const failed = state.result.failure !== undefined || state.run.output?.isError === true;
  if (state.run.handlerStarted && deps.hooks.hooksFor(failed ? 'PostToolUseFailure' : 'PostToolUse', state.toolName).length > 0) {
    return runPostToolUseHooks(state, deps, own, failed);
  }
  addHookContext(state.permission.hookContext, deps, own);
  return undefined;
}

async function runPostToolUseHooks(state: CallState, deps: ExecutorDeps, own: Pick<ResultState, 'modelContent'>, failed: boolean): Promise<void> {
  const input = failed
    ? hookInput(state, deps, 'PostToolUseFailure', { error: state.result.text, is_interrupt: state.result.failure?.kind === 'cancelled' })
    : hookInput(state, deps, 'PostToolUse', { tool_response: own.modelContent });
  // Not cancellable by the turn: the call already happened and its hooks must hear of it.
  const result = await runHookChain(deps.hooks, input, { stopAtDecision: false, allowedDecisions: NO_DECISIONS, logger: deps.logger }, NEVER_ABORTED);
  addHookContext([...state.permission.hookContext, ...result.additionalContext], deps, own);
}

/** The hooks' additional context, numbered and redacted, after the model content. */
function addHookContext(hookContext: readonly string[], deps: ExecutorDeps, own: Pick<ResultState, 'modelContent'>): void {
  if (hookContext.length > 0) {
    const entries = hookContext.map((context, index) => `${index + 1}. ${deps.redactor.redact(context)}`);
    own.modelContent = `${own.modelContent}\n\n[Hook additional context]\n${entries.join('\n')}`;
  }
}
