// Stage 13 (spec §3.13): PostToolUse, or PostToolUseFailure (`is_interrupt` on cancels), and the hook context.
import type { CallState, ExecutorDeps } from '../../callState';
import { runHookChain } from '../../hookChain';
import { hookInput } from '../admit/hookInput';
import { NEVER_ABORTED } from '../../../contract/neverAborted';

const NO_DECISIONS: ReadonlySet<string> = new Set();

/**
 * Undefined at once when no hook matches the tool (nothing to build or await on every call);
 * the earlier hooks' context is added either way.
 */
export function postToolUseHooks(state: CallState, deps: ExecutorDeps): Promise<void> | undefined {
  const failed = state.failure !== undefined || state.output?.isError === true;
  if (state.handlerStarted && deps.hooks.hooksFor(failed ? 'PostToolUseFailure' : 'PostToolUse', state.toolName).length > 0) {
    return runPostToolUseHooks(state, deps, failed);
  }
  addHookContext(state, deps);
  return undefined;
}

async function runPostToolUseHooks(state: CallState, deps: ExecutorDeps, failed: boolean): Promise<void> {
  const input = failed
    ? hookInput(state, deps, 'PostToolUseFailure', { error: state.text, is_interrupt: state.failure?.kind === 'cancelled' })
    : hookInput(state, deps, 'PostToolUse', { tool_response: state.modelContent });
  // Not cancellable by the turn: the call already happened and its hooks must hear of it.
  const result = await runHookChain(deps.hooks, input, { stopAtDecision: false, allowedDecisions: NO_DECISIONS, logger: deps.logger }, NEVER_ABORTED);
  state.hookContext.push(...result.additionalContext);
  addHookContext(state, deps);
}

/** The hooks' additional context, numbered and redacted, after the model content. */
function addHookContext(state: CallState, deps: ExecutorDeps): void {
  if (state.hookContext.length > 0) {
    const entries = state.hookContext.map((context, index) => `${index + 1}. ${deps.redactor.redact(context)}`);
    state.modelContent = `${state.modelContent}\n\n[Hook additional context]\n${entries.join('\n')}`;
  }
}
