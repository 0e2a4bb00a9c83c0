// The agent bridge as the rest of the extension sees it: `@executor`'s prompt forwarder and
// what stops the agent. Most windows name no agent, and the host that runs one (vscode-languageclient,
// vscode-jsonrpc, src/bridge/) is about 40 % of the extension's code, so it is loaded (`./hosted`, in the
// bundle `dist/agent-bridge.js`) only once `agentToolExecutor.agent.*` names an agent that may run here:
// at activation, or when the settings or the workspace's trust change. From then on `AgentHost` follows
// the settings itself.
import * as vscode from 'vscode';
import type { ToolExecutor } from '../../executor';
import type { Logger } from '../../executor';
import type { Redactor } from '../../executor';
import type { DiffLinks } from '../chat/diffLinks';
import type { PromptForwarder } from '../chat/participant';
import type { TurnUndo } from '../undo/turnUndo';
import type { AgentChat, AgentHost } from './hosted';
import { affectsAgentLaunch, agentLaunchFromSettings } from './bridgeAgentSettings';
import { disposableStore } from '../../common/lifecycle';

export interface AgentBridgeOptions {
  readonly executor: ToolExecutor;
  readonly logger: Logger;
  /** The extension's version, told to the agent. */
  readonly version: string;
  readonly participantId: string;
  readonly redactor: Redactor;
  readonly diffLinks: DiffLinks;
  readonly workspaceFolders: () => readonly string[];
  /** Checkpoints each prompt's turns, so the reply can undo them; the agent may list and undo them too. */
  readonly checkpoints?: TurnUndo;
}

type Hosted = typeof import('./hosted');

export class AgentBridge implements PromptForwarder, vscode.Disposable {
  private hosted: { readonly host: AgentHost; readonly chat: AgentChat } | undefined;
  private readonly disposables = disposableStore();

  constructor(private readonly options: AgentBridgeOptions) {
    // The host is loaded after the event has been delivered, so it does not also take this event
    // (with its own listener) and start the agent twice.
    const later = () => void Promise.resolve().then(() => this.check());
    this.disposables.addAll(
      vscode.workspace.onDidChangeConfiguration((event) => affectsAgentLaunch(event) && !this.hosted && later()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => !this.hosted && later()),
    );
    this.check();
  }

  enabled(): boolean {
    return this.hosted?.chat.enabled() ?? false;
  }

  handle(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    if (!this.hosted) return Promise.resolve({ errorDetails: { message: 'No agent is configured (agentToolExecutor.agent.command).' } });
    return this.hosted.chat.handle(request, context, stream, token);
  }

  async stop(): Promise<void> {
    await this.hosted?.host.stop();
  }

  dispose(): void {
    this.hosted?.host.dispose();
    this.disposables.dispose();
  }

  /** Loads and starts the host when the settings name an agent; otherwise says why they were ignored, if they were. */
  private check(): void {
    if (this.hosted || this.disposables.isDisposed) return;
    const decision = agentLaunchFromSettings();
    if (!decision.launch) {
      if (decision.ignored) this.options.logger.warn('agent.settings_ignored', { reason: decision.ignored });
      return;
    }
    const { AgentHost, AgentChat } = loadHosted();
    const { executor, logger, version, workspaceFolders, participantId, redactor, diffLinks, checkpoints } = this.options;
    const host = new AgentHost({ executor, logger, version, workspaceFolders, ...(checkpoints ? { checkpoints } : {}) });
    const chat = new AgentChat(host, { participantId, redactor, diffLinks, workspaceFolders, ...(checkpoints ? { checkpoints } : {}) });
    this.hosted = { host, chat };
    void host.reload();
  }
}

function loadHosted(): Hosted {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./hosted') as Hosted;
}
