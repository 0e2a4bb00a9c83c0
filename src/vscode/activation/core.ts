// The extension's core: the executor with its ports' adapters and its tools, started the first time
// activation's parts use it rather than at activation, so activation loads none of its code.
import * as vscode from 'vscode';
import { DeadlineClock, ToolExecutor } from '../../executor';
import type { IgnoredPaths } from '../../executor';
import { installFileSystemProbe, ToolRegistry } from '../../executor';
import { NodeArtifactStore } from '../../node/artifacts/nodeArtifactStore';
import { NodeWorkspaceSnapshotter } from '../../node/snapshot/nodeSnapshotter';
import { nodeFileSystemProbe } from '../../node/runtime/fileSystemProbe';
import { processMountTable } from '../../node/runtime/localMounts';
import { startThreadClock } from '../../node/runtime/threadCpu';
import { findVsCodeRipgrep, ProcessSupervisor, registerBuiltinTools } from '../../tools/index';
import { BashSandbox } from '../../tools/sandbox/bashSandbox';
import { coreLoad } from '../coreModules';
import { lazily } from '../lazily';
import { ExternalTools } from '../lmTools/externalTools';
import type { OutputChannelLogger } from '../logChannel';
import type { ModalApprovalClient } from '../permissions/approvalDialog';
import { SettingsPermissions } from '../permissions/permissionSettings';
import type { LiveRedactor } from '../results/liveRedactor';
import type { ToolCallsView } from '../toolCalls/view';
import { applyExecutorSettingsLive } from '../workspace/liveExecutorSettings';
import { watchedIgnoreFiles } from '../workspace/ignoreFilesWatch';

/** The extension's settings section. */
export const CONFIG_SECTION = 'agentToolExecutor';

/** What the core is started with: what activation made, which the core's parts use. */
export interface CoreWiring {
  readonly context: vscode.ExtensionContext;
  readonly sessionId: string;
  readonly logger: OutputChannelLogger;
  readonly workspaceFolders: string[];
  readonly approvalClient: ModalApprovalClient;
  readonly redactor: LiveRedactor;
  readonly view: ToolCallsView;
}

/** The core's parts that activation's parts use, made when first used. */
export interface Core {
  readonly executor: ToolExecutor;
  readonly registry: ToolRegistry;
  readonly permissions: SettingsPermissions;
  readonly artifactStore: NodeArtifactStore;
  readonly externalTools: ExternalTools;
  readonly ignored: IgnoredPaths;
  readonly sandbox: BashSandbox;
  /** Ends what the core started: the executor's calls, their processes, the watcher, the session's artifacts. */
  end(): Promise<void>;
}

/** The core, started by the first `get()`; one that failed to start is not started again (half of it may run). */
export class CoreOnFirstUse {
  private core: Core | undefined;
  private failed: { readonly error: unknown } | undefined;
  /** Stand-ins for the executor and the permissions, which start the core when first read. */
  readonly executor = lazily(() => this.get().executor);
  readonly permissions = lazily(() => this.get().permissions);

  /** `wiring` is read when the core starts, so it may name what activation makes after this. */
  constructor(private readonly wiring: () => CoreWiring) {}

  /** The core, started now if it was not; each use after a failed start gets its error. */
  get(): Core {
    if (this.core) return this.core;
    if (this.failed) throw this.failed.error;
    const wiring = this.wiring();
    try {
      return (this.core = startCore(wiring));
    } catch (error) {
      this.failed = { error };
      wiring.logger.error('core.start_failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      throw error;
    }
  }

  /** The core if it started; undefined before its first use. */
  get started(): Core | undefined {
    return this.core;
  }
}

/**
 * The core: the executor with its ports' adapters and its tools, started the first time activation's parts
 * need it. Logged as `core.started`: loading its code (`dist/extension-core.js`: `loadMs`, `loadCpuMs`) and
 * starting it (`startMs`, `startCpuMs`), apart.
 */
function startCore(wiring: CoreWiring): Core {
  const clock = startThreadClock();
  // The core's code is loaded by the first of its names read below, unless something read one before.
  const loadedBefore = coreLoad() !== undefined;
  const { context, sessionId, logger, workspaceFolders, approvalClient, redactor, view } = wiring;
  const subscriptions = context.subscriptions;
  // Paths are resolved on this machine's file system, before any tool or rule can ask for one.
  installFileSystemProbe(nodeFileSystemProbe(processMountTable()));
  // The extension host runs on Node next to the storage folder, so the CLI's store serves here too.
  const storageRoot = context.storageUri ?? context.globalStorageUri;
  const artifactStore = new NodeArtifactStore({ root: storageRoot.fsPath });
  void artifactStore.prune(sessionId).catch((error) => logger.warn('artifacts.prune_failed', { error: String(error) }));
  // The walk of spec §5 before and after each non-read-only call, plus a watcher for what the walk misses.
  // The CLI's watcher feed: VS Code's own watcher (1.139, remote server) did not report writes
  // to files in new nested folders in our tests, so it cannot fill the walk's blind spot.
  const snapshotter = new NodeWorkspaceSnapshotter({ logger });
  snapshotter.warmUp(workspaceFolders);
  // The host's shells, and the one clock of its deadlines, shared by the executor and Bash.
  const supervisor = new ProcessSupervisor();
  const deadlines = new DeadlineClock();
  // The spawn helper that forks the host's shells, started now rather than by the first command, which
  // would wait for it (a Node process); after this use, since starting it forks the host.
  setImmediate(() => supervisor.warmUp());

  // Claude Code's settings files and VS Code's settings: rules, mode and command hooks.
  // Agents' ignore files (.aiignore, …): every tool, the command checks and the snapshots honour them.
  const agentIgnore = watchedIgnoreFiles(() => workspaceFolders);
  subscriptions.push(agentIgnore.disposable);
  // The OS sandbox around Bash: configured with the rules; where it cannot run, said once.
  const sandbox = new BashSandbox({ onUnavailable: (message) => void vscode.window.showWarningMessage(`Agent Tool Executor: ${message}`) });
  subscriptions.push({ dispose: () => void sandbox.dispose() });
  // The ripgrep VS Code ships, looked up once (up to four files checked): the sandbox and Grep use it.
  const rgPath = findVsCodeRipgrep(vscode.env.appRoot);
  const sandboxWiring = { sandbox, ignoreFiles: () => agentIgnore.ignored.names(), ripgrep: rgPath };
  const permissions = new SettingsPermissions(() => workspaceFolders, logger, agentIgnore.ignored, sandboxWiring);
  subscriptions.push(permissions);
  void permissions.reload();

  const config = vscode.workspace.getConfiguration(CONFIG_SECTION);
  const registry = new ToolRegistry();
  const executor = new ToolExecutor({
    registry,
    sessionId,
    workspaceFolders,
    approvalClient,
    permissionPolicy: permissions,
    hooks: permissions,
    artifactStore,
    snapshotter,
    redactor,
    logger,
    ignored: agentIgnore.ignored,
    maxConcurrency: config.get<number>('maxConcurrency'),
    defaultTimeoutMs: config.get<number>('defaultTimeoutMs'),
    clock: deadlines,
  });
  // Concurrency and the default timeout follow their settings without a reload.
  subscriptions.push(applyExecutorSettingsLive(executor));
  subscriptions.push({ dispose: registerBuiltinTools(registry, { backgroundTasks: executor, rgPath, sandbox, supervisor, clock: deadlines }) });
  const externalTools = new ExternalTools(registry, logger);
  subscriptions.push(externalTools);
  view.attach(executor);

  const code = coreLoad();
  // Starting it, less loading its code when that happened here: the two are logged apart.
  const loadedHere = loadedBefore ? undefined : code;
  const took = clock.elapsed();
  logger.info('core.started', {
    startMs: round(took.ms - (loadedHere?.loadMs ?? 0)),
    startCpuMs: round(took.cpuMs === undefined ? undefined : took.cpuMs - (loadedHere?.loadCpuMs ?? 0)),
    loadMs: round(code?.loadMs),
    loadCpuMs: round(code?.loadCpuMs),
    loadRunQueueMs: round(code?.loadRunQueueMs),
    codeCache: code?.codeCache ?? 'not loaded on first use',
  });
  return {
    executor,
    registry,
    permissions,
    artifactStore,
    externalTools,
    ignored: agentIgnore.ignored,
    sandbox,
    end: async () => {
      await artifactStore.endSession(sessionId);
      await executor.dispose();
      // Shell commands still running when VS Code closes die with their whole process tree.
      await supervisor.dispose();
      await snapshotter.dispose();
    },
  };
}

/** Milliseconds to a tenth, for the log. */
export function round(ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : Math.round(ms * 10) / 10;
}
