// The executor's public face: beginTurn, executeBatch, execute, trackExternalBackgroundTask.
import { randomUUID } from 'node:crypto';
import { BackgroundTasks, type ExternalBackgroundTask, type TrackedTask } from './turn/backgroundTasks';
import { DEFAULT_MAX_CONCURRENCY } from './turn/batchRunner';
import type { ExecutorDeps } from './call/callState';
import type { FileStateLedger, ToolCall } from './contract/contract';
import { DEFAULT_MAX_MODEL_BYTES } from './results/budget';
import { canDispatchEarly } from './turn/earlyDispatch';
import { EventEmitter, type ExecutorEvent, type ExecutorEventListener } from './contract/events';
import { InMemoryFileLedger } from './fileLedger';
import { combineHookSources, HookRegistry } from './call/hookChain';
import { openAdmissionGate, Semaphore } from './turn/limiter';
import { RulesPolicy } from './policy/rulesPolicy';
import type { AdmissionGate } from './ports/admissionGate';
import type { ApprovalClient } from './ports/approvalClient';
import type { ArtifactStore } from './ports/workspace/artifactStore';
import type { HookSource } from './ports/hooks';
import type { IgnoredPaths } from './ports/workspace/ignoredPaths';
import { nullLogger, type Logger } from './ports/logger';
import type { PermissionPolicy } from './ports/permissionPolicy';
import { noRedaction, type Redactor } from './ports/redactor';
import type { SessionRecorder } from './ports/sessionRecorder';
import type { Telemetry } from './ports/telemetry';
import { redactingLogger } from './results/redaction/redactingLogger';
import type { WorkspaceSnapshotter } from './ports/workspace/workspaceSnapshotter';
import { ToolRegistry } from './contract/registry';
import type { ToolCallResult } from './contract/result';
import { scheduleCalls, type ScheduleGroup } from './turn/scheduler';
import { Turn, type TurnHost, type TurnOptions } from './turn/turn';
import { DEFAULT_TOOL_TIMEOUT_MS } from './call/stages/run/timeout';
import { DeadlineClock } from './call/deadlineClock';
import { noTelemetry } from './inMemoryTelemetry';

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
  /** Agents' ignore files (`.aiignore`, …): the tools refuse or skip what they exclude. */
  readonly ignored?: IgnoredPaths;
  /** @default 300000 */
  readonly defaultTimeoutMs?: number;
  /** The clock the calls' deadlines run on; a host shares one with its tools. @default a clock of this executor's own */
  readonly clock?: DeadlineClock;
  /** Handlers running at once across every turn of this executor. @default 5 */
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
  private deps: ExecutorDeps;
  private turnHost: TurnHost;
  private readonly limiter: Semaphore;

  constructor(options: ExecutorOptions) {
    const redactor = options.redactor ?? noRedaction;
    // Logs are a fork of the result too: secrets are masked there as well (spec §6).
    const logger = redactingLogger(options.logger ?? nullLogger, redactor);
    this.events = new EventEmitter((error) => logger.error('executor.listener_failed', { error: String(error) }));
    this.registry = options.registry ?? new ToolRegistry();
    this.sessionId = options.sessionId ?? randomUUID();
    this.backgroundTasks = new BackgroundTasks((task) =>
      this.events.emit(
        task.status === 'running'
          ? { type: 'backgroundTaskStarted', taskId: task.id, name: task.name, description: task.description }
          : { type: 'backgroundTaskEnded', taskId: task.id, status: task.status },
      ),
      redactor,
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
      ignored: options.ignored,
      defaultTimeoutMs: options.defaultTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
      clock: options.clock ?? new DeadlineClock(),
      defaultResultBudget: { maxModelBytes: options.maxModelBytes ?? DEFAULT_MAX_MODEL_BYTES, strategy: 'artifact' },
      approvalTimeoutMs: options.approvalTimeoutMs,
      // Every call runs in a turn, which replaces this with its own emitter.
      emit: (event) => this.events.emit({ ...event, turnId: '' }),
    };
    this.limiter = new Semaphore(Math.max(1, options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY));
    const events = this.events;
    this.turnHost = {
      deps: this.deps,
      slots: this.limiter,
      emit: (event) => events.emit(event),
      get listening() {
        return events.size > 0;
      },
      maxTotalResultBytes: options.maxTotalResultBytes,
    };
  }

  /**
   * Applies changed settings without a restart: the limiter takes the new number at once (running
   * handlers finish); the default timeout applies to turns that begin from now on.
   */
  configure(settings: { readonly maxConcurrency?: number; readonly defaultTimeoutMs?: number }): void {
    if (settings.maxConcurrency !== undefined) this.limiter.setLimit(Math.max(1, settings.maxConcurrency));
    if (settings.defaultTimeoutMs !== undefined) {
      this.deps = { ...this.deps, defaultTimeoutMs: settings.defaultTimeoutMs };
      this.turnHost = { ...this.turnHost, deps: this.deps };
    }
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

  /**
   * Begins a turn: offer its calls as the model streams them, then `end()` and await `results()`.
   * Qualifying calls start while the model still streams (spec §2); see `Turn`.
   */
  beginTurn(options: TurnOptions = {}): Turn {
    return new Turn(this.turnHost, options);
  }

  /** A turn whose calls are all known: begin, offer all, end. One result per call, in the model's order. */
  executeBatch(calls: readonly ToolCall[], options: TurnOptions = {}): Promise<ToolCallResult[]> {
    const turn = this.beginTurn(options);
    for (const call of calls) turn.offer(call);
    turn.end();
    return turn.results();
  }

  /** Runs one call through the whole pipeline, as a turn of its own. */
  async execute(call: ToolCall, options: TurnOptions = {}): Promise<ToolCallResult> {
    const [result] = await this.executeBatch([call], options);
    return result!;
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
