// Composition root: wires the executor's ports to VS Code adapters, registers the commands and
// content providers, and returns the extension's API.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { ToolExecutor } from './executor/executor';
import type { Redactor } from './executor/ports/redactor';
import { ToolRegistry } from './executor/registry';
import { ARTIFACT_SCHEME } from './executor/results/artifactLayout';
import { createRedactor } from './executor/results/redaction/redactor';
import { NodeArtifactStore } from './node/artifacts/nodeArtifactStore';
import { NodeWorkspaceSnapshotter } from './node/snapshot/nodeSnapshotter';
import { threadCpuMs, threadCpuSince } from './node/threadCpu';
import { defaultProcessSupervisor, findVsCodeRipgrep, registerBuiltinTools } from './tools/index';
import type { LaunchInfo } from './extensionLauncher';
import type { AgentToolExecutorApi } from './vscode/api';
import { ArtifactOpener } from './vscode/artifactLinks';
import { DiffLinks } from './vscode/chat/diffLinks';
import { DEFAULT_MAX_ROUNDS } from './vscode/chat/modelLoop';
import { PARTICIPANT_ID, registerChatParticipant } from './vscode/chat/participant';
import { AgentBridge } from './vscode/bridge/agentBridge';
import { AcpAgents } from './vscode/acp/acpAgents';
import { AcpChat } from './vscode/acp/acpChat';
import { registerDemoModel } from './vscode/demoModel/register';
import { LiveRedactor } from './vscode/liveRedactor';
import { ExternalTools } from './vscode/lmTools/externalTools';
import { declaredLanguageModelTools, registerOwnLanguageModelTools } from './vscode/lmTools/registerOwnTools';
import { applyExecutorSettingsLive } from './vscode/liveExecutorSettings';
import { ToolCallsView } from './vscode/toolCalls/view';
import { registerRulesList } from './vscode/rulesList';
import { watchedIgnoreFiles } from './vscode/ignoreFilesWatch';
import { ModalApprovalClient } from './vscode/approvalDialog';
import { DiffEditorOpener, SNAPSHOT_SCHEME, SnapshotContentProvider } from './vscode/diffEditor';
import { OutputChannelLogger } from './vscode/logChannel';
import { SettingsPermissions } from './vscode/permissionSettings';
import { BashSandbox } from './tools/sandbox/bashSandbox';
import { OPEN_ARTIFACT_COMMAND, RESULTS_SCHEME, ResultsDocuments } from './vscode/resultsDocument';
import { RUN_TOOL_CALLS_COMMAND, RunToolCallsCommand } from './vscode/runToolCallsCommand';

const CONFIG_SECTION = 'agentToolExecutor';

let endSession: (() => Promise<void>) | undefined;

/**
 * `launch`: how `dist/extension.js` loaded this file (src/extensionLauncher.ts); absent when something
 * loads it directly. Both are logged with `activated`: our own share of VS Code's activation time.
 */
export function activate(context: vscode.ExtensionContext, launch?: LaunchInfo): AgentToolExecutorApi {
  const activateStarted = performance.now();
  const activateCpuStarted = threadCpuMs();
  const subscriptions = context.subscriptions;
  const channel = vscode.window.createOutputChannel('Agent Tool Executor', { log: true });
  subscriptions.push(channel);
  const logger = new OutputChannelLogger(channel);
  const sessionId = randomUUID();

  // 1. Ports → adapters.
  // The extension host runs on Node next to the storage folder, so the CLI's store serves here too.
  const storageRoot = context.storageUri ?? context.globalStorageUri;
  const artifactStore = new NodeArtifactStore({ root: storageRoot.fsPath });
  void artifactStore.prune(sessionId).catch((error) => logger.warn('artifacts.prune_failed', { error: String(error) }));
  // Diff editors for proposed changes (the approval's Review Diff) and finished ones (results, chat).
  const snapshots = new SnapshotContentProvider();
  const diffOpener = new DiffEditorOpener(snapshots);
  const approvalClient = new ModalApprovalClient((change) => diffOpener.openProposed(change));
  // The executor keeps this array; it is updated in place when folders are added or removed.
  const workspaceFolders: string[] = [];
  const syncFolders = () => workspaceFolders.splice(0, workspaceFolders.length, ...(vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath));
  syncFolders();
  subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(syncFolders));
  // W's walk before and after each non-read-only call, plus a watcher for what the walk misses.
  // The CLI's watcher feed: VS Code's own watcher (1.139, remote server) did not report writes
  // to files in new nested folders in our tests, so it cannot fill the walk's blind spot.
  const snapshotter = new NodeWorkspaceSnapshotter({ logger });
  snapshotter.warmUp(workspaceFolders);

  // Claude Code's settings files and VS Code's settings: rules, mode and command hooks.
  // Agents' ignore files (.aiignore, …): every tool, the command checks and the snapshots honour them.
  const agentIgnore = watchedIgnoreFiles(() => workspaceFolders);
  subscriptions.push(agentIgnore.disposable);
  // The OS sandbox around Bash (issue 17): configured with the rules; where it cannot run, said once.
  const sandbox = new BashSandbox({ onUnavailable: (message) => void vscode.window.showWarningMessage(`Agent Tool Executor: ${message}`) });
  subscriptions.push({ dispose: () => void sandbox.dispose() });
  // The ripgrep VS Code ships, looked up once (up to four files checked): the sandbox and Grep use it.
  const rgPath = findVsCodeRipgrep(vscode.env.appRoot);
  const sandboxWiring = { sandbox, ignoreFiles: () => agentIgnore.ignored.sources(), ripgrep: rgPath };
  const permissions = new SettingsPermissions(() => workspaceFolders, logger, agentIgnore.ignored, sandboxWiring);
  subscriptions.push(permissions, registerRulesList(permissions));
  void permissions.reload();

  // 2. The executor.
  const config = vscode.workspace.getConfiguration(CONFIG_SECTION);
  // Redaction patterns apply from the next result on when the user changes them.
  const redactor = new LiveRedactor(() => redactorFromSettings(vscode.workspace.getConfiguration(CONFIG_SECTION), logger));
  subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => event.affectsConfiguration(`${CONFIG_SECTION}.redaction.patterns`) && redactor.reload()),
  );
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
  // Our tools for every agent (vscode.lm.registerTool), and the other extensions' and MCP servers' tools
  // the user picked (agentToolExecutor.externalTools.include), both through this executor.
  subscriptions.push(registerOwnLanguageModelTools({ executor, redactor }, declaredLanguageModelTools(context.extension.packageJSON), logger));
  const externalTools = new ExternalTools(registry, logger);
  subscriptions.push(externalTools);

  // 3. What the user sees: diff editors, results, artifacts.
  const results = new ResultsDocuments();
  const artifacts = new ArtifactOpener(artifactStore);
  const runCommand = new RunToolCallsCommand(executor, diffOpener, results, () => workspaceFolders[0]);
  const diffLinks = new DiffLinks(diffOpener);
  subscriptions.push(
    snapshots,
    results,
    vscode.workspace.registerTextDocumentContentProvider(SNAPSHOT_SCHEME, snapshots),
    vscode.workspace.registerTextDocumentContentProvider(RESULTS_SCHEME, results),
    vscode.workspace.registerTextDocumentContentProvider(ARTIFACT_SCHEME, artifacts),
    vscode.languages.registerDocumentLinkProvider({ scheme: RESULTS_SCHEME }, results),
    vscode.commands.registerCommand('agentToolExecutor.showLog', () => channel.show()),
    vscode.commands.registerCommand(RUN_TOOL_CALLS_COMMAND, (calls?: unknown, options?: object) => runCommand.run(calls, options)),
    vscode.commands.registerCommand(OPEN_ARTIFACT_COMMAND, (uri: string | vscode.Uri) => artifacts.open(uri)),
    diffLinks,
  );

  // The window's turns and calls, live, with their timelines; a status bar count.
  subscriptions.push(new ToolCallsView({ executor, diffLinks, artifacts, results, workDir: () => workspaceFolders[0] }));

  // 4. `@executor` in the chat panel; with agentToolExecutor.agent.command set, prompts go to that agent
  //    (its own process, over JSON-RPC; src/vscode/bridge/, loaded only once an agent is configured).
  const agent = new AgentBridge({ executor, logger, version: String(context.extension.packageJSON.version), participantId: PARTICIPANT_ID, redactor, diffLinks, workspaceFolders: () => workspaceFolders });
  subscriptions.push(agent);
  //    Or to an ACP agent (agentToolExecutor.acp.agents, chosen by agentToolExecutor.chat.agent or /agent;
  //    src/vscode/acp/): its file, terminal and permission requests run through this executor too.
  const acpAgents = new AcpAgents({ executor, policy: permissions, approvals: approvalClient, logger, version: String(context.extension.packageJSON.version), workspaceFolders: () => workspaceFolders });
  const acpChat = new AcpChat(acpAgents, { redactor, diffLinks, workspaceFolders: () => workspaceFolders });
  subscriptions.push(acpAgents);
  subscriptions.push(
    registerChatParticipant(
      {
        participantId: PARTICIPANT_ID,
        executor,
        redactor,
        diffLinks,
        policy: permissions,
        workspaceFolders: () => workspaceFolders,
        maxRounds: () => vscode.workspace.getConfiguration(CONFIG_SECTION).get<number>('chat.maxRounds') ?? DEFAULT_MAX_ROUNDS,
        refreshTools: () => externalTools.sync(),
      },
      context.extensionUri,
      agent,
      acpChat,
    ),
  );

  endSession = async () => {
    await agent.stop();
    await acpAgents.closeAll();
    await artifactStore.endSession(sessionId);
    await executor.dispose();
    // Shell commands still running when VS Code closes die with their whole process tree.
    await defaultProcessSupervisor.dispose();
    await snapshotter.dispose();
  };
  // Ended with the rest of what the extension created too; `deactivate` awaits it, and runs it once.
  subscriptions.push({ dispose: () => void deactivate() });
  // The scripted, offline model of `npm start`; registered only while agentToolExecutor.demoModel.enabled is on.
  subscriptions.push(registerDemoModel(logger));
  // Our own time, measured here: VS Code's "Load Code" of an extension also spans whatever the extension host
  // runs between starting to load it and loading it, such as the extensions activated before it by the same event.
  // With this thread's CPU time in each: the rest of the wall time it waited for a core.
  const ownMs = { loadMs: round(launch?.loadMs), activateMs: round(performance.now() - activateStarted), loadCpuMs: round(launch?.loadCpuMs), activateCpuMs: round(threadCpuSince(activateCpuStarted)) };
  logger.info('activated', { sessionId, storage: storageRoot.toString(), ...ownMs, codeCache: launch?.codeCache ?? 'not loaded by the launcher' });

  const api: AgentToolExecutorApi = {
    executor,
    registry,
    runToolCalls: (calls, options) => runCommand.run(calls, options),
    openArtifact: (uri) => artifacts.open(uri),
  };
  if (context.extensionMode === vscode.ExtensionMode.Test) {
    return { ...api, testing: { setApprovalResponder: (responder) => approvalClient.setResponder(responder), storageRoot, reloadPermissions: () => permissions.reload(), permissionRules: () => permissions.rules, removePermissionRule: (rule) => permissions.removeRule(rule), acpPrompt: (name, request, stream, token) => acpChat.handle(request, name, stream, token) } };
  }
  return api;
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
