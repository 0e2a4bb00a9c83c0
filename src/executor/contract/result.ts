// What one call produces: the model projection, the UI projection and its bookkeeping (spec §9, §10).
import type { MediaPart, ToolDisplay } from './contract';

/** Why a call failed, as the CLI and the events name it. */
export type ErrorKind = 'invocation' | 'permission' | 'execution' | 'timeout' | 'cancelled';

/** The pipeline stage where a call failed (telemetry). */
export type FailureStage = 'lookup' | 'validate' | 'hook' | 'permission' | 'handler' | 'serialize' | 'post-hook';

export type PermissionOutcome = 'none' | 'approved' | 'denied';

/** Who decided: the mode, a rule, a hook, the user, the tool's own `prepareApproval`, or the executor. */
export type DecidedBy = 'mode' | 'rule' | 'hook' | 'user' | 'tool' | 'executor';

export interface PermissionRecord {
  readonly outcome: PermissionOutcome;
  readonly by?: DecidedBy;
  /** The rule, hook or message behind the decision, when there is one. */
  readonly detail?: string;
}

export interface CallTiming {
  /** From lookup to the end of the PostToolUse hooks. */
  readonly totalMs: number;
  /** Time spent waiting for an approval answer (not counted in the tool timeout). */
  readonly permissionWaitMs: number;
  /** Time the deadline was paused while a model request of the tool was queued. */
  readonly queuedMs: number;
  /** Milliseconds from the start of the turn to the handler's start; null when the handler never ran. */
  readonly startMs: number | null;
  /** Milliseconds from the start of the turn to the handler's end; null when the handler never ran. */
  readonly endMs: number | null;
}

/** How the model content was sized (spec §7). */
export type BudgetStrategy = 'empty' | 'inline' | 'artifact' | 'truncate';

export interface ArtifactRef {
  /** `executor-artifact://<session>/<artifactId>` */
  readonly uri: string;
  /** Absolute path of the file. */
  readonly path: string;
}

/** One change seen in the workspace while a call ran (spec §5). */
export interface WorkspaceChange {
  readonly kind: 'created' | 'modified' | 'deleted';
  /** Relative to its workspace folder (prefixed with the folder's name when there are several). */
  readonly path: string;
  readonly absolutePath: string;
  readonly sizeBefore?: number;
  readonly sizeAfter?: number;
  /** Modification time after the call, for the read-before-write baseline. */
  readonly mtimeAfterMs?: number;
}

/** The result of one call, model and UI projections together. Every call gets exactly one. */
export interface ToolCallResult {
  readonly callId: string;
  /** The name the model used (even for unknown tools). */
  readonly name: string;
  /** 0-based schedule group, when run through a schedule. */
  readonly group?: number;
  readonly isError: boolean;
  readonly errorKind: ErrorKind | null;
  /** Exactly what the model receives. */
  readonly modelContent: string;
  /**
   * Redacted, unbudgeted text of the output (UI); for failures, the error message. Streamed output
   * past the spill size was never held whole: this is its head and tail, the whole is in `artifact`.
   */
  readonly text: string;
  readonly display?: ToolDisplay;
  readonly media?: readonly MediaPart[];
  readonly truncated: boolean;
  readonly strategy: BudgetStrategy;
  readonly originalBytes: number;
  readonly modelBytes: number;
  readonly artifact?: ArtifactRef;
  readonly changes: readonly WorkspaceChange[];
  readonly stopTurn: boolean;
  readonly permission: PermissionRecord;
  readonly timing: CallTiming;
  readonly failure?: { readonly stage: FailureStage; readonly errorClass: string; readonly message: string };
}
