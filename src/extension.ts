// Composition root: wires the executor's ports to VS Code adapters, registers the commands and
// content providers, and returns the extension's API.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { Redactor } from './executor';
import { ARTIFACT_SCHEME } from './executor/results/artifactLayout';
import { createRedactor } from './executor';
import { startThreadClock } from './node/runtime/threadCpu';
import type { LaunchInfo } from './extensionLauncher';
import type { AgentToolExecutorApi } from './vscode/api';
import { CONFIG_SECTION, CoreOnFirstUse, round } from './vscode/activation/core';
import { lazily } from './vscode/lazily';
import { ArtifactOpener } from './vscode/results/artifactLinks';
import { DiffLinks } from './vscode/chat/diffLinks';
import { compactConversation } from './vscode/chat/compact';
import { ContextMemory } from './vscode/chat/modelCounter';
import { DEFAULT_MAX_ROUNDS, runModelLoop } from './vscode/chat/modelLoop';
import type { CommandHost } from './vscode/chat/slashCommands';
import { PARTICIPANT_ID, registerChatParticipant } from './vscode/chat/participant';
import { TurnUndo } from './vscode/undo/turnUndo';
import { AgentBridge } from './vscode/bridge/agentBridge';
import { AcpAgents } from './vscode/acp/acpAgents';
import { AcpChat } from './vscode/acp/acpChat';
import { VsCodeAsk } from './vscode/acp/acpAsk';
import { registerAcpCommands } from './vscode/acp/acpCommands';
import { registerDemoModel } from './vscode/demoModel/register';
import { registerEndpointModels } from './vscode/models/register';
import { LiveRedactor } from './vscode/results/liveRedactor';
import { declaredLanguageModelTools, registerOwnLanguageModelTools } from './vscode/lmTools/registerOwnTools';
import { ToolCallsView } from './vscode/toolCalls/view';
import { registerRulesList } from './vscode/permissions/rulesList';
import { ModalApprovalClient } from './vscode/permissions/approvalDialog';
import { DiffEditorOpener, SNAPSHOT_SCHEME, SnapshotContentProvider } from './vscode/results/diffEditor';
import { OutputChannelLogger } from './vscode/logChannel';
import { OPEN_ARTIFACT_COMMAND, RESULTS_SCHEME, ResultsDocuments } from './vscode/results/resultsDocument';
import { RUN_TOOL_CALLS_COMMAND, RunToolCallsCommand } from './vscode/runToolCallsCommand';

let endSession: (() => Promise<void>) | undefined;

/**
 * `launch`: how `dist/extension.js` loaded this file (src/extensionLauncher.ts); absent when something
 * loads it directly. Both are logged with `activated`: our own share of VS Code's activation time.
 *
 * Activation registers what VS Code shows and asks for (commands, tools, the participant, views, content
 * providers) and nothing that needs the executor: the executor, the tools and their adapters (the core,
 * `dist/extension-core.js` in the bundle) are loaded and started by `CoreOnFirstUse`, the first time one of
 * them is used, to keep load + activate in the extension host short.
 */
export function activate(context: vscode.ExtensionContext, launch?: LaunchInfo): AgentToolExecutorApi {
  const clock = startThreadClock();
  const basics = wireBasics(context);
  // The core is given the calls view, made by the next step: it starts on first use, after activation.
  let views: Views | undefined;
  const core = new CoreOnFirstUse(() => ({ ...basics, context, view: views!.view }));
  views = wireViews(context, basics, core);
  wireLanguageModelTools(context, basics, core);
  const chat = wireChat(context, basics, core, views);
  wireSessionEnd(context, chat, core);
  // The scripted, offline model of `npm start`; registered only while agentToolExecutor.demoModel.enabled is on.
  context.subscriptions.push(registerDemoModel(basics.logger));
  // The user's own models (agentToolExecutor.models) in the model picker; an endpoint hears from us only when a chat asks it.
  context.subscriptions.push(registerEndpointModels(context.secrets, basics.logger));
  logActivated(basics, launch, clock);
  return extensionApi(context, basics, core, views, chat);
}

/** What every later step uses: the log, the session, the folders, diff editors, approvals and redaction. */
interface Basics {
  readonly channel: vscode.LogOutputChannel;
  readonly logger: OutputChannelLogger;
  readonly sessionId: string;
  readonly storageRoot: vscode.Uri;
  /** The executor keeps this array; it is updated in place when folders are added or removed. */
  readonly workspaceFolders: string[];
  readonly snapshots: SnapshotContentProvider;
  readonly diffOpener: DiffEditorOpener;
  readonly approvalClient: ModalApprovalClient;
  readonly redactor: LiveRedactor;
}

function wireBasics(context: vscode.ExtensionContext): Basics {
  const subscriptions = context.subscriptions;
  const channel = vscode.window.createOutputChannel('Agent Tool Executor', { log: true });
  subscriptions.push(channel);
  const logger = new OutputChannelLogger(channel);
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
  const storageRoot = context.storageUri ?? context.globalStorageUri;
  return { channel, logger, sessionId: randomUUID(), storageRoot, workspaceFolders, snapshots, diffOpener, approvalClient, redactor };
}

/** What the user sees of the calls. */
interface Views {
  readonly results: ResultsDocuments;
  readonly diffLinks: DiffLinks;
  readonly artifacts: ArtifactOpener;
  readonly view: ToolCallsView;
  readonly runCommand: RunToolCallsCommand;
}

/**
 * Diff editors, results, artifacts; the window's turns and calls, live, with their timelines, and a status
 * bar count (the calls come once the core has started); the commands that show them.
 */
function wireViews(context: vscode.ExtensionContext, basics: Basics, core: CoreOnFirstUse): Views {
  const { channel, snapshots, diffOpener, workspaceFolders } = basics;
  const results = new ResultsDocuments();
  const diffLinks = new DiffLinks(diffOpener);
  const artifacts = new ArtifactOpener(lazily(() => core.get().artifactStore));
  const view = new ToolCallsView({ diffLinks, artifacts, results, workDir: () => workspaceFolders[0] });
  const runCommand = new RunToolCallsCommand(core.executor, diffOpener, results, () => workspaceFolders[0]);
  context.subscriptions.push(
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
    registerRulesList(core.permissions),
  );
  return { results, diffLinks, artifacts, view, runCommand };
}

/**
 * Our tools for every agent (vscode.lm.registerTool), through this executor; the other extensions' and MCP
 * servers' tools the user picked (agentToolExecutor.externalTools.include) join its registry with the core.
 */
function wireLanguageModelTools(context: vscode.ExtensionContext, basics: Basics, core: CoreOnFirstUse): void {
  const tools = declaredLanguageModelTools(context.extension.packageJSON);
  context.subscriptions.push(registerOwnLanguageModelTools({ executor: core.executor, redactor: basics.redactor }, tools, basics.logger));
}

/** The chat panel's front ends, and what the participant's commands are given. */
interface Chat {
  readonly agent: AgentBridge;
  readonly acpAgents: AcpAgents;
  readonly acpChat: AcpChat;
  readonly acpAsk: VsCodeAsk;
  readonly chatHost: CommandHost;
}

/**
 * `@executor` in the chat panel; with agentToolExecutor.agent.command set, prompts go to that agent (its own
 * process, over JSON-RPC; src/vscode/bridge/, loaded only once an agent is configured). Or to an ACP agent
 * (agentToolExecutor.acp.agents, chosen by agentToolExecutor.chat.agent or /agent; src/vscode/acp/): its file,
 * terminal and permission requests run through this executor too.
 */
function wireChat(context: vscode.ExtensionContext, basics: Basics, core: CoreOnFirstUse, views: Views): Chat {
  const { logger, redactor, approvalClient, sessionId } = basics;
  const { executor, permissions } = core;
  const { diffLinks } = views;
  const workspaceFolders = () => basics.workspaceFolders;
  const version = String(context.extension.packageJSON.version);
  // Each `@executor` request (the built-in loop's, the bridge agent's, an ACP agent's) is checkpointed before its first write, so the reply can undo it.
  const turnUndo = new TurnUndo(basics.storageRoot, workspaceFolders, basics.snapshots, basics.approvalClient);
  context.subscriptions.push(turnUndo);
  views.view.showUndo(turnUndo);
  const agent = new AgentBridge({ executor, logger, version, participantId: PARTICIPANT_ID, redactor, diffLinks, workspaceFolders, checkpoints: turnUndo });
  context.subscriptions.push(agent);
  const acpAsk = new VsCodeAsk();
  const acpAgents = new AcpAgents({ executor, policy: permissions, approvals: approvalClient, logger, version, workspaceFolders, state: context.workspaceState, ask: acpAsk });
  const acpChat = new AcpChat(acpAgents, { redactor, diffLinks, workspaceFolders, checkpoints: turnUndo });
  const routedAgent = () => {
    const route = acpChat.route();
    return route.kind === 'acp' ? route.name : undefined;
  };
  context.subscriptions.push(acpAgents, registerAcpCommands({ agents: acpAgents, ask: acpAsk, routed: routedAgent }));
  const chatHost: CommandHost = {
    participantId: PARTICIPANT_ID,
    executor,
    redactor,
    diffLinks,
    policy: permissions,
    workspaceFolders,
    maxRounds: () => vscode.workspace.getConfiguration(CONFIG_SECTION).get<number>('chat.maxRounds') ?? DEFAULT_MAX_ROUNDS,
    refreshTools: () => core.get().externalTools.sync(),
    contextMemory: new ContextMemory(),
    // A result taken out of the prompt is saved as the executor saves large results, so Read finds it again.
    saveResult: async (callId, text) => (await core.get().artifactStore.write({ sessionId, callId, retention: 'session', content: text })).uri,
    promptSettings: () => {
      const config = vscode.workspace.getConfiguration(CONFIG_SECTION);
      return { instructions: config.get<string>('chat.instructions') ?? '', instructionFiles: config.get<boolean>('chat.instructionFiles') ?? true };
    },
    permissionMode: () => core.get().permissions.mode,
    sandboxState: () => core.get().sandbox.state,
    ignoredPaths: () => core.get().ignored,
    logger,
    checkpoints: turnUndo,
  };
  // A request starts the core at once, while the model thinks: its first call does not wait for it. A core
  // that fails to start fails the uses that need it (`/agent` and an ACP agent's prompt do not).
  const startCore = () => {
    try {
      core.get();
    } catch {
      // Logged as core.start_failed; each use of the core gets the error.
    }
  };
  context.subscriptions.push(registerChatParticipant(chatHost, context.extensionUri, agent, acpChat, startCore));
  return { agent, acpAgents, acpChat, acpAsk, chatHost };
}

/** The session ends with the window: agents stopped, then the core; `deactivate` awaits it, and runs it once. */
function wireSessionEnd(context: vscode.ExtensionContext, chat: Chat, core: CoreOnFirstUse): void {
  endSession = async () => {
    await chat.agent.stop();
    await chat.acpAgents.closeAll();
    await core.started?.end();
  };
  // Ended with the rest of what the extension created too.
  context.subscriptions.push({ dispose: () => void deactivate() });
}

/**
 * Our own time, measured here: VS Code's "Load Code" of an extension also spans whatever the extension host
 * runs between starting to load it and loading it, such as the extensions activated before it by the same event.
 * With this thread's CPU time in each, and the time it waited on a run queue for a core (Linux).
 */
function logActivated(basics: Basics, launch: LaunchInfo | undefined, clock: ReturnType<typeof startThreadClock>): void {
  const took = clock.elapsed();
  const ownMs = {
    loadMs: round(launch?.loadMs),
    activateMs: round(took.ms),
    loadCpuMs: round(launch?.loadCpuMs),
    activateCpuMs: round(took.cpuMs),
    loadRunQueueMs: round(launch?.loadRunQueueMs),
    activateRunQueueMs: round(took.runQueueMs),
  };
  basics.logger.info('activated', { sessionId: basics.sessionId, storage: basics.storageRoot.toString(), ...ownMs, codeCache: launch?.codeCache ?? 'not loaded by the launcher' });
}

/** The API other extensions (and the tests, in test mode) get. */
function extensionApi(context: vscode.ExtensionContext, basics: Basics, core: CoreOnFirstUse, views: Views, chat: Chat): AgentToolExecutorApi {
  const { runCommand, artifacts } = views;
  const api: AgentToolExecutorApi = {
    get executor() {
      return core.get().executor;
    },
    get registry() {
      return core.get().registry;
    },
    runToolCalls: (calls, options) => runCommand.run(calls, options),
    openArtifact: (uri) => artifacts.open(uri),
  };
  if (context.extensionMode === vscode.ExtensionMode.Test) {
    const { approvalClient, storageRoot } = basics;
    const { acpChat, chatHost } = chat;
    Object.assign(api, {
      testing: {
        setApprovalResponder: (responder) => approvalClient.setResponder(responder),
        storageRoot,
        reloadPermissions: () => core.get().permissions.reload(),
        permissionRules: () => core.get().permissions.rules,
        removePermissionRule: (rule) => core.get().permissions.removeRule(rule),
        acpPrompt: (name, request, stream, token) => acpChat.handle(request, name, stream, token),
        bridgePrompt: (request, chatContext, stream, token) => chat.agent.handle(request, chatContext, stream, token),
        acpCloseAll: () => chat.acpAgents.closeAll(),
        setAcpAskResponder: (responder) => chat.acpAsk.setResponder(responder),
        acpMode: (words, stream, token) => acpChat.chooseMode(words, stream, token, () => Promise.resolve({ errorDetails: { message: `not one of the agent's modes or options: ${words}` } })),
        coreStarted: () => core.started !== undefined,
        modelPrompt: (request, chatContext, stream, token) => runModelLoop(chatHost, request, chatContext, stream, token),
        compactPrompt: (request, chatContext, stream, token) => compactConversation(chatHost, request, chatContext, stream, token),
      } satisfies NonNullable<AgentToolExecutorApi['testing']>,
    });
  }
  return api;
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
