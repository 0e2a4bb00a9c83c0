// What the Tool Calls view shows, as plain data built from the executor's turn events:
// the window's recent turns and, per call, its state and when it was queued, asked, started and
// ended. No `vscode` here, so it is unit-tested directly.
import type { ExecutorEvent, TurnEvent } from '../../executor';
import type { ToolCallResult } from '../../executor';

/** Turns kept; the oldest are dropped first. Ours. */
export const MAX_TURNS = 50;

export type CallStatus = 'queued' | 'awaitingApproval' | 'running' | 'done' | 'failed' | 'cancelled';

export interface CallRecord {
  readonly callId: string;
  readonly name: string;
  group: number | undefined;
  status: CallStatus;
  /** Milliseconds since the turn began (the view's clock, `performance.now()`-based). */
  queuedAt?: number;
  askedAt?: number;
  answeredAt?: number;
  startedAt?: number;
  endedAt?: number;
  result?: ToolCallResult;
}

export interface TurnRecord {
  readonly turnId: string;
  readonly label: string;
  /** Wall-clock start, for the view's label. */
  readonly startedWallMs: number;
  /** Clock reading at the start; call times are relative to it. */
  readonly startedAt: number;
  endedAt?: number;
  readonly calls: CallRecord[];
}

export interface Counts {
  readonly running: number;
  readonly queued: number;
  readonly awaitingApproval: number;
}

export class ToolCallsModel {
  private readonly turns = new Map<string, TurnRecord>();

  constructor(
    /** A monotonic clock in milliseconds. */
    private readonly now: () => number = () => performance.now(),
    private readonly wallNow: () => number = () => Date.now(),
  ) {}

  /** Newest first; a turn that ended without calls (a model reply with text only) is left out. */
  list(): TurnRecord[] {
    return [...this.turns.values()].filter((turn) => turn.calls.length > 0 || turn.endedAt === undefined).reverse();
  }

  turn(turnId: string): TurnRecord | undefined {
    return this.turns.get(turnId);
  }

  counts(): Counts {
    let running = 0;
    let queued = 0;
    let awaitingApproval = 0;
    for (const turn of this.turns.values()) {
      for (const call of turn.calls) {
        if (call.status === 'running') running++;
        else if (call.status === 'queued') queued++;
        else if (call.status === 'awaitingApproval') awaitingApproval++;
      }
    }
    return { running, queued, awaitingApproval };
  }

  /** Applies one event; returns the turn it changed (undefined for events of no turn). */
  apply(event: ExecutorEvent): TurnRecord | undefined {
    if (!('turnId' in event) || event.turnId === '') return undefined;
    const turn = this.turnOf(event);
    const at = this.now() - turn.startedAt;
    switch (event.type) {
      case 'turnEnded':
        turn.endedAt = at;
        break;
      case 'toolCallQueued': {
        const call = this.callOf(turn, event.callId, event.name);
        call.group = event.group;
        call.queuedAt ??= at;
        break;
      }
      case 'permissionRequested': {
        const call = this.callOf(turn, event.callId, event.name);
        call.status = 'awaitingApproval';
        call.askedAt = at;
        break;
      }
      case 'permissionResolved': {
        const call = turn.calls.find((candidate) => candidate.callId === event.callId);
        if (call) {
          call.answeredAt = at;
          if (call.status === 'awaitingApproval') call.status = 'queued';
        }
        break;
      }
      case 'toolCallStarted': {
        const call = this.callOf(turn, event.callId, event.name);
        call.status = 'running';
        call.startedAt = at;
        break;
      }
      case 'toolCallResult':
      case 'toolCallFailed': {
        const call = this.callOf(turn, event.result.callId, event.result.name);
        call.result = event.result;
        call.group ??= event.result.group;
        call.endedAt = at;
        call.status = !event.result.isError ? 'done' : event.result.errorKind === 'cancelled' ? 'cancelled' : 'failed';
        break;
      }
      default:
        break;
    }
    return turn;
  }

  private turnOf(event: TurnEvent): TurnRecord {
    let turn = this.turns.get(event.turnId);
    if (!turn) {
      const label = event.type === 'turnStarted' && event.label ? event.label : 'Tool calls';
      turn = { turnId: event.turnId, label, startedWallMs: this.wallNow(), startedAt: this.now(), calls: [] };
      this.turns.set(event.turnId, turn);
      while (this.turns.size > MAX_TURNS) this.turns.delete(this.turns.keys().next().value as string);
    }
    return turn;
  }

  private callOf(turn: TurnRecord, callId: string, name: string): CallRecord {
    let call = turn.calls.find((candidate) => candidate.callId === callId);
    if (!call) {
      call = { callId, name, group: undefined, status: 'queued' };
      turn.calls.push(call);
    }
    return call;
  }
}
