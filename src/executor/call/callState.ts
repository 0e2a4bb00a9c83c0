// What the stages of one call share: the executor's ports, the call's options, and its state in
// records by phase, each written only by the stages it is handed to.
import type { FileStateLedger, ResultBudget, ToolCall, ToolDisplay, ToolOutput } from '../contract/contract';
import type { ToolDeadline } from './deadline';
import type { DeadlineClock } from './deadlineClock';
import type { CallEvent, CallFlags } from '../contract/events';
import type { ToolEntry, ToolRegistry } from '../contract/registry';
import type { AdmissionGate } from '../ports/admissionGate';
import type { ApprovalClient } from '../ports/approvalClient';
import type { TurnCheckpoint } from '../ports/workspace/turnCheckpoint';
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
  /** The turn's checkpoint, taken before the first call that may write. */
  readonly checkpoint?: TurnCheckpoint;
  /** Set by early dispatch, which ran stages 1-3 and the policy for this call: the pipeline does not repeat them. */
  readonly prejudged?: Prejudged;
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

/** Stages 1-3 (lookup, validate, resolveInput) write it: which tool, with which input. */
export class AdmissionRecord {
  /** Stage 1. */
  entry: ToolEntry | undefined = undefined;
  flags: CallFlags | undefined = undefined;
  /** The raw input, then validated (stage 2), then resolved and frozen (stage 3): the same bytes for everyone after. */
  input: unknown;

  constructor(input: unknown) {
    this.input = input;
  }
}

/** A call through stages 1-3: what early dispatch hands to the pipeline with its judgement. */
export interface Admission {
  readonly entry: ToolEntry;
  readonly flags: CallFlags;
  readonly input: unknown;
}

/**
 * Early dispatch's judgement of a call that starts at once: its admission and the policy's decision
 * (before the forced asks, the hook decision and the agent-memory rule, which the permission stage
 * still lays over it), with the path readings the policy made, which the call goes on sharing.
 */
export interface Prejudged {
  readonly admission: Admission;
  readonly decision: PermissionDecision;
  readonly judgePath: PathJudge;
}

/** Stages 4-6 (PreToolUse hooks, permission, approval) write it. */
export class PermissionState {
  /** Stage 4: the PreToolUse hook that decided. */
  preToolUse: { readonly decision?: 'allow' | 'deny' | 'ask'; readonly hook?: string; readonly reason?: string } = {};
  /** Stage 5: the policy's decision with the hook's, the forced asks and the agent-memory rule laid over it. */
  decision: PermissionDecision | undefined = undefined;
  /** What the result reports: the outcome and who decided (stages 4-6, through `decide`). */
  record: PermissionRecord = { outcome: 'none' };
  /** Stage 6: how long the user (or a hook) took to answer. */
  waitMs = 0;
  /** The PreToolUse and PermissionRequest hooks' additional context, in order. */
  hookContext: readonly string[] = [];
}

/** Records a permission outcome for the span and the result. */
export function decide(own: Pick<PermissionState, 'record'>, outcome: PermissionRecord['outcome'], by: DecidedBy, detail?: string): void {
  own.record = detail === undefined ? { outcome, by } : { outcome, by, detail };
}

/** Stages 7-10 (timeout, snapshots, handler) write it. */
export class RunState {
  /** Stage 7. */
  timeoutMs: number | undefined = undefined;
  /** Stage 8 takes it, stage 10 finishes it. */
  snapshot: SnapshotSession | undefined = undefined;
  /** Stage 10. */
  changes: readonly WorkspaceChange[] = [];
  /** Stage 9, as every field below. */
  deadline: ToolDeadline | undefined = undefined;
  output: ToolOutput | undefined = undefined;
  /** The handler's streamed output, when it opened a stream (`ctx.openOutputStream`). */
  outputStream: OutputCollector | undefined = undefined;
  /** Set once the handler was started: failures then run PostToolUseFailure hooks. */
  handlerStarted = false;
  /** `performance.now()` when the handler started and when it settled (or the call stopped waiting for it). */
  handlerStartedAt: number | undefined = undefined;
  handlerEndedAt: number | undefined = undefined;
  /** Live output and progress events while the handler runs; disposed before the result is built. */
  live: LiveCallEvents | undefined = undefined;
  /** Set when `live` was disposed: later reports of a handler still running go nowhere. */
  liveEnded = false;
}

/** Stages 11-13 (redact, serialize, PostToolUse hooks) write it; the runner sets the failure of stages 1-9, and all of it when a later stage has a bug. */
export class ResultState {
  /** The runner; stage 11 redacts its message. */
  failure: StageFailure | undefined = undefined;
  /** Stage 11 (redacted); stage 12 replaces it with the collected stream or a note of no output. */
  text = '';
  /** Stage 12; stage 13 adds the hooks' context. */
  modelContent = '';
  /** Stage 12, as every field below. */
  truncated = false;
  strategy: BudgetStrategy = 'inline';
  originalBytes = 0;
  artifact: ArtifactRef | undefined = undefined;
  display: ToolDisplay | undefined = undefined;
}

/** The writable records of one call: only the runner holds them, and hands each stage the part it writes. */
export interface CallRecords {
  readonly admission: AdmissionRecord;
  readonly permission: PermissionState;
  readonly run: RunState;
  readonly result: ResultState;
}

/** One call as it moves through the stages; every stage reads all of it, and writes only the record it is handed. */
export class CallState {
  readonly startedAt = performance.now();
  readonly admission: Readonly<AdmissionRecord>;
  readonly permission: Readonly<PermissionState>;
  readonly run: Readonly<RunState>;
  readonly result: Readonly<ResultState>;
  private judge: PathJudge | undefined;

  constructor(
    readonly call: ToolCall,
    readonly options: CallOptions,
    /** Aborted with the turn; the handler's own controller hangs below it. */
    readonly signal: AbortSignal,
    readonly span: Span,
    records: CallRecords,
  ) {
    this.admission = records.admission;
    this.permission = records.permission;
    this.run = records.run;
    this.result = records.result;
    this.judge = options.prejudged?.judgePath;
  }

  get toolName(): string {
    return this.call.name;
  }

  get entry(): ToolEntry | undefined {
    return this.admission.entry;
  }

  get flags(): CallFlags | undefined {
    return this.admission.flags;
  }

  /** What hooks, rules, events, the preview and the handler see. */
  get input(): unknown {
    return this.admission.input;
  }

  /** The call's readings of its paths (`sharedJudge`), made on first use: the policy's and the handler's are one. */
  get judgePath(): PathJudge {
    return (this.judge ??= sharedJudge());
  }
}

/** A call's state and its writable records, which only the runner keeps. */
export function openCall(call: ToolCall, options: CallOptions, signal: AbortSignal, span: Span): { readonly state: CallState; readonly own: CallRecords } {
  const admission = new AdmissionRecord(call.input);
  const prejudged = options.prejudged?.admission;
  if (prejudged) {
    // Early dispatch ran stages 1-3 for this call: the pipeline starts from their outcome.
    admission.entry = prejudged.entry;
    admission.flags = prejudged.flags;
    admission.input = prejudged.input;
  }
  const own: CallRecords = { admission, permission: new PermissionState(), run: new RunState(), result: new ResultState() };
  return { state: new CallState(call, options, signal, span, own), own };
}
