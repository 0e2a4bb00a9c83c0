// Running a schedule (spec §2): groups in order; inside a group at most N calls at once; a stop-turn
// result cancels every later group; a failed serial call does not.
import type { CallOptions, ExecutorDeps } from './callState';
import { runCall } from './callRunner';
import type { ToolCall } from './contract';
import { Semaphore } from './limiter';
import type { ToolCallResult } from './result';
import type { ScheduleGroup } from './scheduler';

/** W: at most 5 handlers of a group run at once. */
export const DEFAULT_MAX_CONCURRENCY = 5;
export const STOP_TURN_MESSAGE = 'Tool cancelled because a previous tool result requested a turn stop.';

export interface BatchOptions {
  readonly signal?: AbortSignal;
  readonly offeredTools?: ReadonlySet<string>;
  /** Overrides the executor's concurrency for this batch. */
  readonly maxConcurrency?: number;
  /** Total budget of all model contents of the batch (spec §7); overrides the executor's. */
  readonly maxTotalResultBytes?: number;
}

/** Runs the groups one after another; returns one result per call, in schedule order. */
export async function runSchedule(
  groups: readonly ScheduleGroup[],
  deps: ExecutorDeps,
  maxConcurrency: number,
  options: BatchOptions = {},
): Promise<ToolCallResult[]> {
  const results: ToolCallResult[] = [];
  let stopped = false;
  for (const group of groups) {
    const callIds = group.calls.map((call) => call.id);
    deps.emit({ type: 'batchGroupStarted', group: group.index, callIds, parallel: group.parallel });
    const groupResults = stopped
      ? group.calls.map((call) => syntheticResult(call, group.index, STOP_TURN_MESSAGE, deps))
      : await runGroup(group, deps, maxConcurrency, options);
    deps.emit({ type: 'batchGroupEnded', group: group.index, callIds, errors: groupResults.filter((result) => result.isError).length });
    results.push(...groupResults);
    if (groupResults.some((result) => result.stopTurn)) stopped = true;
  }
  return results;
}

async function runGroup(group: ScheduleGroup, deps: ExecutorDeps, maxConcurrency: number, options: BatchOptions): Promise<ToolCallResult[]> {
  const slots = new Semaphore(Math.max(1, maxConcurrency));
  const callOptions = (): CallOptions => ({ signal: options.signal, group: group.index, offeredTools: options.offeredTools });
  return Promise.all(
    group.calls.map(async (call) => {
      // Queued first, so the UI shows every call of the group at once.
      deps.emit({ type: 'toolCallQueued', callId: call.id, name: call.name, group: group.index });
      let release: (() => void) | undefined;
      try {
        release = await slots.acquire(options.signal);
      } catch {
        return runCall(call, deps, callOptions());
      }
      try {
        return await runCall(call, deps, callOptions());
      } finally {
        release();
      }
    }),
  );
}

/** A result for a call that never ran (turn stop); it still goes through `finish` so events and spans see it. */
function syntheticResult(call: ToolCall, group: number, message: string, deps: ExecutorDeps): ToolCallResult {
  const result: ToolCallResult = {
    callId: call.id,
    name: call.name,
    group,
    isError: true,
    errorKind: 'cancelled',
    modelContent: message,
    text: message,
    truncated: false,
    strategy: 'inline',
    originalBytes: Buffer.byteLength(message),
    modelBytes: Buffer.byteLength(message),
    changes: [],
    stopTurn: false,
    permission: { outcome: 'none' },
    timing: { totalMs: 0, permissionWaitMs: 0, queuedMs: 0 },
    failure: { stage: 'handler', errorClass: 'TurnStopped', message },
  };
  const span = deps.telemetry.startSpan('tool.call', { 'tool.name': deps.registry.has(call.name) ? call.name : 'unknown', 'tool.call_id': call.id });
  span.setAttribute('error.kind', 'cancelled');
  span.setAttribute('error.class', 'TurnStopped');
  span.end();
  deps.emit({ type: 'toolCallFailed', result });
  return result;
}
