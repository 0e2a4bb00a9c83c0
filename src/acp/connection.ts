// An ACP agent in its own process, with us as its client. No vscode import.
//   1. spawn the agent, newline-delimited JSON-RPC over its stdin/stdout (the SDK's `ndJsonStream`);
//   2. `initialize` with our capabilities (fs read/write, terminal, form elicitation when the host asks forms), then
//      `session/new` with the folder and the host's MCP servers — or load / resume an earlier session (session/);
//   3. serve its requests through the executor, one handler per method (files.ts, terminals.ts, permissions.ts):
//      each answers a value or a JSON-RPC error, never hangs — a request ends when its own `$/cancel_request`,
//      its session's cancel or the connection's close aborts it;
//   4. `session/prompt`, and `session/cancel` (which also kills the session's terminals);
//   5. its `session/update` notifications go to whoever listens (the chat reply), in arrival order, after the
//      session's modes and config options (session/settings.ts) took them in;
//   6. `close()` sends `session/close` for each open session where the agent offers it, then ends its process.
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import type { ToolExecutor } from '../executor';
import type { ApprovalClient } from '../executor';
import type { PermissionPolicy } from '../executor';
import type { CallRunner, TurnHost } from './calls';
import { readTextFile, writeTextFile } from './files';
import { GrantedApprovals, Grants } from './grants';
import { AcpErrorCodes, fail, type Outcome } from './outcome';
import { requestPermission } from './permissions';
import { restoreToolCall, ServedSecrets } from './secrets';
import { loadAcp, type Acp, type AcpModule } from './sdk';
import { Terminals } from './terminals';
import { formatBytes } from '../executor';
import { SessionSettingsStore } from './session/settings';

/** How long a closing agent gets after its stdin ends before it is killed. Ours. */
export const AGENT_CLOSE_GRACE_MS = 2000;
/** How long `close()` waits for the agent's answers to session/close before it ends the process anyway. Ours. */
export const SESSION_CLOSE_WAIT_MS = 2000;
/** Pages of session/list read for one list: an agent whose cursor never ends is not followed forever. Ours. */
export const MAX_SESSION_LIST_PAGES = 20;
/** How often a closing agent's process group is looked at until it is empty. Ours. */
const GROUP_POLL_MS = 20;
/** The longest a close waits for the group: the grace, then as long again for the SIGKILL (a zombie nobody reaps stays). Ours. */
const GROUP_WAIT_MS = 2 * AGENT_CLOSE_GRACE_MS;

/** What to run: a configured agent. */
export interface AcpLaunch {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export interface AcpConnectionOptions {
  readonly launch: AcpLaunch;
  readonly executor: ToolExecutor;
  /** Our rules, for the agent's permission requests. */
  readonly policy: PermissionPolicy;
  /** Who is asked when our rules leave it open (VS Code: the modal). */
  readonly approvals: ApprovalClient;
  readonly workspaceFolders: () => readonly string[];
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly turns?: TurnHost;
  /** The agent's stderr, a chunk at a time. */
  readonly log?: (text: string) => void;
  /** Asks the user an agent's form (`elicitation/create`); without it, elicitation is not offered. */
  readonly elicit?: (request: Acp.CreateElicitationRequest, signal: AbortSignal) => Promise<Acp.CreateElicitationResponse>;
}

/** A request of the agent's that was denied: the agent's tool call id when it named one, and who denied it. */
export interface AcpDenial {
  readonly sessionId: string;
  readonly toolCallId?: string;
  readonly by: string;
  /** The title the agent gave the call in its request. */
  readonly title?: string;
}

export class AcpAgentConnection {
  private readonly updateListeners = new Set<(update: Acp.SessionNotification) => void>();
  private readonly denialListeners = new Set<(denial: AcpDenial) => void>();
  /** Per session: the slash commands the agent last offered (`available_commands_update`). */
  private readonly commands = new Map<string, readonly Acp.AvailableCommand[]>();
  private readonly sessions = new Map<string, AbortController>();
  /** Per session: what the user allowed through session/request_permission. */
  private readonly grants = new Map<string, Grants>();
  /** Per session: the secrets of the files it was shown masked, put back when it writes them. */
  private readonly secrets = new Map<string, ServedSecrets>();
  private readonly terminals: Terminals;
  /** Per session: its modes and config options, as the agent last said them. */
  readonly settings = new SessionSettingsStore();
  private readonly runner: CallRunner;
  private child: ChildProcess | undefined;
  private connection: Acp.ClientConnection | undefined;
  private exitCode: Promise<number | null> = Promise.resolve(null);
  /** `close()` was called: the connection's end is ours, not the agent's doing. */
  private closing = false;
  /** What the agent said about itself in `initialize`. */
  agentInfo: Acp.InitializeResponse | undefined;

  constructor(private readonly options: AcpConnectionOptions) {
    this.runner = { executor: options.executor, turns: options.turns, approvalsFor: (sessionId) => new GrantedApprovals(options.approvals, this.grantsOf(sessionId)) };
    this.terminals = new Terminals(this.runner);
  }

  /** Starts the agent and initializes it; rejects with a message saying why it could not. */
  async start(signal?: AbortSignal): Promise<Acp.InitializeResponse> {
    const acp = await loadAcp();
    const { launch } = this.options;
    const child = spawn(launch.command, [...launch.args], {
      cwd: launch.cwd ?? this.options.workspaceFolders()[0],
      env: { ...process.env, ...launch.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group: what it starts (Claude Code under its adapter) ends with it.
      detached: process.platform !== 'win32',
    });
    this.child = child;
    this.exitCode = new Promise((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.once('error', () => resolve(null));
    });
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    child.stderr!.setEncoding('utf8').on('data', (text: string) => this.options.log?.(text));
    await spawned;
    const stream = acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as unknown as ReadableStream<Uint8Array>);
    const connection = this.handlers(acp).connect(stream);
    this.connection = connection;
    // The agent went away, or sent what cannot be read (a message over the SDK's limit): what it left running
    // dies with it, and so does the agent, so its host starts it again for the next prompt.
    void connection.closed.finally(() => {
      void this.endSessions();
      if (!this.closing) void this.stop();
    });
    void this.exitCode.then(() => connection.close(new Error(`the agent exited`)));
    const info = await connection.agent.request(
      acp.methods.agent.initialize,
      {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, ...(this.options.elicit ? { elicitation: { form: {} } } : {}) },
        clientInfo: { name: this.options.clientInfo.name, version: this.options.clientInfo.version },
      },
      { cancellationSignal: signal },
    );
    this.agentInfo = info;
    return info;
  }

  /** `session/new` in `cwd` (default: the first workspace folder), with the MCP servers the agent may start. */
  async newSession(cwd?: string, signal?: AbortSignal, mcpServers: readonly Acp.McpServer[] = []): Promise<string> {
    const acp = await loadAcp();
    const response = await this.agent().request(acp.methods.agent.session.new, { cwd: cwd ?? this.options.workspaceFolders()[0] ?? process.cwd(), mcpServers: [...mcpServers] }, { cancellationSignal: signal });
    this.sessions.set(response.sessionId, new AbortController());
    this.settings.opened(response.sessionId, response);
    return response.sessionId;
  }

  /**
   * `session/load`: takes up a session the agent kept (a window reload, a restart), where it offers that;
   * the history it replays goes to whoever listens. Rejects when the agent does not offer it or refuses.
   */
  async loadSession(sessionId: string, cwd?: string, signal?: AbortSignal, mcpServers: readonly Acp.McpServer[] = []): Promise<string> {
    const acp = await loadAcp();
    if (this.agentInfo?.agentCapabilities?.loadSession !== true) throw new Error('the agent does not offer session/load');
    // Known before the answer: the replayed updates name it, and the listeners must see them.
    this.sessions.set(sessionId, new AbortController());
    try {
      const answer = await this.agent().request(acp.methods.agent.session.load, { sessionId, cwd: cwd ?? this.options.workspaceFolders()[0] ?? process.cwd(), mcpServers: [...mcpServers] }, { cancellationSignal: signal });
      this.settings.opened(sessionId, answer ?? {});
    } catch (error) {
      this.sessions.delete(sessionId);
      throw error;
    }
    return sessionId;
  }

  /** `session/resume`: takes up a session without its history replayed, where the agent offers it. */
  async resumeSession(sessionId: string, cwd?: string, signal?: AbortSignal, mcpServers: readonly Acp.McpServer[] = []): Promise<string> {
    const acp = await loadAcp();
    if (!this.offers('resume')) throw new Error('the agent does not offer session/resume');
    const answer = await this.agent().request(acp.methods.agent.session.resume, { sessionId, cwd: cwd ?? this.options.workspaceFolders()[0] ?? process.cwd(), mcpServers: [...mcpServers] }, { cancellationSignal: signal });
    this.sessions.set(sessionId, new AbortController());
    this.settings.opened(sessionId, answer ?? {});
    return sessionId;
  }

  /** `session/list` (every page, up to a bound), where the agent offers it; `cwd` keeps the folder's sessions. */
  async listSessions(cwd?: string, signal?: AbortSignal): Promise<Acp.SessionInfo[]> {
    const acp = await loadAcp();
    if (!this.offers('list')) throw new Error('the agent does not offer session/list');
    const sessions: Acp.SessionInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_SESSION_LIST_PAGES; page++) {
      const answer = await this.agent().request(acp.methods.agent.session.list, { ...(cwd ? { cwd } : {}), ...(cursor ? { cursor } : {}) }, { cancellationSignal: signal });
      sessions.push(...answer.sessions);
      cursor = answer.nextCursor ?? undefined;
      if (!cursor) break;
    }
    return sessions;
  }

  /** Whether the agent offers a session method of `sessionCapabilities`. */
  offers(method: 'list' | 'resume' | 'close'): boolean {
    return this.agentInfo?.agentCapabilities?.sessionCapabilities?.[method] != null;
  }

  /** `session/close` where the agent offers it; the session's requests and commands end either way. */
  async closeSession(sessionId: string, signal?: AbortSignal): Promise<void> {
    const acp = await loadAcp();
    this.sessions.get(sessionId)?.abort(new Error('the session was closed'));
    this.sessions.delete(sessionId);
    this.grants.delete(sessionId);
    this.settings.drop(sessionId);
    await this.terminals.killAll(sessionId);
    if (this.offers('close') && !this.connection?.signal.aborted) await this.agent().request(acp.methods.agent.session.close, { sessionId }, { cancellationSignal: signal });
  }

  /** `session/set_mode`; the session's mode is the new one once the agent agreed. */
  async setMode(sessionId: string, modeId: string, signal?: AbortSignal): Promise<void> {
    const acp = await loadAcp();
    await this.agent().request(acp.methods.agent.session.setMode, { sessionId, modeId }, { cancellationSignal: signal });
    this.settings.modeIs(sessionId, modeId);
  }

  /** `session/set_config_option`; the agent answers the whole set of options, which the session then has. */
  async setConfigOption(sessionId: string, configId: string, value: string | boolean, signal?: AbortSignal): Promise<void> {
    const acp = await loadAcp();
    const params: Acp.SetSessionConfigOptionRequest = typeof value === 'boolean' ? { sessionId, configId, type: 'boolean', value } : { sessionId, configId, value };
    const answer = await this.agent().request<Acp.SetSessionConfigOptionResponse>(acp.methods.agent.session.setConfigOption, params, { cancellationSignal: signal });
    this.settings.optionsAre(sessionId, answer.configOptions);
  }

  /** A file's text for a prompt's embedded resource: our Read as a request of the session's (redaction, ignore files, the reply shows it). */
  async readForPrompt(sessionId: string, path: string, lines: { readonly first: number; readonly last: number } | undefined, signal: AbortSignal): Promise<{ text: string } | { refused: string }> {
    const outcome = await readTextFile(this.runner, { sessionId, path, line: lines?.first ?? null, limit: lines ? lines.last - lines.first + 1 : null }, this.signalOf(sessionId, signal));
    return outcome.ok ? { text: outcome.value.content } : { refused: outcome.message };
  }

  /** `authenticate` with one of the agent's `authMethods`. */
  async authenticate(methodId: string, signal?: AbortSignal): Promise<void> {
    const acp = await loadAcp();
    await this.agent().request(acp.methods.agent.authenticate, { methodId }, { cancellationSignal: signal });
  }

  /** `session/prompt`; aborting `signal` sends `session/cancel` and the answer's stopReason is then `cancelled`. */
  async prompt(sessionId: string, prompt: Acp.ContentBlock[], signal?: AbortSignal): Promise<Acp.PromptResponse> {
    const acp = await loadAcp();
    if (this.sessions.get(sessionId)?.signal.aborted !== false) this.sessions.set(sessionId, new AbortController());
    const lost = this.lost();
    if (lost) throw new Error(lost);
    const onAbort = () => void this.cancel(sessionId);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (signal?.aborted) onAbort();
      const answer = await this.agent().request(acp.methods.agent.session.prompt, { sessionId, prompt });
      // The SDK settles a response at once but runs notification handlers through a promise chain, so the
      // updates the agent sent before its answer may still be in flight: they finish within these microtasks.
      await new Promise((resolve) => setImmediate(resolve));
      return answer;
    } catch (error) {
      // The agent's own error keeps its code (auth_required is answered by signing in).
      const lost = this.lost();
      throw lost ? new Error(lost) : error instanceof Error ? error : new Error(String(error));
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** `session/cancel`: our open requests of the session end (approvals answer `cancelled`), its commands die. */
  async cancel(sessionId: string): Promise<void> {
    const acp = await loadAcp();
    // The notification goes out before the answers our aborted requests give, so the agent knows why.
    const notified = this.connection?.agent.notify(acp.methods.agent.session.cancel, { sessionId }).catch(() => undefined);
    this.sessions.get(sessionId)?.abort(new Error('the session was cancelled'));
    this.grants.get(sessionId)?.clear();
    await Promise.all([this.terminals.killAll(sessionId), notified]);
  }

  onUpdate(listener: (update: Acp.SessionNotification) => void): () => void {
    this.updateListeners.add(listener);
    return () => this.updateListeners.delete(listener);
  }

  /** Each permission request of the agent's that our rules or the user denied. */
  onDenied(listener: (denial: AcpDenial) => void): () => void {
    this.denialListeners.add(listener);
    return () => this.denialListeners.delete(listener);
  }

  /** The slash commands the agent last offered in the session. */
  availableCommands(sessionId: string): readonly Acp.AvailableCommand[] {
    return this.commands.get(sessionId) ?? [];
  }

  /** Resolves with the agent's exit code once its process has ended. */
  get exited(): Promise<number | null> {
    return this.exitCode;
  }

  /** Resolves once the connection ended, by `close()`, the agent's exit, or what the agent sent. */
  get closed(): Promise<void> {
    return this.connection?.closed ?? this.exitCode.then(() => undefined);
  }

  /** Closes the connection, kills the agent's commands and then the agent (after a grace period). */
  async close(): Promise<void> {
    if (!this.closing && this.offers('close') && this.connection && !this.connection.signal.aborted) {
      const open = [...this.sessions.keys()];
      const bounded = AbortSignal.timeout(SESSION_CLOSE_WAIT_MS);
      await Promise.allSettled(open.map((sessionId) => this.closeSession(sessionId, bounded)));
    }
    this.closing = true;
    this.connection?.close();
    await this.endSessions();
    await this.stop();
  }

  /** Ends the agent's process group: its stdin closed, SIGTERM, and SIGKILL after a grace period; then whatever it left running. */
  private async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const group = process.platform !== 'win32' ? child.pid : undefined;
    const signal = (name: NodeJS.Signals) => (group === undefined ? child.kill(name) : signalGroup(group, name));
    const deadline = Date.now() + GROUP_WAIT_MS;
    const timer = setTimeout(() => signal('SIGKILL'), AGENT_CLOSE_GRACE_MS);
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin?.end();
      signal('SIGTERM');
      await this.exitCode;
    }
    if (group !== undefined) {
      signalGroup(group, 'SIGTERM');
      while (signalGroup(group, 0) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
    }
    clearTimeout(timer);
  }

  private async endSessions(): Promise<void> {
    for (const controller of this.sessions.values()) controller.abort(new Error('the agent connection closed'));
    await this.terminals.killAll();
  }

  /** Why the connection ended when we did not end it (the agent exited, or sent what cannot be read). */
  private lost(): string | undefined {
    const signal = this.connection?.signal;
    if (this.closing || !signal?.aborted) return undefined;
    const reason = signal.reason as { name?: string; message?: string; maxMessageBytes?: number } | undefined;
    const why =
      reason?.name === 'MessageTooLargeError' && typeof reason.maxMessageBytes === 'number'
        ? `it sent a message over the ACP SDK's ${formatBytes(reason.maxMessageBytes)} limit for one message`
        : (reason?.message ?? String(reason));
    return `the agent was stopped: ${why}`;
  }

  private secretsOf(sessionId: string): ServedSecrets {
    let secrets = this.secrets.get(sessionId);
    if (!secrets) this.secrets.set(sessionId, (secrets = new ServedSecrets()));
    return secrets;
  }

  private grantsOf(sessionId: string): Grants {
    let grants = this.grants.get(sessionId);
    if (!grants) this.grants.set(sessionId, (grants = new Grants()));
    return grants;
  }

  private agent(): Acp.ClientContext {
    if (!this.connection) throw new Error('the agent is not started');
    return this.connection.agent;
  }

  /** A request's signal: its own, its session's cancel. */
  private signalOf(sessionId: string, own: AbortSignal): AbortSignal {
    const session = this.sessions.get(sessionId)?.signal;
    return session ? AbortSignal.any([own, session]) : own;
  }

  private handlers(acp: AcpModule): Acp.ClientApp {
    const host = this.options;
    const answer = async <T>(work: Promise<Outcome<T>>): Promise<T> => {
      let outcome: Outcome<T>;
      try {
        outcome = await work;
      } catch (error) {
        throw acp.RequestError.internalError(undefined, error instanceof Error ? error.message : String(error));
      }
      if (outcome.ok) return outcome.value;
      throw new acp.RequestError(outcome.code, outcome.message);
    };
    // Every request names a session this connection opened; one it did not is refused before anything runs.
    const inSession = <T>(sessionId: string, work: () => Promise<Outcome<T>>): Promise<T> =>
      answer(this.sessions.has(sessionId) ? work() : Promise.resolve(fail(AcpErrorCodes.resourceNotFound, noSession(sessionId))));
    return acp
      .client({ name: host.clientInfo.name })
      .onRequest(acp.methods.client.fs.readTextFile, ({ params, signal }) => inSession(params.sessionId, () => readTextFile(this.runner, params, this.signalOf(params.sessionId, signal), this.secretsOf(params.sessionId))))
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params, signal }) => inSession(params.sessionId, () => writeTextFile(this.runner, params, this.signalOf(params.sessionId, signal), this.secretsOf(params.sessionId))))
      .onRequest(acp.methods.client.terminal.create, ({ params, signal }) => inSession(params.sessionId, () => this.terminals.create(params, this.signalOf(params.sessionId, signal))))
      .onRequest(acp.methods.client.terminal.output, ({ params, signal }) => inSession(params.sessionId, () => this.terminals.output(params, this.signalOf(params.sessionId, signal))))
      .onRequest(acp.methods.client.terminal.waitForExit, ({ params, signal }) => inSession(params.sessionId, () => this.terminals.waitForExit(params, this.signalOf(params.sessionId, signal))))
      .onRequest(acp.methods.client.terminal.kill, ({ params, signal }) => inSession(params.sessionId, () => this.terminals.kill(params, signal)))
      .onRequest(acp.methods.client.terminal.release, ({ params, signal }) => inSession(params.sessionId, () => this.terminals.release(params, signal)))
      .onRequest(acp.methods.client.session.requestPermission, async ({ params, signal }) => {
        if (!this.sessions.has(params.sessionId)) throw new acp.RequestError(AcpErrorCodes.resourceNotFound, noSession(params.sessionId));
        const request = params.toolCall ? { ...params, toolCall: restoreToolCall(this.secretsOf(params.sessionId), params.toolCall) } : params;
        const answer = await requestPermission({ executor: host.executor, policy: host.policy, approvals: host.approvals, workspaceFolders: host.workspaceFolders }, request, this.signalOf(params.sessionId, signal));
        if (answer.granted) this.grantsOf(params.sessionId).add(answer.granted);
        if (answer.deniedBy) for (const listener of this.denialListeners) listener({ sessionId: params.sessionId, toolCallId: params.toolCall?.toolCallId, by: answer.deniedBy, title: params.toolCall?.title ?? undefined });
        return answer.response;
      })
      .onRequest(acp.methods.client.elicitation.create, async ({ params, signal }) => {
        if (!host.elicit) throw acp.RequestError.methodNotFound(acp.methods.client.elicitation.create);
        const scoped = (params as { sessionId?: unknown }).sessionId;
        const sessionId = typeof scoped === 'string' ? scoped : undefined;
        if (sessionId !== undefined && !this.sessions.has(sessionId)) throw new acp.RequestError(AcpErrorCodes.resourceNotFound, noSession(sessionId));
        return host.elicit(params, sessionId === undefined ? signal : this.signalOf(sessionId, signal));
      })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        if (params.update.sessionUpdate === 'available_commands_update') this.commands.set(params.sessionId, params.update.availableCommands);
        this.settings.apply(params.sessionId, params.update);
        for (const listener of this.updateListeners) listener(params);
      });
  }
}

/** Sends `signal` to the process group; false when no process of it is left. */
function signalGroup(group: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-group, signal);
    return true;
  } catch {
    return false;
  }
}

function noSession(sessionId: string): string {
  return `there is no session ${JSON.stringify(sessionId)} on this connection: open one with session/new`;
}
