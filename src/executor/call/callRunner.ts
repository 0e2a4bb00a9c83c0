// One call's pipeline (spec §3). Every stage is its own file; this function only calls them in order.
// Early failures (lookup, validation, hooks, permission) skip to redaction; after the handler
// started, the after-snapshot, redaction, budget and post hooks run whatever happened. A stage with
// nothing to do for a call (no hooks, no ask, a read-only tool's snapshots) answers undefined at once
// rather than a promise, and only a promise is awaited: each await costs a microtask turn.
import { CallState, type CallOptions, type ExecutorDeps, type StageFailure } from './callState';
import type { ToolCall } from '../contract/contract';
import { projectErrorMessage } from '../contract/errors';
import type { ToolCallResult } from '../contract/result';
import { approval } from './stages/admit/approval';
import { buildResult, finish } from './stages/settle/finish';
import { DEFAULT_CANCEL_MESSAGE, invokeHandler } from './stages/run/handler';
import { lookup } from './stages/admit/lookup';
import { permission } from './stages/admit/permission';
import { postToolUseHooks } from './stages/settle/postToolUseHooks';
import { preToolUseHooks } from './stages/admit/preToolUseHooks';
import { recordCall } from './stages/settle/record';
import { redact } from './stages/settle/redact';
import { resolveInput } from './stages/admit/resolveInput';
import { serialize } from './stages/settle/serialize';
import { snapshotAfter } from './stages/run/snapshotAfter';
import { snapshotBefore } from './stages/run/snapshotBefore';
import { resolveTimeout } from './stages/run/timeout';
import { validate } from './stages/admit/validate';
import { NEVER_ABORTED } from '../contract/neverAborted';


/**
 * A call that ran through stage 13: its result is built but has not left yet. `publishCall` sends it
 * (with the turn's total budget applied), so what listeners and the record see is what the model gets.
 */
export interface SettledCall {
  readonly state: CallState;
  readonly result: ToolCallResult;
}

/** Runs one call through stages 1-13 and builds its single result. Never throws for a tool's fault. */
export async function runCall(call: ToolCall, deps: ExecutorDeps, options: CallOptions = {}): Promise<SettledCall> {
  const toolLabel = deps.registry.has(call.name) ? call.name : 'unknown';
  const span = deps.telemetry.startSpan('tool.call', { 'tool.name': toolLabel, 'tool.call_id': call.id });
  const state = new CallState(call, options, options.signal ?? NEVER_ABORTED, span);
  deps.logger.debug('tool.call.started', { tool: toolLabel, callId: call.id, group: options.group });
  state.failure = await runStages(state, deps);
  try {
    // 10. Snapshot after: not cancellable, also after errors, timeouts and cancels.
    const after = snapshotAfter(state, deps);
    if (after) await after;
    // 11. Redact, before anything leaves.
    redact(state, deps);
    // 12. Serialize and budget; persist artifacts.
    await serialize(state, deps);
    // 13. PostToolUse / PostToolUseFailure hooks and their additional context.
    const post = postToolUseHooks(state, deps);
    if (post) await post;
  } catch (error) {
    resultStageBug(state, deps, error);
  }
  state.liveEnded = true;
  state.live?.dispose();
  return { state, result: buildResult(state) };
}

/** 14. Events, telemetry, log; then the session record: of `final`, the result as the model gets it. */
export async function publishCall(settled: SettledCall, deps: ExecutorDeps, final: ToolCallResult = settled.result): Promise<ToolCallResult> {
  const result = finish(settled.state, deps, final);
  await recordCall(settled.state, deps, result);
  return result;
}

async function runStages(state: CallState, deps: ExecutorDeps): Promise<StageFailure | undefined> {
  try {
    if (state.options.preempted) return state.options.preempted;
    if (state.signal.aborted) return cancelledBeforeStart(state, deps);
    // 1. Lookup: unknown, disabled, not offered.
    const lookupFailure = lookup(state, deps);
    if (lookupFailure) return lookupFailure;
    // 2. Parse and validate. 3. resolveInput, once.
    const invalid = validate(state) ?? resolveInput(state);
    if (invalid) return invalid;
    // 4. PreToolUse hooks.
    const hooked = preToolUseHooks(state, deps);
    const blocked = hooked && (await hooked);
    if (blocked) return blocked;
    // 5. Permission: rules and mode, the hook decision over them, forced asks.
    const denied = await permission(state, deps);
    if (denied) return denied;
    // 6. Approval gate: the user's answer races the PermissionRequest hooks.
    const asked = approval(state, deps);
    const refused = asked && (await asked);
    if (refused) return refused;
    state.signal.throwIfAborted();
    // 7. The timeout starts only now.
    resolveTimeout(state, deps);
    // 8. Snapshot before.
    const before = snapshotBefore(state, deps);
    if (before) await before;
    // 9. The handler, in crash capture, under the deadline.
    return await invokeHandler(state, deps);
  } catch (error) {
    if (state.signal.aborted) return cancelledBeforeStart(state, deps);
    // Only a bug in a stage gets here (stages turn expected failures into values).
    deps.logger.error('tool.call.internal_error', { tool: state.toolName, callId: state.call.id, error: String(error) });
    return { kind: 'execution', stage: 'handler', message: `tool ${state.toolName} crashed: ${error instanceof Error ? error.message : String(error)}`, errorClass: 'InternalError' };
  }
}

/**
 * A bug in a stage after the handler (a throwing port, say) still gives the call its one result; the
 * output is dropped, since it could not be redacted and sized, and the model is told so.
 */
function resultStageBug(state: CallState, deps: ExecutorDeps, error: unknown): void {
  let detail: string;
  try {
    detail = deps.redactor.redact(projectErrorMessage(error));
  } catch {
    detail = 'internal error';
  }
  deps.logger.error('tool.call.internal_error', { tool: state.toolName, callId: state.call.id, stage: 'serialize', error: detail });
  const message = `tool ${state.toolName}: the executor could not prepare this result (${detail}); the output was dropped.`;
  state.failure = { kind: 'execution', stage: 'serialize', message, errorClass: 'InternalError' };
  state.text = message;
  state.modelContent = message;
  state.display = undefined;
  state.artifact = undefined;
  state.truncated = false;
  state.strategy = 'inline';
}

function cancelledBeforeStart(state: CallState, deps: ExecutorDeps): StageFailure {
  const def = state.entry?.def ?? deps.registry.get(state.toolName)?.def;
  const message = def?.cancellation?.userVisibleMessage ?? DEFAULT_CANCEL_MESSAGE;
  return { kind: 'cancelled', stage: 'handler', message, errorClass: 'CancellationError' };
}
