// Composition root: wires the executor's ports to VS Code adapters, registers the commands and
// content providers, and returns the extension's API.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { ToolExecutor } from './executor';
import type { IgnoredPaths } from './executor';
import type { Redactor } from './executor';
import { ToolRegistry } from './executor';
import { ARTIFACT_SCHEME } from './executor/results/artifactLayout';
import { createRedactor } from './executor';
import { NodeArtifactStore } from './node/artifacts/nodeArtifactStore';
import { NodeWorkspaceSnapshotter } from './node/snapshot/nodeSnapshotter';
import { startThreadClock } from './node/runtime/threadCpu';
import { coreLoad } from './vscode/coreModules';
import { lazily } from './vscode/lazily';
import { defaultProcessSupervisor, findVsCodeRipgrep, registerBuiltinTools } from './tools/index';
import type { LaunchInfo } from './extensionLauncher';
import type { AgentToolExecutorApi } from './vscode/api';
import { ArtifactOpener } from './vscode/results/artifactLinks';
import { DiffLinks } from './vscode/chat/diffLinks';
import { compactConversation } from './vscode/chat/compact';
import { ContextMemory } from './vscode/chat/contextFit';
import { DEFAULT_MAX_ROUNDS, runModelLoop } from './vscode/chat/modelLoop';
import type { CommandHost } from './vscode/chat/slashCommands';
import { PARTICIPANT_ID, registerChatParticipant } from './vscode/chat/participant';
import { AgentBridge } from './vscode/bridge/agentBridge';
import { AcpAgents } from './vscode/acp/acpAgents';
import { AcpChat } from './vscode/acp/acpChat';
import { registerDemoModel } from './vscode/demoModel/register';
import { LiveRedactor } from './vscode/results/liveRedactor';
import { ExternalTools } from './vscode/lmTools/externalTools';
import { declaredLanguageModelTools, registerOwnLanguageModelTools } from './vscode/lmTools/registerOwnTools';
import { applyExecutorSettingsLive } from './vscode/workspace/liveExecutorSettings';
import { ToolCallsView } from './vscode/toolCalls/view';
import { registerRulesList } from './vscode/permissions/rulesList';
import { watchedIgnoreFiles } from './vscode/workspace/ignoreFilesWatch';
import { ModalApprovalClient } from './vscode/permissions/approvalDialog';
import { DiffEditorOpener, SNAPSHOT_SCHEME, SnapshotContentProvider } from './vscode/results/diffEditor';
import { OutputChannelLogger } from './vscode/logChannel';
import { SettingsPermissions } from './vscode/permissions/permissionSettings';
import { BashSandbox } from './tools/sandbox/bashSandbox';
import { OPEN_ARTIFACT_COMMAND, RESULTS_SCHEME, ResultsDocuments } from './vscode/results/resultsDocument';
import { RUN_TOOL_CALLS_COMMAND, RunToolCallsCommand } from './vscode/runToolCallsCommand';

const CONFIG_SECTION = 'agentToolExecutor';

let endSession: (() => Promise<void>) | undefined;

/** What the core is started with: what activation made, which the core's parts use. */
interface CoreWiring {
  readonly context: vscode.ExtensionContext;
  readonly sessionId: string;
  readonly logger: OutputChannelLogger;
  readonly workspaceFolders: string[];
  readonly approvalClient: ModalApprovalClient;
  readonly redactor: LiveRedactor;
  readonly view: ToolCallsView;
}

/** The core's parts that activation's parts use, made when first used. */
interface Core {
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

/**
 * `launch`: how `dist/extension.js` loaded this file (src/extensionLauncher.ts); absent when something
 * loads it directly. Both are logged with `activated`: our own share of VS Code's activation time.
 *
 * Activation registers what VS Code shows and asks for (commands, tools, the participant, views, content
 * providers) and nothing that needs the executor: the executor, the tools and their adapters (the core,
 * `dist/extension-core.js` in the bundle) are loaded and started by `startCore`, the first time one of
 * them is used, to keep load + activate in the extension host short.
 */
export function activate(context: vscode.ExtensionContext, launch?: LaunchInfo): AgentToolExecutorApi {
  const clock = startThreadClock();
  const subscriptions = context.subscriptions;
  const channel = vscode.window.createOutputChannel('Agent Tool Executor', { log: true });
  subscriptions.push(channel);
  const logger = new OutputChannelLogger(channel);
  const sessionId = randomUUID();
  const storageRoot = context.storageUri ?? context.globalStorageUri;

  // The executor keeps this array; it is updated in place when folders are added or removed.
  const workspaceFolders: string[] = [];
  const syncFolders = () => workspaceFolders.splice(0, workspaceFolders.length, ...(vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath));
  syncFolders();
  subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(syncFolders));
  // Diff editors for proposed changes (the approval's Review Diff) and finished ones (results, chat).
  const snapshots = new SnapshotContentProvider();
  const diffOpener = new DiffEditorOpener(snapshots);
  const approvalClient = new ModalApprovalClient((change) => diffOpener.openProposed(change));
  // Redaction patterns apply from the next result on when the user changes them (built on first use).
  const redactor = new LiveRedactor(() => redactorFromSettings(vscode.workspace.getConfiguration(CONFIG_SECTION), logger));
  subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => event.affectsConfiguration(`${CONFIG_SECTION}.redaction.patterns`) && redactor.reload()),
  );

  // 1. What the user sees: diff editors, results, artifacts; the window's turns and calls, live, with their
  //    timelines, and a status bar count (the calls come once the core has started).
  const results = new ResultsDocuments();
  const diffLinks = new DiffLinks(diffOpener);
  let started: Core | undefined;
  // A core that failed to start is not started again (half of it may be running): each use gets its error.
  let failed: { readonly error: unknown } | undefined;
  const core = (): Core => {
    if (started) return started;
    if (failed) throw failed.error;
    try {
      return (started = startCore({ context, sessionId, logger, workspaceFolders, approvalClient, redactor, view }));
    } catch (error) {
      failed = { error };
      logger.error('core.start_failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      throw error;
    }
  };
  const executor = lazily(() => core().executor);
  const permissions = lazily(() => core().permissions);
  const artifacts = new ArtifactOpener(lazily(() => core().artifactStore));
  const view = new ToolCallsView({ diffLinks, artifacts, results, workDir: () => workspaceFolders[0] });
  const runCommand = new RunToolCallsCommand(executor, diffOpener, results, () => workspaceFolders[0]);
  subscriptions.push(
    snapshots,
    results,
    view,
    vscode.workspace.registerTextDocumentContentProvider(SNAPSHOT_SCHEME, snapshots),
    vscode.workspace.registerTextDocumentContentProvider(RESULTS_SCHEME, results),
    vscode.workspace.registerTextDocumentContentProvider(ARTIFACT_SCHEME, artifacts),
    vscode.languages.registerDocumentLinkProvider({ scheme: RESULTS_SCHEME }, results),
    vscode.commands.registerCommand('agentToolExecutor.showLog', () => channel.show()),
    vscode.commands.registerCommand(RUN_TOOL_CALLS_COMMAND, (calls?: unknown, options?: object) => runCommand.run(calls, options)),
    vscode.commands.registerCommand(OPEN_ARTIFACT_COMMAND, (uri: string | vscode.Uri) => artifacts.open(uri)),
    diffLinks,
    registerRulesList(permissions),
  );

  // 2. Our tools for every agent (vscode.lm.registerTool), through this executor; the other extensions' and MCP
  //    servers' tools the user picked (agentToolExecutor.externalTools.include) join its registry with the core.
  subscriptions.push(registerOwnLanguageModelTools({ executor, redactor }, declaredLanguageModelTools(context.extension.packageJSON), logger));

  // 3. `@executor` in the chat panel; with agentToolExecutor.agent.command set, prompts go to that agent
  //    (its own process, over JSON-RPC; src/vscode/bridge/, loaded only once an agent is configured).
  const agent = new AgentBridge({ executor, logger, version: String(context.extension.packageJSON.version), participantId: PARTICIPANT_ID, redactor, diffLinks, workspaceFolders: () => workspaceFolders });
  subscriptions.push(agent);
  //    Or to an ACP agent (agentToolExecutor.acp.agents, chosen by agentToolExecutor.chat.agent or /agent;
  //    src/vscode/acp/): its file, terminal and permission requests run through this executor too.
  const acpAgents = new AcpAgents({ executor, policy: permissions, approvals: approvalClient, logger, version: String(context.extension.packageJSON.version), workspaceFolders: () => workspaceFolders, state: context.workspaceState });
  const acpChat = new AcpChat(acpAgents, { redactor, diffLinks, workspaceFolders: () => workspaceFolders });
  subscriptions.push(acpAgents);
  const chatHost: CommandHost = {
    participantId: PARTICIPANT_ID,
    executor,
    redactor,
    diffLinks,
    policy: permissions,
    workspaceFolders: () => workspaceFolders,
    maxRounds: () => vscode.workspace.getConfiguration(CONFIG_SECTION).get<number>('chat.maxRounds') ?? DEFAULT_MAX_ROUNDS,
    refreshTools: () => core().externalTools.sync(),
    contextMemory: new ContextMemory(),
    // A result taken out of the prompt is saved as the executor saves large results, so Read finds it again.
    saveResult: async (callId, text) => (await core().artifactStore.write({ sessionId, callId, retention: 'session', content: text })).uri,
    promptSettings: () => {
      const config = vscode.workspace.getConfiguration(CONFIG_SECTION);
      return { instructions: config.get<string>('chat.instructions') ?? '', instructionFiles: config.get<boolean>('chat.instructionFiles') ?? true };
    },
    permissionMode: () => core().permissions.mode,
    sandboxState: () => core().sandbox.state,
    ignoredPaths: () => core().ignored,
    logger,
  };
  subscriptions.push(
    registerChatParticipant(
      chatHost,
      context.extensionUri,
      agent,
      acpChat,
      // A request starts the core at once, while the model thinks: its first call does not wait for it. A core
      // that fails to start fails the uses that need it (`/agent` and an ACP agent's prompt do not).
      () => {
        try {
          core();
        } catch {
          // Logged as core.start_failed; each use of the core gets the error.
        }
      },
    ),
  );

  endSession = async () => {
    await agent.stop();
    await acpAgents.closeAll();
    await started?.end();
  };
  // Ended with the rest of what the extension created too; `deactivate` awaits it, and runs it once.
  subscriptions.push({ dispose: () => void deactivate() });
  // The scripted, offline model of `npm start`; registered only while agentToolExecutor.demoModel.enabled is on.
  subscriptions.push(registerDemoModel(logger));
  // Our own time, measured here: VS Code's "Load Code" of an extension also spans whatever the extension host
  // runs between starting to load it and loading it, such as the extensions activated before it by the same event.
  // With this thread's CPU time in each, and the time it waited on a run queue for a core (Linux).
  const took = clock.elapsed();
  const ownMs = {
    loadMs: round(launch?.loadMs),
    activateMs: round(took.ms),
    loadCpuMs: round(launch?.loadCpuMs),
    activateCpuMs: round(took.cpuMs),
    loadRunQueueMs: round(launch?.loadRunQueueMs),
    activateRunQueueMs: round(took.runQueueMs),
  };
  logger.info('activated', { sessionId, storage: storageRoot.toString(), ...ownMs, codeCache: launch?.codeCache ?? 'not loaded by the launcher' });

  const api: AgentToolExecutorApi = {
    get executor() {
      return core().executor;
    },
    get registry() {
      return core().registry;
    },
    runToolCalls: (calls, options) => runCommand.run(calls, options),
    openArtifact: (uri) => artifacts.open(uri),
  };
  if (context.extensionMode === vscode.ExtensionMode.Test) {
    Object.assign(api, {
      testing: {
        setApprovalResponder: (responder) => approvalClient.setResponder(responder),
        storageRoot,
        reloadPermissions: () => core().permissions.reload(),
        permissionRules: () => core().permissions.rules,
        removePermissionRule: (rule) => core().permissions.removeRule(rule),
        acpPrompt: (name, request, stream, token) => acpChat.handle(request, name, stream, token),
        acpCloseAll: () => acpAgents.closeAll(),
        coreStarted: () => started !== undefined,
        modelPrompt: (request, chatContext, stream, token) => runModelLoop(chatHost, request, chatContext, stream, token),
        compactPrompt: (request, chatContext, stream, token) => compactConversation(chatHost, request, chatContext, stream, token),
      } satisfies NonNullable<AgentToolExecutorApi['testing']>,
    });
  }
  return api;
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
  // The extension host runs on Node next to the storage folder, so the CLI's store serves here too.
  const storageRoot = context.storageUri ?? context.globalStorageUri;
  const artifactStore = new NodeArtifactStore({ root: storageRoot.fsPath });
  void artifactStore.prune(sessionId).catch((error) => logger.warn('artifacts.prune_failed', { error: String(error) }));
  // The walk of spec §5 before and after each non-read-only call, plus a watcher for what the walk misses.
  // The CLI's watcher feed: VS Code's own watcher (1.139, remote server) did not report writes
  // to files in new nested folders in our tests, so it cannot fill the walk's blind spot.
  const snapshotter = new NodeWorkspaceSnapshotter({ logger });
  snapshotter.warmUp(workspaceFolders);
  // The spawn helper that forks the host's shells, started now rather than by the first command, which
  // would wait for it (a Node process); after this use, since starting it forks the host.
  setImmediate(() => defaultProcessSupervisor.warmUp());

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
  });
  // Concurrency and the default timeout follow their settings without a reload.
  subscriptions.push(applyExecutorSettingsLive(executor));
  subscriptions.push({ dispose: registerBuiltinTools(registry, { backgroundTasks: executor, rgPath, sandbox }) });
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
      await defaultProcessSupervisor.dispose();
      await snapshotter.dispose();
    },
  };
}

/** Milliseconds to a tenth, for the log. */
function round(ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : Math.round(ms * 10) / 10;
}

/** Built-in secret formats, secret-named environment values, and the user's patterns (spec §6). */
function redactorFromSettings(config: vscode.WorkspaceConfiguration, logger: OutputChannelLogger): Redactor {
  const patterns = config.get<string[]>('redaction.patterns') ?? [];
  try {
    return createRedactor({ env: process.env, patterns });
  } catch (error) {
    // A broken user pattern must not switch redaction off: keep the built-in rules and say why.
    logger.error('redaction.pattern_invalid', { error: String(error) });
    void vscode.window.showErrorMessage(`Agent Tool Executor: agentToolExecutor.redaction.patterns has an invalid pattern (${String(error)}); only the built-in rules apply.`);
    return createRedactor({ env: process.env });
  }
}

export async function deactivate(): Promise<void> {
  const end = endSession;
  endSession = undefined;
  await end?.();
}
