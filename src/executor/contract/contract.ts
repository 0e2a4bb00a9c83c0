// The tool contract (spec §1): what a tool declares, what its handler receives and returns.
import type { IgnoredPaths } from '../ports/workspace/ignoredPaths';
import type { JudgedPath } from '../policy/path/judgePath';
import type { z } from 'zod';

/** How far a tool's effects reach. Only `none` lets a read-only tool count as read-only to the scheduler. */
export type SideEffectScope = 'none' | 'session' | 'workspace' | 'external';

/** Spec §1 / §3.7. `{kind:'none'}` means the executor never times the handler. */
export type TimeoutPolicy =
  | { readonly kind: 'none' }
  | {
      readonly kind?: 'deadline';
      /** Used when the call gives no override. */
      readonly defaultMs?: number;
      /** Cap for overrides and computed budgets. */
      readonly maxMs?: number;
      /** Lets `input.timeout_ms` / `input.timeout` set the timeout. */
      readonly allowCallOverride?: boolean;
      /** Added on top so a tool that times itself out gets to report first (Bash: 6 s). */
      readonly cleanupGraceMs?: number;
    };

/** Spec §7. */
export interface ResultBudget {
  /** Budget of model content, in UTF-8 bytes. */
  readonly maxModelBytes: number;
  /** Inline limit when it is lower than `maxModelBytes`. */
  readonly maxInlineBytes?: number;
  readonly strategy: 'artifact' | 'truncate';
  /** When set, truncation keeps only the head or only the tail instead of both thirds. */
  readonly previewDirection?: 'head' | 'tail';
}

/** Where an artifact lives and for how long (spec §8). */
export type ArtifactRetention = 'temporary' | 'session' | 'project';

/** A media part of a result (images); stored as an artifact and referenced. */
export interface MediaPart {
  readonly kind: 'image';
  readonly mimeType: string;
  readonly data: Uint8Array;
}

/** UI projection of a result (spec §9), a discriminated union; each kind limits itself. */
export type ToolDisplay = FileDiffDisplay | BashOutputDisplay;

export interface FileDiffDisplay {
  readonly kind: 'file_diff';
  readonly path: string;
  readonly before: string;
  readonly after: string;
  /** Unified diff text, at most 8 hunks and 160 lines. */
  readonly diff: string;
  readonly truncated: boolean;
}

export interface BashOutputDisplay {
  readonly kind: 'bash_output';
  /** At most 150000 bytes. */
  readonly output: string;
  readonly exitCode?: number | null;
  readonly signal?: string | null;
  readonly truncated: boolean;
}

/** What a handler returns. Expected failures are values (`isError: true`), not throws. */
export interface ToolOutput<D = unknown> {
  /** Text for the model (after `formatModelContent`, if any). */
  readonly content: string;
  /** The tool reports a failure it understood (wrapped in `<tool_use_error>` for the model). */
  readonly isError?: boolean;
  /** Control signal: every later group of the batch is cancelled. */
  readonly stopTurn?: boolean;
  /**
   * With `isError`: the tool stopped its own work at its own timeout (Bash's `timeout`). The result
   * is reported as a timeout, and its content (the output so far) stands.
   */
  readonly timedOut?: boolean;
  /** Structured data for `display` and `formatModelContent`. */
  readonly data?: D;
  readonly media?: readonly MediaPart[];
}

/** Progress reported by a running handler. */
export interface ProgressReport {
  readonly message: string;
  /** 0..100 when known. */
  readonly percent?: number;
}

/**
 * The clock of a call's deadline, as a tool sees it. A tool whose own work waits in a
 * queue that is not its fault (the process-wide model admission gate) pauses it.
 */
export interface DeadlineControl {
  /** Stops the clock until the matching `resume()`; nested pauses count. */
  pause(): void;
  resume(): void;
  /** Total time spent paused so far. */
  readonly queuedMs: number;
}

/** Read-before-write ledger entry. */
export interface FileStamp {
  readonly mtimeMs: number;
  readonly size: number;
}

/** Session-wide memory of which files the model has seen, and in what state. */
export interface FileStateLedger {
  record(absolutePath: string, stamp: FileStamp): void;
  get(absolutePath: string): FileStamp | undefined;
  forget(absolutePath: string): void;
}

/** What `ctx.openOutputStream()` is told. */
export interface OutputStreamOptions {
  /**
   * Build a `bash_output` display from the stream when the result was truncated or persisted
   * (spec §9). The exit code and signal come from `close(...)`.
   */
  readonly display?: 'bash_output';
}

/** How a streaming producer ended, for the `bash_output` display. */
export interface OutputStreamEnd {
  readonly exitCode?: number | null;
  readonly signal?: string | null;
}

/**
 * Streaming output of a handler, in constant memory: the executor keeps only a head,
 * a tail ring buffer and counts, and writes the redacted full stream to an artifact as it arrives,
 * so a command printing 1 GiB never holds it in memory.
 *
 * Contract:
 * - When a handler opened a stream, the result text is the streamed output followed by
 *   `ToolOutput.content` on a new line when that is non-empty (Bash returns e.g. `Exit code: 2`
 *   there). `formatModelContent` applies to `content` alone.
 * - The text is redacted as a stream: a secret split across two chunks is still caught.
 * - Budgets (spec §7) apply to the whole streamed text exactly as to inline content.
 * - Only one stream per call: a second `openOutputStream()` returns the same stream.
 */
export interface ToolOutputStream {
  /**
   * Appends a chunk. Bytes are decoded as UTF-8; a character split across chunks stays whole.
   * Resolves when the chunk is accepted: await it for backpressure (e.g.
   * `for await (const chunk of child.stdout) await stream.write(chunk)`). Never rejects; writes
   * after `close` or after the call ended are dropped.
   */
  write(chunk: string | Uint8Array): Promise<void>;
  /** Ends the stream (optional: the executor closes it when the handler returns). */
  close(end?: OutputStreamEnd): void;
  /** Bytes written so far, before redaction. */
  readonly bytesWritten: number;
}

/** Everything a handler gets besides its input. */
export interface ToolContext {
  readonly callId: string;
  readonly toolName: string;
  readonly sessionId: string;
  /** The first workspace folder (or the CLI's --workspace). */
  readonly workDir: string;
  /** Every workspace folder, absolute. */
  readonly workspaceFolders: readonly string[];
  /** Aborted on cancel and on timeout (with a `ToolTimeoutError` as reason). */
  readonly signal: AbortSignal;
  /**
   * Throws the signal's reason once it is aborted, as `signal.throwIfAborted()` does, without making the
   * signal: a handler that only checks between its steps need not take one (taking it, with its abort at
   * the call's end, was a tenth of a small Read's time).
   */
  throwIfAborted(): void;
  /**
   * Calls `listener` once, with the signal's reason, when the signal would abort: on cancel, on timeout,
   * or (at the next turn of the event loop) when the call is over with the handler still at work; at
   * once if that happened already. Returns the way to stop listening. It makes no signal, which right
   * after a fork is costly (docs/MEASUREMENTS.md, "Call abort").
   */
  onAbort(listener: (reason: unknown) => void): () => void;
  /**
   * How the call reads a path of its input as the policy does (`judgePath`, src/executor/policy/path/judgePath.ts):
   * the permission stage's own reading when it made one (not a second one), else one made now. A tool
   * that opens the path can use its real location without resolving it again.
   */
  judgePath(raw: string): Promise<JudgedPath>;
  /** Agents' ignore files (`.aiignore`, …): tools refuse or skip what they exclude. Absent: none apply. */
  readonly ignored?: IgnoredPaths;
  /** The turn the call belongs to, with the opaque context its host gave `beginTurn`. */
  readonly turn: { readonly id: string; readonly context?: unknown };
  /** Reports progress; the latest report reaches listeners (redacted, rate-limited). */
  progress(report: ProgressReport | string): void;
  readonly deadline: DeadlineControl;
  /**
   * Waits for a slot at the process-wide model admission gate with the deadline paused.
   * Call the returned release when the model request is done.
   */
  admitModelRequest(signal?: AbortSignal): Promise<() => void>;
  readonly files: FileStateLedger;
  /** Resolves `executor-artifact://` URIs to files, so a persisted result can be read back. */
  readonly artifacts?: { resolve(uri: string): string | undefined };
  /**
   * Opens the call's output stream (see `ToolOutputStream`): for producers whose output may be
   * large (the Bash tool), instead of returning it all in `content`.
   */
  openOutputStream(options?: OutputStreamOptions): ToolOutputStream;
}

/** Anything that validates input: a zod schema, or a JSON Schema converted to one. */
export type InputSchema = z.ZodType;

/** A JSON Schema object, as offered to the model and as MCP tools declare it. */
export type JsonSchema = Record<string, unknown>;

/** Result of `prepareApproval`. */
export interface ApprovalPreparation {
  /** `allow` narrows an ordinary ask to allow (never an `alwaysAsk`). */
  readonly decision?: 'allow' | 'ask';
  /** Shown in the approval dialog. */
  readonly preview?: ApprovalPreview;
}

export interface ApprovalPreview {
  readonly title?: string;
  /** Plain text; control characters are escaped before it is shown. */
  readonly detail: string;
  /** What a file would become if the call runs, for a "Review Diff" before answering (Write, Edit). */
  readonly change?: ProposedChange;
}

/** A file's text now and as the call would leave it; shown in a diff editor, never in the dialog. */
export interface ProposedChange {
  /** Absolute. */
  readonly path: string;
  readonly before: string;
  readonly after: string;
}

/** Where `prepareApproval` runs: relative paths are read against these folders, as the tools read them. */
export interface ApprovalContext {
  readonly workspaceFolders: readonly string[];
  /** The call's reading of a path, the one its permission was judged on (`ToolContext.judgePath`). */
  judgePath?(raw: string): Promise<JudgedPath>;
}

/**
 * What a call touches, for permission rules and modes: a file path and how it is
 * accessed, a shell command line, or a URL. Tools that do not declare `permissionSubject` are read
 * through the well-known input fields `path`, `file_path`, `command` and `url`.
 */
export type PermissionSubject =
  | { readonly kind: 'path'; readonly path: string; readonly access: 'read' | 'write' }
  | { readonly kind: 'command'; readonly command: string }
  | { readonly kind: 'url'; readonly url: string };

/**
 * A tool as the registry holds it (spec §1). `I` is the validated input, `D` the output data.
 * Tools whose schema arrives as JSON Schema give `jsonSchema` instead of `inputSchema`.
 */
export interface ToolDefinition<I = any, D = any> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: z.ZodType<I>;
  readonly jsonSchema?: JsonSchema;
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  readonly concurrentSafe?: boolean;
  readonly sideEffectScope?: SideEffectScope;
  readonly permission?: { readonly alwaysAsk?: boolean };
  readonly timeout?: TimeoutPolicy;
  /** Legacy metadata timeout, below `timeout.defaultMs` in the priority chain. */
  readonly metadata?: { readonly timeoutMs?: number };
  readonly resultBudget?: ResultBudget;
  readonly artifactRetention?: ArtifactRetention;
  /** Normalisation, run once before anything reads the input (spec §3.3). */
  resolveInput?(input: I): I;
  /** May narrow an ask to allow or add a preview; a throw still asks (spec §3.6). */
  prepareApproval?(input: I, signal: AbortSignal, context: ApprovalContext): ApprovalPreparation | Promise<ApprovalPreparation>;
  /**
   * What this call touches, for rules and modes; computed from the resolved input. Undefined (or an
   * empty list) for a call that touches nothing a rule can name.
   */
  permissionSubject?(input: I): PermissionSubject | readonly PermissionSubject[] | undefined;
  /** Tool-computed timeout, first after `kind:'none'` in the priority chain. */
  resolveTimeoutBudgetMs?(input: I): number | undefined;
  handler(input: I, ctx: ToolContext): Promise<ToolOutput<D>> | ToolOutput<D>;
  formatModelContent?(output: ToolOutput<D>): string;
  /** Replaces the generic envelope when the output was persisted as an artifact. */
  formatPersistedModelContent?(info: PersistedOutputInfo): string;
  readonly cancellation?: { readonly userVisibleMessage?: string };
  display?(output: ToolOutput<D>, input: I): ToolDisplay | undefined;
}

/** What a tool's persisted-content formatter is told. */
export interface PersistedOutputInfo {
  readonly originalBytes: number;
  readonly originalChars: number;
  readonly path: string;
  readonly uri: string;
  readonly preview: string;
  readonly hasMore: boolean;
}

/** One call as the model sent it. `input` is an object, or the model's raw argument text. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}
