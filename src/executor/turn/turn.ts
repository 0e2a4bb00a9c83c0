// A turn: the calls of one model reply, offered one by one while the model still streams.
//   1. `offer(call)`: in the model's order, as each call's arguments are complete. While every call
//      offered so far qualified, a qualifying call starts at once (spec §2 early dispatch); the first
//      call that does not qualify closes that window for the rest of the turn.
//   2. `end()`: the reply is complete. The early calls end, then the other calls run in the §2 groups,
//      in order; a stop-turn result preempts every later group.
//   3. `results()`: one final result per call, in the model's order (see `TurnResults`).
// Events of the turn carry its id; `onEvent` hears only this turn.
import { randomUUID } from 'node:crypto';
import { nestedSlots, runGroup, runQueued, type RunContext } from './batchRunner';
import type { SettledCall } from '../call/callRunner';
import type { ExecutorDeps, TurnInfo } from '../call/callState';
import type { ToolCall } from '../contract/contract';
import { canDispatchEarly } from './earlyDispatch';
import { EventEmitter, type CallEvent, type TurnEvent } from '../contract/events';
import { Semaphore } from './limiter';
import type { AdmissionGate } from '../ports/admissionGate';
import type { ApprovalClient } from '../ports/approvalClient';
import type { ToolCallResult } from '../contract/result';
import { TurnResults } from '../results/turnResults';
import { MAX_GROUP_SIZE, scheduleCalls } from './scheduler';
import { NEVER_ABORTED } from '../contract/neverAborted';


export interface TurnOptions {
  /** Aborting it cancels the turn: running calls end at once, the rest are reported cancelled. */
  readonly signal?: AbortSignal;
  /** Answers this turn's approvals. @default the executor's */
  readonly approvalClient?: ApprovalClient;
  /** Tools offered to the model this turn; others are refused at lookup. @default every enabled tool */
  readonly offeredTools?: ReadonlySet<string>;
  /** Total budget of all model contents of the turn (spec §7). @default the executor's */
  readonly maxTotalResultBytes?: number;
  /** A lower limit of handlers at once for this turn, within the executor's. @default the executor's */
  readonly maxConcurrency?: number;
  /** Reaches every handler as `ctx.turn.context`: what the host wants its handlers to know of the turn. */
  readonly context?: unknown;
  /** Start qualifying calls while the model streams. @default true */
  readonly earlyDispatch?: boolean;
  /** What the host calls this turn, for views and logs (e.g. the chat prompt). */
  readonly label?: string;
}

/** What a turn needs from its executor. */
export interface TurnHost {
  readonly deps: ExecutorDeps;
  /** The executor-wide limiter: no more than N handlers at once, whatever the turn. */
  readonly slots: AdmissionGate;
  /** The executor's listeners. */
  emit(event: TurnEvent): void;
  /** Whether the executor has any listener. */
  readonly listening: boolean;
  readonly maxTotalResultBytes: number | undefined;
}

interface EarlyGroup {
  readonly index: number;
  readonly callIds: string[];
  readonly runs: Promise<SettledCall>[];
}

interface Offered extends ToolCall {
  readonly index: number;
}

export class Turn {
  readonly id = randomUUID();
  private readonly info: TurnInfo;
  private readonly events = new EventEmitter<TurnEvent>();
  private readonly run: RunContext;
  private readonly results_: TurnResults;
  private readonly offered: Offered[] = [];
  private readonly waiting: Offered[] = [];
  private readonly early: EarlyGroup[] = [];
  private earlyCount = 0;
  private earlyOpen: boolean;
  /** Offers are placed one after another, so the early window closes in the model's order. */
  private placing: Promise<void> = Promise.resolve();
  private ended = false;
  private readonly done: Promise<ToolCallResult[]>;
  private resolveDone!: (results: ToolCallResult[]) => void;
  private rejectDone!: (error: unknown) => void;

  constructor(
    host: TurnHost,
    private readonly options: TurnOptions = {},
  ) {
    this.info = { id: this.id, startedAt: performance.now(), context: options.context };
    this.earlyOpen = options.earlyDispatch ?? true;
    const emit = (event: CallEvent) => {
      // Nobody listening: no tagged copy (most calls of a batch run unwatched).
      if (this.events.size === 0 && !host.listening) return;
      const tagged: TurnEvent = { ...event, turnId: this.id };
      this.events.emit(tagged);
      host.emit(tagged);
    };
    const deps: ExecutorDeps = { ...host.deps, approvalClient: options.approvalClient ?? host.deps.approvalClient, emit };
    const own = options.maxConcurrency === undefined ? undefined : new Semaphore(Math.max(1, options.maxConcurrency));
    const signal = options.signal ?? NEVER_ABORTED;
    this.run = { deps, slots: nestedSlots(host.slots, own), signal, options: { signal, turn: this.info, offeredTools: options.offeredTools } };
    this.results_ = new TurnResults(deps, options.maxTotalResultBytes ?? host.maxTotalResultBytes);
    this.done = new Promise<ToolCallResult[]>((resolve, reject) => {
      this.resolveDone = resolve;
      this.rejectDone = reject;
    });
    // Nobody may be waiting yet; a bug surfaces through `results()`, never as an unhandled rejection.
    this.done.catch(() => {});
    deps.emit(options.label === undefined ? { type: 'turnStarted' } : { type: 'turnStarted', label: options.label });
  }

  /** Listens to this turn's events only; returns the unsubscribe function. */
  onEvent(listener: (event: TurnEvent) => void): () => void {
    return this.events.on(listener);
  }

  /**
   * Offers the next call of the model's reply; returns its id (one is made when the call has none).
   * Throws once `end()` was called: that is a bug in the caller, not the model's fault.
   */
  offer(call: ToolCall): string {
    if (this.ended) throw new Error(`turn ${this.id} has ended: offer every call before end()`);
    const index = this.offered.length;
    const offered: Offered = { id: callId(call, index), name: call.name, input: call.input, index };
    this.offered.push(offered);
    this.placing = this.placing.then(() => this.place(offered));
    return offered.id;
  }

  /** The model's reply is complete: the calls not started early are scheduled now. Idempotent. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.placing.then(() => this.runRest()).then(this.resolveDone, this.rejectDone);
  }

  /** One result per offered call, in the model's order, each final; resolves after `end()`. */
  results(): Promise<ToolCallResult[]> {
    return this.done;
  }

  private async place(call: Offered): Promise<void> {
    // Once the reply is complete nothing is early: the call runs by the groups at once, without
    // judging it twice (the early check evaluates the policy the pipeline evaluates again).
    if (this.earlyOpen && !this.ended && (await this.qualifies(call))) {
      this.dispatchEarly(call);
      return;
    }
    this.earlyOpen = false;
    this.waiting.push(call);
  }

  private async qualifies(call: Offered): Promise<boolean> {
    if (this.run.signal.aborted) return false;
    if (this.options.offeredTools && !this.options.offeredTools.has(call.name)) return false;
    try {
      return await canDispatchEarly(call, this.run.deps, this.run.signal);
    } catch {
      // A policy that fails cannot say yes: the call waits for the schedule, where it will be asked.
      return false;
    }
  }

  private dispatchEarly(call: Offered): void {
    const groupIndex = Math.floor(this.earlyCount / MAX_GROUP_SIZE);
    this.earlyCount++;
    let group = this.early[groupIndex];
    if (!group) {
      group = { index: groupIndex, callIds: [], runs: [] };
      this.early.push(group);
      this.run.deps.emit({ type: 'batchGroupStarted', group: groupIndex, callIds: [call.id], parallel: true, early: true });
    }
    group.callIds.push(call.id);
    group.runs.push(runQueued(call, groupIndex, this.run, true).then((settled) => this.settle(call, settled)));
  }

  private async runRest(): Promise<ToolCallResult[]> {
    let stopped = false;
    for (const group of this.early) {
      const settled = await Promise.all(group.runs);
      this.run.deps.emit({ type: 'batchGroupEnded', group: group.index, callIds: group.callIds, errors: errorCount(settled) });
      stopped ||= settled.some((call) => call.result.stopTurn);
    }
    for (const group of scheduleCalls(this.waiting, this.run.deps.registry)) {
      const index = this.early.length + group.index;
      const callIds = group.calls.map((call) => call.id);
      this.run.deps.emit({ type: 'batchGroupStarted', group: index, callIds, parallel: group.parallel });
      const settled = await runGroup(group.calls, index, this.run, stopped);
      group.calls.forEach((call, position) => this.settle(call, settled[position]!));
      this.run.deps.emit({ type: 'batchGroupEnded', group: index, callIds, errors: errorCount(settled) });
      stopped ||= settled.some((call) => call.result.stopTurn);
    }
    const results = await this.results_.close(this.offered.length);
    this.run.deps.emit({ type: 'turnEnded', calls: results.length, errors: results.filter((result) => result.isError).length });
    return results;
  }

  private settle(call: Offered, settled: SettledCall): SettledCall {
    this.results_.add(call.index, settled);
    return settled;
  }
}

function errorCount(settled: readonly SettledCall[]): number {
  return settled.filter((call) => call.result.isError).length;
}

/** Calls without an id get one, so every result can be matched to its call. */
function callId(call: ToolCall, index: number): string {
  return typeof call.id === 'string' && call.id.length > 0 ? call.id : `call_${index}_${randomUUID().slice(0, 8)}`;
}
