// The bridge protocol (docs/PROTOCOL.md): an agent in its own process drives the executor over
// JSON-RPC. One module for both ends — the executor side (VS Code's LanguageClient host, `tool-exec serve`)
// and agents written in TypeScript (examples/agent) — so a method's name and shapes are written once.
// No vscode import: the CLI and the reference agent load this file too.
import { NotificationType, RequestType, RequestType0 } from 'vscode-jsonrpc';

/** Bumped when a method or shape changes incompatibly; `initialize` refuses another version. */
export const PROTOCOL_VERSION = 1;

/** A tool call as the agent's model made it; `input` may be the model's raw argument text. */
export interface WireCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/** A tool as offered to a model: its name, description and JSON Schema. */
export interface WireTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: unknown;
}

/** One call's result: exactly a line of `tool-exec run --json` (src/executor/format/resultLine.ts). */
export interface WireResult {
  readonly id: string;
  readonly name: string;
  readonly group: number;
  readonly isError: boolean;
  readonly errorKind: 'invocation' | 'permission' | 'execution' | 'timeout' | 'cancelled' | null;
  /** Exactly what the model receives. */
  readonly content: string;
  readonly truncated: boolean;
  readonly originalBytes: number;
  readonly artifactPath: string | null;
  readonly display: unknown;
  readonly timing: {
    readonly totalMs: number;
    readonly permissionWaitMs: number;
    readonly queuedMs: number;
    readonly startMs: number | null;
    readonly endMs: number | null;
  };
}

export interface ExecutorCapabilities {
  /** Read-only calls that need no approval start as they are offered. */
  readonly earlyDispatch: boolean;
  readonly executeBatch: boolean;
  readonly cancelTurn: boolean;
  /** The `type`s `executor/event` carries. */
  readonly events: readonly string[];
  /** Who answers approvals: a person in the editor's modal, or `tool-exec`'s settings and `--approve`. */
  readonly approvals: 'interactive' | 'settings';
  /** Turns that write are checkpointed: `executor/listCheckpoints` and `executor/undoTurn` answer. */
  readonly checkpoints: boolean;
}

/** What the executor tells an agent about itself: the result of `initialize` (headless) or the editor's `initializationOptions.executor`. */
export interface ExecutorInfo {
  readonly protocolVersion: number;
  readonly executor: { readonly name: string; readonly version: string };
  readonly capabilities: ExecutorCapabilities;
  readonly tools: readonly WireTool[];
}

export interface InitializeParams {
  readonly protocolVersion: number;
  readonly clientInfo?: { readonly name: string; readonly version?: string };
}

export interface BeginTurnParams {
  /** The agent's id for the turn; unique among the open turns of this connection. */
  readonly turnId: string;
  /** Tools the agent offered its model this turn; others are refused at lookup. Default: every tool. */
  readonly offeredTools?: readonly string[];
  /** What the turn is called in views and logs. */
  readonly label?: string;
}

export interface OfferParams {
  readonly turnId: string;
  readonly call: WireCall;
}

export interface TurnParams {
  readonly turnId: string;
}

export interface ExecuteBatchParams extends BeginTurnParams {
  readonly calls: readonly WireCall[];
}

export interface TurnResultsResponse {
  readonly turnId: string;
  /** One per offered call, in the order they were offered. */
  readonly results: readonly WireResult[];
  /** What `executor/undoTurn` takes to undo this turn; only when the turn was checkpointed on its own and changed something. */
  readonly undoId?: string;
}

/** A checkpointed turn: one the executor can undo (an undo's own record is undone to redo it). */
export interface CheckpointedTurn {
  readonly undoId: string;
  readonly kind: 'turn' | 'undo' | 'redo';
  /** The turn's label (first line). */
  readonly title: string;
  /** When the turn ended, ISO 8601. */
  readonly endedAt: string;
  /** The turn an undo or redo reversed. */
  readonly reverses?: string;
}

export interface UndoTurnParams {
  readonly undoId: string;
  /** Overwrite paths that changed since the turn (in VS Code the user is asked first); default: skip and name them. */
  readonly force?: boolean;
}

export interface UndoTurnResponse {
  readonly undone: string;
  /** The undo's own id: `executor/undoTurn` with it is the redo. Absent when the undo was cancelled. */
  readonly redoId?: string;
  /** Absolute paths put back, with what the turn had done to each. */
  readonly restored: readonly { readonly path: string; readonly was: 'created' | 'modified' | 'deleted' }[];
  /** Paths changed since the turn (by someone else or later turns), left as they are. */
  readonly skipped: readonly { readonly path: string; readonly laterTurns: readonly string[] }[];
  /** Paths the checkpoints hold no bytes for (ignored, too large). */
  readonly notRestorable: readonly { readonly path: string; readonly reason: string }[];
  readonly failed: readonly { readonly path: string; readonly error: string }[];
  /** The user cancelled the conflict dialog (VS Code, with force): nothing was written. */
  readonly cancelled: boolean;
}

/** An executor event of one turn (src/executor/contract/events.ts), with the agent's turn id; results in the wire shape. */
export interface EventParams {
  readonly turnId: string;
  readonly event: { readonly type: string; readonly [field: string]: unknown };
}

/** The editor asks the agent to work on the user's chat prompt (VS Code only). */
export interface PromptParams {
  readonly promptId: string;
  readonly prompt: string;
  /** Earlier prompts of this chat and the agent's text for each, oldest first. */
  readonly history?: readonly { readonly prompt: string; readonly response: string }[];
}

export interface PromptResponse {
  readonly stopReason: 'done' | 'cancelled' | 'error';
  readonly message?: string;
}

/** The agent's text for the prompt, a chunk at a time, as markdown. */
export interface ProgressParams {
  readonly promptId: string;
  readonly text: string;
}

/** What an agent started by the editor answers to LSP `initialize` (besides `capabilities: {}`). */
export interface AgentInfo {
  readonly protocolVersion: number;
  /** It answers `agent/prompt`. */
  readonly prompts: boolean;
}

/** The shape of the editor's LSP `initialize` options: what headless `initialize` would have answered. */
export interface AgentInitializationOptions {
  readonly executor: ExecutorInfo;
}

export const Methods = {
  initialize: 'initialize',
  listTools: 'executor/listTools',
  beginTurn: 'executor/beginTurn',
  offer: 'executor/offer',
  endTurn: 'executor/endTurn',
  executeBatch: 'executor/executeBatch',
  cancelTurn: 'executor/cancelTurn',
  listCheckpoints: 'executor/listCheckpoints',
  undoTurn: 'executor/undoTurn',
  event: 'executor/event',
  prompt: 'agent/prompt',
  progress: 'agent/progress',
} as const;

/** Headless only: the agent's first request to `tool-exec serve`. */
export const InitializeRequest = new RequestType<InitializeParams, ExecutorInfo, void>(Methods.initialize);
export const ListToolsRequest = new RequestType0<{ readonly tools: readonly WireTool[] }, void>(Methods.listTools);
export const BeginTurnRequest = new RequestType<BeginTurnParams, { readonly turnId: string }, void>(Methods.beginTurn);
export const OfferRequest = new RequestType<OfferParams, { readonly callId: string }, void>(Methods.offer);
export const EndTurnRequest = new RequestType<TurnParams, TurnResultsResponse, void>(Methods.endTurn);
export const ExecuteBatchRequest = new RequestType<ExecuteBatchParams, TurnResultsResponse, void>(Methods.executeBatch);
export const CancelTurnRequest = new RequestType<TurnParams, { readonly turnId: string; readonly cancelled: boolean }, void>(Methods.cancelTurn);
export const ListCheckpointsRequest = new RequestType0<{ readonly turns: readonly CheckpointedTurn[] }, void>(Methods.listCheckpoints);
export const UndoTurnRequest = new RequestType<UndoTurnParams, UndoTurnResponse, void>(Methods.undoTurn);
export const EventNotification = new NotificationType<EventParams>(Methods.event);
export const PromptRequest = new RequestType<PromptParams, PromptResponse, void>(Methods.prompt);
export const ProgressNotification = new NotificationType<ProgressParams>(Methods.progress);

/**
 * Error codes besides JSON-RPC's own (-32700 parse, -32600 invalid request, -32601 method not found,
 * -32602 invalid params, -32603 internal) and LSP's (-32002 not initialized, -32800 request cancelled).
 */
export const BridgeErrorCodes = {
  ParseError: -32700,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerNotInitialized: -32002,
  RequestCancelled: -32800,
  /** No open turn has this id (never begun, already ended, or cancelled by a restart). */
  UnknownTurn: -32010,
  /** `beginTurn`/`executeBatch` with the id of a turn that is still open. */
  TurnExists: -32011,
  /** `offer` after `endTurn` or `cancelTurn`. */
  TurnClosed: -32012,
  /** `initialize` with another protocol version. */
  UnsupportedProtocolVersion: -32013,
  /** `executeBatch` or `offer` beyond MAX_TURN_CALLS calls in one turn. */
  TooManyCalls: -32014,
  /** `executor/undoTurn` with an id no kept checkpoint has (never checkpointed, or pruned by the retention). */
  UnknownCheckpoint: -32015,
  /** `executor/listCheckpoints` or `undoTurn` where the executor keeps no checkpoints (no workspace folder). */
  NoCheckpoints: -32016,
  /** `executor/undoTurn` of a turn an undo (or redo) already reversed; the message names that one, whose undo brings the turn back. */
  AlreadyUndone: -32017,
} as const;
