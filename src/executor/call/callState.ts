// What the stages of one call share: the executor's ports, the call's options, and its mutable state.
import type { FileStateLedger, ResultBudget, ToolCall, ToolDisplay, ToolOutput } from '../contract/contract';
import type { ToolDeadline } from './deadline';
import type { DeadlineClock } from './deadlineClock';
import type { CallEvent, CallFlags } from '../contract/events';
import type { ToolEntry, ToolRegistry } from '../contract/registry';
import type { AdmissionGate } from '../ports/admissionGate';
import type { ApprovalClient } from '../ports/approvalClient';
import type { ArtifactStore } from '../ports/workspace/artifactStore';
import type { HookSource } from '../ports/hooks';
import type { IgnoredPaths } from '../ports/workspace/ignoredPaths';
import type { Logger } from '../ports/logger';
import type { PermissionDecision, PermissionPolicy } from '../ports/permissionPolicy';
import type { Redactor } from '../ports/redactor';
import type { SessionRecorder } from '../ports/sessionRecorder';
import type { Span, Telemetry } from '../ports/telemetry';
import type { SnapshotSession, WorkspaceSnapshotter } from '../ports/workspace/workspaceSnapshotter';
import { sharedJudge, type PathJudge } from '../policy/path/judgePath';
import type { LiveCallEvents } from '../results/stream/liveEvents';
import type { OutputCollector } from '../results/stream/outputStream';
import type { ArtifactRef, BudgetStrategy, DecidedBy, ErrorKind, FailureStage, PermissionRecord, WorkspaceChange } from '../contract/result';

/** The executor's ports, fixed for its lifetime. */
export interface ExecutorDeps {
  readonly registry: ToolRegistry;
  readonly sessionId: string;
  readonly workspaceFolders: readonly string[];
  readonly permissionPolicy: PermissionPolicy;
  /** Absent: every ask is denied with `No permission client configured`. */
  readonly approvalClient?: ApprovalClient;
  readonly hooks: HookSource;
  readonly snapshotter?: WorkspaceSnapshotter;
  readonly redactor: Redactor;
  readonly artifactStore?: ArtifactStore;
  /** One JSONL entry per call, enough to replay the session. */
  readonly sessionRecorder?: SessionRecorder;
  readonly telemetry: Telemetry;
  readonly logger: Logger;
  readonly admissionGate: AdmissionGate;
  readonly files: FileStateLedger;
  /** Agents' ignore files; absent: none apply. */
  readonly ignored?: IgnoredPaths;
  /** Timeout of tools that declare none. */
  readonly defaultTimeoutMs: number;
  /** The clock every call's deadline runs on. */
  readonly clock: DeadlineClock;
  /** Budget of tools that declare none. */
  readonly defaultResultBudget: ResultBudget;
  /** Denies an approval nobody answered in time; undefined waits for as long as the turn lasts. */
  readonly approvalTimeoutMs?: number;
  /** The turn's emitter: it tags each event with the turn's id. */
  emit(event: CallEvent): void;
}

/** What a call knows of the turn it runs in; handlers see `id` and `context` as `ctx.turn`. */
export interface TurnInfo {
  readonly id: string;
  /** `performance.now()` when the turn began: `timing.startMs`/`endMs` count from here. */
  readonly startedAt: number;
  /** Opaque to the executor; what the host gave `beginTurn` (VS Code: the chat request's token). */
  readonly context?: unknown;
}

/** Per-call options, from the turn. */
export interface CallOptions {
  readonly turn?: TurnInfo;
  /** The call must not run (a turn stop): this failure is its result, through the usual later stages. */
  readonly preempted?: StageFailure;
  /** The turn's signal: aborting it cancels the call. */
  readonly signal?: AbortSignal;
  /** The 0-based schedule group. */
  readonly group?: number;
  /** Tools offered to the model this turn; others are refused at lookup. Undefined: all enabled tools. */
  readonly offeredTools?: ReadonlySet<string>;
}

/** A failure that ends the pipeline early; turned into a result at one edge (`finish.ts`). */
export interface StageFailure {
  readonly kind: ErrorKind;
  readonly stage: FailureStage;
  /** The model-facing message (before redaction and hook context). */
  readonly message: string;
  readonly errorClass: string;
  /** Wrap in `<tool_use_error>` (validation and tool-reported failures). */
  readonly wrap?: boolean;
}

/** Mutable state of one call as it moves through the stages. */
export class CallState {
  readonly startedAt = performance.now();
  entry: ToolEntry | undefined;
  /** Parsed, then validated, then resolved input: the same bytes for everyone after stage 3. */
  input: unknown;
  flags: CallFlags | undefined;
  preToolUse: { decision?: 'allow' | 'deny' | 'ask'; hook?: string; reason?: string } = {};
  permissionDecision: PermissionDecision | undefined;
  permission: PermissionRecord = { outcome: 'none' };
  permissionWaitMs = 0;
  hookContext: string[] = [];
  timeoutMs: number | undefined;
  deadline: ToolDeadline | undefined;
  snapshot: SnapshotSession | undefined;
  changes: readonly WorkspaceChange[] = [];
  output: ToolOutput | undefined;
  /** The handler's streamed output, when it opened a stream (`ctx.openOutputStream`). */
  outputStream: OutputCollector | undefined;
  /** Set once the handler was started: failures then run PostToolUseFailure hooks. */
  handlerStarted = false;
  /** `performance.now()` when the handler started and when it settled (or the call stopped waiting for it). */
  handlerStartedAt: number | undefined;
  handlerEndedAt: number | undefined;
  /** Live output and progress events while the handler runs; disposed before the result is built. */
  live: LiveCallEvents | undefined;
  /** Set when `live` was disposed: later reports of a handler still running go nowhere. */
  liveEnded = false;
  failure: StageFailure | undefined;
  modelContent = '';
  text = '';
  truncated = false;
  strategy: BudgetStrategy = 'inline';
  originalBytes = 0;
  artifact: ArtifactRef | undefined;
  display: ToolDisplay | undefined;
  private judge: PathJudge | undefined;

  constructor(
    readonly call: ToolCall,
    readonly options: CallOptions,
    /** Aborted with the turn; the handler's own controller hangs below it. */
    readonly signal: AbortSignal,
    readonly span: Span,
  ) {
    this.input = call.input;
  }

  get toolName(): string {
    return this.call.name;
  }

  /** The call's readings of its paths (`sharedJudge`), made on first use: the policy's and the handler's are one. */
  get judgePath(): PathJudge {
    return (this.judge ??= sharedJudge());
  }

  /** Records a permission outcome for the span and the result. */
  decide(outcome: PermissionRecord['outcome'], by: DecidedBy, detail?: string): void {
    this.permission = detail === undefined ? { outcome, by } : { outcome, by, detail };
  }
}
