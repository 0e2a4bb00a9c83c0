// The ACP agents of this window: each started on its first prompt (src/acp/connection.ts), with one
// session kept for the window so the agent remembers the conversation (its id in workspace state, taken up
// with session/resume — else session/load — after a reload where the agent offers it; another one of the
// agent's session/list may be chosen instead), started again after it exited, signed in when it answers
// auth_required, and closed — session/close where offered, with every command it left running — when the
// settings drop it or the window ends.
import * as vscode from 'vscode';
import { AcpAgentConnection, type AcpLaunch } from '../../acp/connection';
import type { TurnHost } from '../../acp/calls';
import type { Acp } from '../../acp/sdk';
import type { ToolExecutor } from '../../executor';
import type { ApprovalClient } from '../../executor';
import type { Logger } from '../../executor';
import type { PermissionPolicy } from '../../executor';
import { configuredAcpAgents, workspaceMcpServers } from './acpAgentSettings';
import { disposableStore } from '../../common/lifecycle';
import { withSignIn, type ChooseAuthMethod } from '../../acp/session/auth';
import type { AcpAsk } from './acpAsk';
import { askForm, authMethodChooser } from './acpQuestions';

export interface AcpAgentsOptions {
  readonly executor: ToolExecutor;
  readonly policy: PermissionPolicy;
  readonly approvals: ApprovalClient;
  readonly logger: Logger;
  readonly version: string;
  readonly workspaceFolders: () => readonly string[];
  /** Where each agent's session id is kept, so a window reload or a restart takes the conversation up again. */
  readonly state?: vscode.Memento;
  /** Who answers the agents' questions (sign-in, forms, a session to continue). */
  readonly ask?: AcpAsk;
}

/** The workspace-state key of an agent's last session id. */
export function sessionKey(name: string): string {
  return `agentToolExecutor.acp.session.${name}`;
}

export interface RunningAgent {
  readonly connection: AcpAgentConnection;
  /** The session prompts go to: another one when the user continues an earlier session. */
  sessionId: string;
}

export class AcpAgents implements vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel('Agent Tool Executor: ACP Agents', { log: true });
  private readonly running = new Map<string, { launch: AcpLaunch; ready: Promise<RunningAgent | string> }>();
  private readonly disposables = disposableStore();
  private agents: AcpLaunch[] = [];
  private turns: TurnHost | undefined;

  constructor(private readonly options: AcpAgentsOptions) {
    this.disposables.addAll(
      this.channel,
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('agentToolExecutor.acp.agents')) this.reload();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.reload()),
    );
    this.reload();
  }

  /** Who draws the agents' requests in the chat reply, and what their turns get. */
  setTurnHost(turns: TurnHost): void {
    this.turns = turns;
  }

  names(): string[] {
    return this.agents.map((agent) => agent.name);
  }

  has(name: string): boolean {
    return this.agents.some((agent) => agent.name === name);
  }

  /** The agent's running connection and session, starting it when needed; otherwise why there is none. */
  ready(name: string, signal: AbortSignal): Promise<RunningAgent | string> {
    const launch = this.agents.find((agent) => agent.name === name);
    if (!launch) return Promise.resolve(`There is no ACP agent named ${JSON.stringify(name)} in agentToolExecutor.acp.agents.`);
    const current = this.running.get(name);
    if (current && JSON.stringify(current.launch) === JSON.stringify(launch)) return current.ready;
    const ready = this.start(launch, signal);
    this.running.set(name, { launch, ready });
    return ready;
  }

  /** How the user signs the agent in when it answers auth_required. */
  signIn(name: string): ChooseAuthMethod {
    return this.options.ask ? authMethodChooser(this.options.ask, name) : () => Promise.resolve(undefined);
  }

  /**
   * The agent's sessions (session/list) in a quick pick; the one chosen is taken up (resume, else load) and
   * prompts go to it from now on, also after a reload. Says why when the agent offers no list.
   */
  async continueSession(name: string, signal: AbortSignal): Promise<string> {
    const agent = await this.ready(name, signal);
    if (typeof agent === 'string') return agent;
    const { connection } = agent;
    if (!connection.offers('list')) return `The ACP agent ${name} does not list its sessions (session/list).`;
    const folder = this.options.workspaceFolders()[0];
    const sessions = await connection.listSessions(folder, signal);
    const chosen = await this.options.ask?.pick(
      `Continue a session of the ACP agent ${name}`,
      sessions.map((session) => ({
        label: session.title || session.sessionId,
        description: session.sessionId === agent.sessionId ? 'current' : (session.updatedAt ?? undefined),
        detail: session.cwd,
        value: session.sessionId,
      })),
      signal,
    );
    if (chosen === undefined) return `No session was chosen: prompts go on in session ${agent.sessionId}.`;
    if (chosen === agent.sessionId) return `Prompts go on in session ${chosen}.`;
    const { servers } = await workspaceMcpServers(folder, connection.agentInfo?.agentCapabilities?.mcpCapabilities);
    const previous = agent.sessionId;
    agent.sessionId = await this.takeUp(name, connection, chosen, folder, servers, signal);
    await this.options.state?.update(sessionKey(name), agent.sessionId);
    await connection.closeSession(previous).catch((error) => this.channel.warn(`[${name}] session ${previous} did not close: ${error instanceof Error ? error.message : String(error)}`));
    return `Prompts go to session ${agent.sessionId} now.`;
  }

  dispose(): void {
    void this.closeAll();
    this.disposables.dispose();
  }

  async closeAll(): Promise<void> {
    const running = [...this.running.values()];
    this.running.clear();
    await Promise.all(running.map(async (entry) => {
      const agent = await entry.ready;
      if (typeof agent !== 'string') await agent.connection.close();
    }));
  }

  private reload(): void {
    const { agents, ignored } = configuredAcpAgents();
    if (ignored) this.options.logger.warn('acp.settings_ignored', { reason: ignored });
    this.agents = agents;
    // Agents that were removed or changed stop now; the rest keep their session.
    for (const [name, entry] of [...this.running]) {
      const launch = agents.find((agent) => agent.name === name);
      if (launch && JSON.stringify(launch) === JSON.stringify(entry.launch)) continue;
      this.running.delete(name);
      void entry.ready.then((agent) => (typeof agent === 'string' ? undefined : agent.connection.close()));
    }
  }

  /** A session by id: session/resume where offered (no history replayed), else session/load. */
  private takeUp(name: string, connection: AcpAgentConnection, sessionId: string, folder: string | undefined, servers: Acp.McpServer[], signal: AbortSignal): Promise<string> {
    const open = () => (connection.offers('resume') ? connection.resumeSession(sessionId, folder, signal, servers) : connection.loadSession(sessionId, folder, signal, servers));
    return withSignIn(connection, this.signIn(name), open, signal);
  }

  /** The agent's last session in this workspace, taken up where the agent offers that. */
  private async resume(connection: AcpAgentConnection, launch: AcpLaunch, folder: string | undefined, servers: Acp.McpServer[], signal: AbortSignal): Promise<string | undefined> {
    const stored = this.options.state?.get<string>(sessionKey(launch.name));
    if (typeof stored !== 'string' || (!connection.offers('resume') && connection.agentInfo?.agentCapabilities?.loadSession !== true)) return undefined;
    try {
      return await this.takeUp(launch.name, connection, stored, folder, servers, signal);
    } catch (error) {
      this.channel.warn(`[${launch.name}] session ${stored} could not be loaded, a new one is opened: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  private async start(launch: AcpLaunch, signal: AbortSignal): Promise<RunningAgent | string> {
    const connection = new AcpAgentConnection({
      launch,
      executor: this.options.executor,
      policy: this.options.policy,
      approvals: this.options.approvals,
      workspaceFolders: this.options.workspaceFolders,
      clientInfo: { name: 'Agent Tool Executor (VS Code)', version: this.options.version },
      turns: { turnOptions: (sessionId) => this.turns?.turnOptions?.(sessionId) ?? {}, observe: (turn, call, sessionId) => this.turns?.observe?.(turn, call, sessionId) },
      log: (text) => this.channel.info(`[${launch.name}] ${text.trimEnd()}`),
      ...(this.options.ask ? { elicit: (request: Acp.CreateElicitationRequest, signal: AbortSignal) => askForm(this.options.ask!, launch.name, request, signal) } : {}),
    });
    this.options.logger.info('acp.starting', { name: launch.name, command: launch.command });
    try {
      const info = await connection.start(signal);
      const folder = this.options.workspaceFolders()[0];
      const { servers, skipped } = await workspaceMcpServers(folder, info.agentCapabilities?.mcpCapabilities);
      for (const server of skipped) this.channel.warn(`[${launch.name}] MCP server ${server.name} is not passed: ${server.why}`);
      const sessionId = (await this.resume(connection, launch, folder, servers, signal)) ?? (await withSignIn(connection, this.signIn(launch.name), () => connection.newSession(folder, signal, servers), signal));
      await this.options.state?.update(sessionKey(launch.name), sessionId);
      this.channel.info(`[${launch.name}] started: ${info.agentInfo?.name ?? launch.command} ${info.agentInfo?.version ?? ''}, session ${sessionId}`);
      // When it exits or its connection ends (a message over the SDK's limit stops it), the next prompt starts it again.
      void Promise.race([connection.exited.then((code) => `exited (code ${code})`), connection.closed.then(() => 'closed its connection')]).then((why) => {
        this.channel.warn(`[${launch.name}] ${why}`);
        const entry = this.running.get(launch.name);
        if (entry && entry.launch === launch) this.running.delete(launch.name);
      });
      return { connection, sessionId };
    } catch (error) {
      await connection.close().catch(() => undefined);
      this.running.delete(launch.name);
      const message = `The ACP agent ${launch.name} (${launch.command}) could not be started: ${error instanceof Error ? error.message : String(error)}`;
      this.channel.error(message);
      return message;
    }
  }
}
