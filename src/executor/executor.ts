// The executor's public face: execute, executeBatch, executeSchedule, trackExternalBackgroundTask.
import { randomUUID } from 'node:crypto';
import { BackgroundTasks, type ExternalBackgroundTask, type TrackedTask } from './backgroundTasks';
import { DEFAULT_MAX_CONCURRENCY, runSchedule, type BatchOptions } from './batchRunner';
import type { ExecutorDeps } from './callState';
import { runCall } from './callRunner';
import type { FileStateLedger, ToolCall } from './contract';
import { DEFAULT_MAX_MODEL_BYTES } from './budget';
import { canDispatchEarly } from './earlyDispatch';
import { EventEmitter, type ExecutorEvent, type ExecutorEventListener } from './events';
import { InMemoryFileLedger } from './fileLedger';
import { combineHookSources, HookRegistry } from './hookChain';
import { openAdmissionGate } from './limiter';
import { RulesPolicy } from './policy/rulesPolicy';
import type { AdmissionGate } from './ports/admissionGate';
import type { ApprovalClient } from './ports/approvalClient';
import type { ArtifactStore } from './ports/artifactStore';
import type { HookSource } from './ports/hooks';
import { nullLogger, type Logger } from './ports/logger';
import type { PermissionPolicy } from './ports/permissionPolicy';
import { noRedaction, type Redactor } from './ports/redactor';
import type { SessionRecorder } from './ports/sessionRecorder';
import type { Telemetry } from './ports/telemetry';
import { applyTotalBudget } from './results/batchBudget';
import { redactingLogger } from './results/redaction/redactingLogger';
import type { WorkspaceSnapshotter } from './ports/workspaceSnapshotter';
import { ToolRegistry } from './registry';
import type { ToolCallResult } from './result';
import { scheduleCalls, type ScheduleGroup } from './scheduler';
import { DEFAULT_TOOL_TIMEOUT_MS } from './stages/timeout';
import { noTelemetry } from './telemetry';

export interface ExecutorOptions {
  readonly workspaceFolders: readonly string[];
  readonly registry?: ToolRegistry;
  /** @default a random UUID */
  readonly sessionId?: string;
  /** @default `new RulesPolicy()`: default mode, no rules (paths, sensitive files and session approvals still apply) */
  readonly permissionPolicy?: PermissionPolicy;
  /** Absent: every ask is denied with `No permission client configured`. */
  readonly approvalClient?: ApprovalClient;
  /** Hooks besides the ones registered through `executor.hooks`. */
  readonly hooks?: HookSource;
  readonly snapshotter?: WorkspaceSnapshotter;
  readonly redactor?: Redactor;
  readonly artifactStore?: ArtifactStore;
  /** One JSONL entry per call (see `results/sessionRecord.ts`). */
  readonly sessionRecorder?: SessionRecorder;
  readonly telemetry?: Telemetry;
  readonly logger?: Logger;
  readonly admissionGate?: AdmissionGate;
  readonly files?: FileStateLedger;
  /** @default 300000 */
  readonly defaultTimeoutMs?: number;
  /** @default 5 */
  readonly maxConcurrency?: number;
  /** Budget of tools that declare none. @default 262144 */
  readonly maxModelBytes?: number;
  /** Total budget of all model contents of one batch (spec §7). @default undefined (none) */
  readonly maxTotalResultBytes?: number;
  /** @default undefined (wait as long as the turn lasts) */
  readonly approvalTimeoutMs?: number;
}

export class ToolExecutor {
  readonly registry: ToolRegistry;
  /** Programmatic hooks (spec §3.4): register with `executor.hooks.register(hook)`. */
  readonly hooks = new HookRegistry();
  readonly backgroundTasks: BackgroundTasks;
  readonly sessionId: string;
  private readonly events: EventEmitter<ExecutorEvent>;
  private readonly deps: ExecutorDeps;
  private readonly maxConcurrency: number;
  private readonly maxTotalResultBytes: number | undefined;

  constructor(options: ExecutorOptions) {
    const redactor = options.redactor ?? noRedaction;
    // Logs are a fork of the result too: secrets are masked there as well (spec §6).
    const logger = redactingLogger(options.logger ?? nullLogger, redactor);
    this.events = new EventEmitter((error) => logger.error('executor.listener_failed', { error: String(error) }));
    this.registry = options.registry ?? new ToolRegistry();
    this.sessionId = options.sessionId ?? randomUUID();
    this.maxConcurrency = options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
    this.maxTotalResultBytes = options.maxTotalResultBytes;
    this.backgroundTasks = new BackgroundTasks((task) =>
      this.events.emit(
        task.status === 'running'
          ? { type: 'backgroundTaskStarted', taskId: task.id, name: task.name, description: task.description }
          : { type: 'backgroundTaskEnded', taskId: task.id, status: task.status },
      ),
    );
    this.deps = {
      registry: this.registry,
      sessionId: this.sessionId,
      workspaceFolders: options.workspaceFolders,
      permissionPolicy: options.permissionPolicy ?? new RulesPolicy(),
      approvalClient: options.approvalClient,
      hooks: options.hooks ? combineHookSources(this.hooks, options.hooks) : this.hooks,
      snapshotter: options.snapshotter,
      redactor,
      artifactStore: options.artifactStore,
      sessionRecorder: options.sessionRecorder,
      telemetry: options.telemetry ?? noTelemetry,
      logger,
      admissionGate: options.admissionGate ?? openAdmissionGate,
      files: options.files ?? new InMemoryFileLedger(),
      defaultTimeoutMs: options.defaultTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
      defaultResultBudget: { maxModelBytes: options.maxModelBytes ?? DEFAULT_MAX_MODEL_BYTES, strategy: 'artifact' },
      approvalTimeoutMs: options.approvalTimeoutMs,
      emit: (event) => this.events.emit(event),
    };
  }

  /** Subscribes to executor events; returns the unsubscribe function. */
  onEvent(listener: ExecutorEventListener): () => void {
    return this.events.on(listener);
  }

  get files(): FileStateLedger {
    return this.deps.files;
  }

  /** Groups calls per spec §2 without running them. */
  schedule<C extends ToolCall>(calls: readonly C[]): ScheduleGroup<C>[] {
    return scheduleCalls(calls, this.registry);
  }

  /** Runs one call through the whole pipeline. */
  execute(call: ToolCall, options: Omit<BatchOptions, 'maxConcurrency'> = {}): Promise<ToolCallResult> {
    return runCall(withId(call, 0), this.deps, { signal: options.signal, offeredTools: options.offeredTools });
  }

  /** Schedules and runs a batch; one result per call, in the model's order. */
  executeBatch(calls: readonly ToolCall[], options: BatchOptions = {}): Promise<ToolCallResult[]> {
    return this.executeSchedule(this.schedule(calls.map(withId)), options);
  }

  /** Runs a precomputed schedule group by group, emitting group start/end events. */
  async executeSchedule(groups: readonly ScheduleGroup[], options: BatchOptions = {}): Promise<ToolCallResult[]> {
    const results = await runSchedule(groups, this.deps, options.maxConcurrency ?? this.maxConcurrency, options);
    return applyTotalBudget(results, options.maxTotalResultBytes ?? this.maxTotalResultBytes);
  }

  /** Whether a call may start while the model is still streaming (spec §2 early dispatch). */
  canDispatchEarly(call: ToolCall, signal: AbortSignal = new AbortController().signal): Promise<boolean> {
    return canDispatchEarly(call, this.deps, signal);
  }

  /** Tracks a background task this turn did not start (e.g. a resumed workflow run). */
  trackExternalBackgroundTask(task: ExternalBackgroundTask): TrackedTask {
    return this.backgroundTasks.track(task);
  }

  /** Stops background tasks and drops listeners. */
  async dispose(): Promise<void> {
    await this.backgroundTasks.dispose();
    this.events.dispose();
  }
}

/** Calls without an id get one, so every result can be matched to its call. */
function withId(call: ToolCall, index: number): ToolCall {
  return typeof call.id === 'string' && call.id.length > 0 ? call : { ...call, id: `call_${index}_${randomUUID().slice(0, 8)}` };
}
