// Running calls of a turn (spec §2): at most N handlers at once across the whole executor, the
// queued event before a call waits for its slot, groups in order, and the turn stop.
import type { CallOptions, ExecutorDeps, StageFailure } from '../call/callState';
import { runCall, type SettledCall } from '../call/callRunner';
import type { ToolCall } from '../contract/contract';
import type { AdmissionGate } from '../ports/admissionGate';

/** Spec §2: at most 5 handlers run at once (a setting). */
export const DEFAULT_MAX_CONCURRENCY = 5;
export const STOP_TURN_MESSAGE = 'Tool cancelled because a previous tool result requested a turn stop.';

/** The result of every call after a stop-turn result: it never runs, and still gets its one result. */
export const TURN_STOPPED: StageFailure = { kind: 'cancelled', stage: 'handler', message: STOP_TURN_MESSAGE, errorClass: 'TurnStopped' };

/** Where a call runs: the turn's deps and options, and the slots it waits for. */
export interface RunContext {
  readonly deps: ExecutorDeps;
  readonly options: CallOptions;
  readonly slots: AdmissionGate;
  readonly signal: AbortSignal;
}

/** Emits the queued event, waits for a slot, runs the call. A call aborted while queued still runs the pipeline, which reports it cancelled. */
export async function runQueued(call: ToolCall, group: number, run: RunContext, early = false): Promise<SettledCall> {
  run.deps.emit({ type: 'toolCallQueued', callId: call.id, name: call.name, group, ...(early ? { early } : {}) });
  let release: (() => void) | undefined;
  try {
    release = await run.slots.acquire(run.signal);
  } catch {
    return runCall(call, run.deps, { ...run.options, group });
  }
  try {
    return await runCall(call, run.deps, { ...run.options, group });
  } finally {
    release();
  }
}

/** Runs one group's calls together (slots permitting), or — after a turn stop — settles them unrun. */
export function runGroup(calls: readonly ToolCall[], group: number, run: RunContext, stopped: boolean): Promise<SettledCall[]> {
  if (stopped) return Promise.all(calls.map((call) => runCall(call, run.deps, { ...run.options, group, preempted: TURN_STOPPED })));
  return Promise.all(calls.map((call) => runQueued(call, group, run)));
}

/** Holds a slot of the executor-wide limiter and, when the turn sets its own limit, one of the turn's too. */
export function nestedSlots(outer: AdmissionGate, inner: AdmissionGate | undefined): AdmissionGate {
  if (!inner) return outer;
  return {
    async acquire(signal?: AbortSignal) {
      const releaseInner = await inner.acquire(signal);
      try {
        const releaseOuter = await outer.acquire(signal);
        return () => {
          releaseOuter();
          releaseInner();
        };
      } catch (error) {
        releaseInner();
        throw error;
      }
    },
  };
}
