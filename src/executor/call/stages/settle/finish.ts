// Stage 14 (spec §3.14, §10): the result, then — once it is final — its event, span and log line.
// `finish` is the only way a result leaves; the turn calls it after the total budget (if any).
import type { CallState, ExecutorDeps } from '../../callState';
import type { ToolCallResult } from '../../../contract/result';
import { utf8Bytes } from '../../../format/text';

/** The call's result as the stages left it; the turn's total budget may still cut its model content. */
export function buildResult(state: CallState): ToolCallResult {
  const { permission, run, result: settled } = state;
  const failure = settled.failure;
  const toolError = !failure && run.output?.isError === true;
  const isError = failure !== undefined || toolError;
  const totalMs = Math.round(performance.now() - state.startedAt);
  const result: ToolCallResult = {
    callId: state.call.id,
    name: state.toolName,
    group: state.options.group,
    isError,
    errorKind: failure ? failure.kind : toolError ? (run.output?.timedOut === true ? 'timeout' : 'execution') : null,
    modelContent: settled.modelContent,
    text: settled.text,
    display: settled.display,
    media: run.output?.media,
    truncated: settled.truncated,
    strategy: settled.strategy,
    originalBytes: settled.originalBytes,
    modelBytes: utf8Bytes(settled.modelContent),
    artifact: settled.artifact,
    changes: run.changes,
    stopTurn: !failure && run.output?.stopTurn === true,
    permission: permission.record,
    timing: {
      totalMs,
      permissionWaitMs: permission.waitMs,
      queuedMs: run.deadline?.queuedMs ?? 0,
      startMs: sinceTurnStart(state, run.handlerStartedAt),
      endMs: sinceTurnStart(state, run.handlerEndedAt),
    },
    failure: failure
      ? { stage: failure.stage, errorClass: failure.errorClass, message: failure.message }
      : toolError
        ? { stage: 'handler', errorClass: 'ToolReportedError', message: settled.text }
        : undefined,
  };
  return result;
}

/** Publishes the final result: span, log line, event. Called once per call. */
export function finish(state: CallState, deps: ExecutorDeps, result: ToolCallResult): ToolCallResult {
  record(state, result);
  log(state, deps, result);
  deps.emit(result.isError ? { type: 'toolCallFailed', result } : { type: 'toolCallResult', result });
  return result;
}

function sinceTurnStart(state: CallState, at: number | undefined): number | null {
  if (at === undefined) return null;
  return Math.max(0, Math.round(at - (state.options.turn?.startedAt ?? state.startedAt)));
}

function record(state: CallState, result: ToolCallResult): void {
  const span = state.span;
  span.setAttribute('permission.outcome', result.permission.outcome);
  if (result.permission.by) span.setAttribute('permission.by', result.permission.by);
  span.setAttribute('output.bytes', result.modelBytes);
  span.setAttribute('output.original_bytes', result.originalBytes);
  span.setAttribute('truncated', result.truncated);
  span.setAttribute('strategy', result.strategy);
  span.setAttribute('total_ms', result.timing.totalMs);
  span.setAttribute('permission_wait_ms', result.timing.permissionWaitMs);
  span.setAttribute('queued_ms', result.timing.queuedMs);
  span.setAttribute('is_error', result.isError);
  if (result.errorKind) span.setAttribute('error.kind', result.errorKind);
  if (result.failure) {
    span.setAttribute('failure.stage', result.failure.stage);
    span.setAttribute('error.class', result.failure.errorClass);
  }
  span.end();
}

function log(state: CallState, deps: ExecutorDeps, result: ToolCallResult): void {
  const fields = {
    tool: deps.registry.has(state.toolName) ? state.toolName : 'unknown',
    callId: result.callId,
    totalMs: result.timing.totalMs,
    errorKind: result.errorKind,
    outputBytes: result.modelBytes,
  };
  if (result.failure?.errorClass === 'UnknownTool') deps.logger.warn('tool.call.not_found', { ...fields, reason: result.failure.errorClass });
  else if (result.isError) deps.logger.warn('tool.call.failed', { ...fields, stage: result.failure?.stage, errorClass: result.failure?.errorClass });
  else deps.logger.info('tool.call.completed', fields);
}
