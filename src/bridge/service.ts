// The executor side of the bridge: the protocol's methods over one `ToolExecutor`, for one
// agent connection. Both hosts use it — VS Code's LanguageClient (client side) and `tool-exec serve`
// (server side) — through `bindBridge`. No vscode import.
//   1. `beginTurn` opens an executor turn under the agent's id; `offer` offers a call (early dispatch
//      applies); `endTurn` ends it and answers the ordered results; `executeBatch` is the three at once.
//   2. Every event of an open turn goes to the agent as `executor/event`, tagged with the agent's id.
//   3. `cancelTurn`, `$/cancelRequest` of `endTurn`/`executeBatch`, and `closeAll` (the agent went away)
//      abort the turn: running calls end at once, the rest are reported cancelled.
//   4. A turn is checkpointed before its first write and after it ends (the host's store), unless the host
//      gives it a checkpoint of its own (VS Code: the chat prompt's); `listCheckpoints` and `undoTurn` use it.
// Expected failures (bad params, unknown turn ids) are `ResponseError` values, answered as such.
import { ResponseError } from 'vscode-jsonrpc';
import type { ToolCall, ToolCallResult, TurnCheckpoint } from '../executor';
import type { Logger } from '../executor';
import type { TurnRecord } from '../node/checkpoints/checkpointStore';
import { AlreadyReversedError, type UndoOutcome } from '../node/checkpoints/undo';
import { wireCheckpointedTurn, wireUndo } from './checkpoints';
import { CancellationError } from '../executor';
import type { ToolExecutor } from '../executor';
import type { Turn, TurnOptions } from '../executor';
import { checkParams, MAX_TURN_CALLS, tooManyCalls, type Checked } from './params';
import {
  BridgeErrorCodes,
  PROTOCOL_VERSION,
  type EventParams,
  type ExecutorCapabilities,
  type ExecutorInfo,
  type CheckpointedTurn,
  type TurnResultsResponse,
  type UndoTurnResponse,
  type WireTool,
} from './protocol';
import { wireEvent, wireResult } from './wire';

/** The event types `executor/event` carries (src/executor/contract/events.ts). */
export const BRIDGE_EVENT_TYPES = [
  'turnStarted',
  'turnEnded',
  'batchGroupStarted',
  'batchGroupEnded',
  'toolCallQueued',
  'toolCallStarted',
  'permissionRequested',
  'permissionResolved',
  'toolCallProgress',
  'toolCallOutput',
  'toolCallResult',
  'toolCallFailed',
] as const;

/** Who watches a turn besides the agent (VS Code: the chat reply). */
export interface TurnObserver {
  /** A call was offered, under the id the turn gave it. */
  offered?(call: ToolCall): void;
  /** The turn's results are final (or it was abandoned); release what watches it. */
  closed?(): void;
}

export interface BridgeHost {
  /** More options for each turn: context, label, approval client. */
  turnOptions?(turnId: string): Partial<TurnOptions>;
  observe?(turn: Turn, turnId: string): TurnObserver | undefined;
}

/** One turn's checkpoints: the executor asks for the first before the turn's first write; `end` takes the one after. */
export interface HostTurn {
  readonly checkpoint: TurnCheckpoint;
  /** The recorded turn, or undefined when the turn wrote nothing. */
  end(reported: readonly string[]): Promise<TurnRecord | undefined>;
}

/** The host's checkpointed turns (VS Code: the extension's one store; `tool-exec serve`: the CLI's, beside the artifacts). */
export interface BridgeCheckpoints {
  /** A checkpoint for one turn; undefined when none can be taken (no workspace folder). */
  begin(title: string): HostTurn | undefined;
  /** The checkpointed turns, oldest first. */
  turns(): readonly TurnRecord[];
  /** Undoes one: paths changed since the turn are skipped and named unless `force` (VS Code then asks the user). */
  undoFromAgent(undoId: string, force: boolean): Promise<UndoOutcome>;
}

export interface BridgeServiceOptions {
  readonly executor: ToolExecutor;
  /** Sends `executor/event` to the agent. */
  readonly notify: (params: EventParams) => void;
  readonly executorInfo: { readonly name: string; readonly version: string };
  readonly approvals: ExecutorCapabilities['approvals'];
  readonly host?: BridgeHost;
  /** Where turns are checkpointed and undone; without it the checkpoint methods answer NoCheckpoints. */
  readonly checkpoints?: BridgeCheckpoints;
  readonly logger?: Logger;
}

interface OpenTurn {
  readonly turn: Turn;
  /** Calls offered so far (at most MAX_TURN_CALLS). */
  offered: number;
  readonly controller: AbortController;
  readonly observer?: TurnObserver;
  closed: boolean;
  readonly results: Promise<TurnResultsResponse>;
}

/** Anything with `onCancellationRequested`: vscode-jsonrpc's token and VS Code's alike. */
export interface CancelToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

export class BridgeService {
  private readonly turns = new Map<string, OpenTurn>();
  private disposed = false;

  constructor(private readonly options: BridgeServiceOptions) {}

  /** What `initialize` answers, and what the editor sends as `initializationOptions.executor`. */
  info(): ExecutorInfo {
    return {
      protocolVersion: PROTOCOL_VERSION,
      executor: this.options.executorInfo,
      capabilities: { earlyDispatch: true, executeBatch: true, cancelTurn: true, events: BRIDGE_EVENT_TYPES, approvals: this.options.approvals, checkpoints: this.options.checkpoints !== undefined },
      tools: this.tools(),
    };
  }

  initialize(params: unknown): ExecutorInfo | ResponseError {
    const checked = checkParams.initialize(params);
    if (!checked.ok) return invalid(checked);
    if (checked.value.protocolVersion !== PROTOCOL_VERSION) {
      return new ResponseError(
        BridgeErrorCodes.UnsupportedProtocolVersion,
        `protocol version ${checked.value.protocolVersion} is not supported: this executor speaks version ${PROTOCOL_VERSION}`,
      );
    }
    return this.info();
  }

  listTools(): { tools: WireTool[] } {
    return { tools: this.tools() };
  }

  beginTurn(params: unknown): { turnId: string } | ResponseError {
    const checked = checkParams.beginTurn(params);
    if (!checked.ok) return invalid(checked);
    const opened = this.open(checked.value.turnId, checked.value.offeredTools, checked.value.label);
    return opened instanceof ResponseError ? opened : { turnId: checked.value.turnId };
  }

  offer(params: unknown): { callId: string } | ResponseError {
    const checked = checkParams.offer(params);
    if (!checked.ok) return invalid(checked);
    const open = this.turns.get(checked.value.turnId);
    if (!open) return unknownTurn(checked.value.turnId);
    if (open.closed) return new ResponseError(BridgeErrorCodes.TurnClosed, `turn ${checked.value.turnId} has ended: offer every call before executor/endTurn`);
    if (open.offered >= MAX_TURN_CALLS) return new ResponseError(BridgeErrorCodes.TooManyCalls, tooManyCalls(`call ${open.offered + 1}`));
    open.offered++;
    const call: ToolCall = { id: checked.value.call.id, name: checked.value.call.name, input: checked.value.call.input };
    const callId = open.turn.offer(call);
    open.observer?.offered?.({ ...call, id: callId });
    return { callId };
  }

  endTurn(params: unknown, token?: CancelToken): Promise<TurnResultsResponse | ResponseError> | ResponseError {
    const checked = checkParams.turn(params);
    if (!checked.ok) return invalid(checked);
    const open = this.turns.get(checked.value.turnId);
    if (!open) return unknownTurn(checked.value.turnId);
    return this.finish(checked.value.turnId, open, token);
  }

  executeBatch(params: unknown, token?: CancelToken): Promise<TurnResultsResponse | ResponseError> | ResponseError {
    const offeredCalls = (params as { calls?: unknown } | null)?.calls;
    if (Array.isArray(offeredCalls) && offeredCalls.length > MAX_TURN_CALLS) return new ResponseError(BridgeErrorCodes.TooManyCalls, tooManyCalls(offeredCalls.length));
    const checked = checkParams.executeBatch(params);
    if (!checked.ok) return invalid(checked);
    const { turnId, calls, offeredTools, label } = checked.value;
    const open = this.open(turnId, offeredTools, label);
    if (open instanceof ResponseError) return open;
    open.offered = calls.length;
    for (const call of calls) {
      const callId = open.turn.offer(call);
      open.observer?.offered?.({ ...call, id: callId });
    }
    return this.finish(turnId, open, token);
  }

  cancelTurn(params: unknown): { turnId: string; cancelled: boolean } | ResponseError {
    const checked = checkParams.turn(params);
    if (!checked.ok) return invalid(checked);
    const open = this.turns.get(checked.value.turnId);
    if (!open) return unknownTurn(checked.value.turnId);
    this.cancel(open, 'the agent cancelled the turn');
    return { turnId: checked.value.turnId, cancelled: true };
  }

  listCheckpoints(): { turns: CheckpointedTurn[] } | ResponseError {
    const checkpoints = this.options.checkpoints;
    if (!checkpoints) return noCheckpoints();
    return { turns: checkpoints.turns().map(wireCheckpointedTurn) };
  }

  async undoTurn(params: unknown): Promise<UndoTurnResponse | ResponseError> {
    const checked = checkParams.undoTurn(params);
    if (!checked.ok) return invalid(checked);
    const checkpoints = this.options.checkpoints;
    if (!checkpoints) return noCheckpoints();
    const { undoId, force } = checked.value;
    if (!checkpoints.turns().some((turn) => turn.turnId === undoId)) {
      return new ResponseError(BridgeErrorCodes.UnknownCheckpoint, `no checkpoints are kept for ${JSON.stringify(undoId)}: it wrote nothing, is older than the retention, or was never a turn here (executor/listCheckpoints lists them)`);
    }
    try {
      return wireUndo(undoId, await checkpoints.undoFromAgent(undoId, force === true));
    } catch (error) {
      if (error instanceof AlreadyReversedError) return new ResponseError(BridgeErrorCodes.AlreadyUndone, error.message);
      return new ResponseError(BridgeErrorCodes.InternalError, `could not undo ${undoId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Turns still open (begun, results not yet answered). */
  get openTurns(): number {
    return this.turns.size;
  }

  /**
   * The agent is gone (crash, exit, closed pipe): every open turn is cancelled and ended; resolves once
   * their results are final. Later requests are refused.
   */
  async closeAll(reason: string): Promise<void> {
    this.disposed = true;
    const open = [...this.turns.values()];
    for (const turn of open) this.cancel(turn, reason);
    await Promise.all(open.map((turn) => turn.results.catch(() => undefined)));
  }

  private tools(): WireTool[] {
    return this.options.executor.registry.describe().map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
  }

  private open(turnId: string, offeredTools: readonly string[] | undefined, label: string | undefined): OpenTurn | ResponseError {
    if (this.disposed) return new ResponseError(BridgeErrorCodes.InternalError, 'the executor is shutting down this connection');
    if (this.turns.has(turnId)) return new ResponseError(BridgeErrorCodes.TurnExists, `turn ${turnId} is already open: end it first or use another id`);
    const controller = new AbortController();
    const extra = this.options.host?.turnOptions?.(turnId) ?? {};
    // A checkpoint the host gave (a chat prompt's, spanning its turns) is the host's to end; otherwise the turn has its own.
    const own = extra.checkpoint ? undefined : this.options.checkpoints?.begin(label ?? extra.label ?? `bridge turn ${turnId}`);
    const turn = this.options.executor.beginTurn({
      ...extra,
      signal: extra.signal ? AbortSignal.any([extra.signal, controller.signal]) : controller.signal,
      offeredTools: offeredTools ? new Set(offeredTools) : extra.offeredTools,
      label: label ?? extra.label,
      ...(own ? { checkpoint: own.checkpoint } : {}),
    });
    // The turn emitted turnStarted as it was made, before anyone could listen: the agent hears it from here.
    const startLabel = label ?? extra.label;
    this.options.notify({ turnId, event: startLabel === undefined ? { type: 'turnStarted' } : { type: 'turnStarted', label: startLabel } });
    const unsubscribe = turn.onEvent((event) => this.options.notify(wireEvent(turnId, event)));
    const observer = this.options.host?.observe?.(turn, turnId);
    const settled = turn.results().then(async (results) => {
      const undoId = own ? await this.endCheckpoint(own, results) : undefined;
      return { turnId, results: results.map(wireResult), ...(undoId ? { undoId } : {}) };
    }).finally(() => {
      unsubscribe();
      observer?.closed?.();
      if (this.turns.get(turnId)?.turn === turn) this.turns.delete(turnId);
    });
    settled.catch(() => {});
    const open: OpenTurn = { turn, controller, observer, offered: 0, closed: false, results: settled };
    this.turns.set(turnId, open);
    return open;
  }

  /** The checkpoint after a turn that had its own; a failure costs only the undo of that turn. */
  private async endCheckpoint(own: HostTurn, results: readonly ToolCallResult[]): Promise<string | undefined> {
    try {
      return (await own.end(results.flatMap((result) => result.changes.map((change) => change.absolutePath))))?.turnId;
    } catch (error) {
      this.options.logger?.warn('bridge.checkpoint.failed', { error: String(error) });
      return undefined;
    }
  }

  private async finish(turnId: string, open: OpenTurn, token: CancelToken | undefined): Promise<TurnResultsResponse | ResponseError> {
    open.closed = true;
    open.turn.end();
    // `$/cancelRequest` of endTurn cancels the turn; the answer still carries every result.
    const onCancel = token?.onCancellationRequested(() => this.cancel(open, 'the agent cancelled the request'));
    if (token?.isCancellationRequested) this.cancel(open, 'the agent cancelled the request');
    try {
      return await open.results;
    } catch (error) {
      return new ResponseError(BridgeErrorCodes.InternalError, `turn ${turnId} failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      onCancel?.dispose();
    }
  }

  private cancel(open: OpenTurn, reason: string): void {
    open.closed = true;
    open.controller.abort(new CancellationError(reason));
    open.turn.end();
  }
}

function invalid(checked: Extract<Checked<unknown>, { ok: false }>): ResponseError {
  return new ResponseError(BridgeErrorCodes.InvalidParams, `invalid params: ${checked.error}`);
}

function noCheckpoints(): ResponseError {
  return new ResponseError(BridgeErrorCodes.NoCheckpoints, 'this executor keeps no checkpoints (no workspace folder): there is nothing to list or undo');
}

function unknownTurn(turnId: string): ResponseError {
  return new ResponseError(BridgeErrorCodes.UnknownTurn, `no open turn has the id ${JSON.stringify(turnId)} (never begun, already ended, or closed by a restart)`);
}
