// The agent named by `agentToolExecutor.agent.*`, hosted with vscode-languageclient:
//   1. start it over stdio with `LanguageClient` — the editor sends LSP `initialize` with the executor's
//      info in `initializationOptions.executor` — and serve the bridge's executor/* methods from the client
//      side (`client.onRequest`), through one `BridgeService` per agent process;
//   2. when its process ends on its own, cancel its open turns (their calls end as cancelled), say so in
//      the log and to whoever listens (the chat), and start it again after a backoff (`RestartBackoff`);
//   3. trace the JSON-RPC traffic to its own output channel (`agentToolExecutor.agent.trace.server`);
//      the agent's stderr goes to the "Agent Tool Executor: Agent" channel.
// A workspace's agent settings count only in a trusted workspace (`resolveAgentLaunch`).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import { bindBridge } from '../../bridge/bind';
import type { AgentLaunch } from '../../bridge/launch';
import { EventNotification, ProgressNotification, type AgentInitializationOptions, type ProgressParams } from '../../bridge/protocol';
import { RestartBackoff } from '../../node/runtime/restarts';
import { BridgeService, type BridgeCheckpoints, type BridgeHost } from '../../bridge/service';
import type { ToolExecutor } from '../../executor';
import type { Logger } from '../../executor';
import { affectsAgentLaunch, agentLaunchFromSettings } from './bridgeAgentSettings';
import { disposableStore } from '../../common/lifecycle';

/** The client's id: VS Code reads `<id>.trace.server` for the trace level. */
export const AGENT_CLIENT_ID = 'agentToolExecutor.agent';
/** How long a prompt waits for an agent that is starting or about to restart. Ours. */
export const AGENT_READY_TIMEOUT_MS = 30_000;
/** How long a stopping agent gets for shutdown/exit before its process is killed. Ours (the client's default). */
const AGENT_STOP_TIMEOUT_MS = 2000;

export interface AgentHostOptions {
  readonly executor: ToolExecutor;
  readonly logger: Logger;
  /** The extension's version, told to the agent. */
  readonly version: string;
  readonly workspaceFolders: () => readonly string[];
  /** The extension's checkpoints: a turn run outside a prompt is checkpointed on its own, and the agent may list and undo them. */
  readonly checkpoints?: BridgeCheckpoints;
}

/** The agent's process ended on its own. */
export interface AgentCrash {
  /** One sentence for the user: what happened and what comes next. */
  readonly message: string;
  readonly restarting: boolean;
}

type Status =
  | { readonly kind: 'off' }
  | { readonly kind: 'starting'; readonly ready: Promise<LanguageClient | string> }
  | { readonly kind: 'running'; readonly client: LanguageClient }
  | { readonly kind: 'restarting'; readonly ready: Promise<LanguageClient | string> }
  | { readonly kind: 'failed'; readonly message: string };

export class AgentHost implements vscode.Disposable {
  private readonly disposables = disposableStore();
  private readonly agentChannel = vscode.window.createOutputChannel('Agent Tool Executor: Agent', { log: true });
  private readonly traceChannel = vscode.window.createOutputChannel('Agent Tool Executor: Agent Trace', { log: true });
  private readonly _onDidCrash = new vscode.EventEmitter<AgentCrash>();
  /** The agent's process ended on its own (it is restarted, or given up on). */
  readonly onDidCrash = this._onDidCrash.event;
  private backoff = new RestartBackoff();
  private launch: AgentLaunch | undefined;
  private status: Status = { kind: 'off' };
  private client: LanguageClient | undefined;
  private service: BridgeService | undefined;
  /** Bumped per start and stop: callbacks of an older agent process are ignored. */
  private generation = 0;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private bridgeHost: BridgeHost | undefined;
  private progressListener: ((params: ProgressParams) => void) | undefined;

  constructor(private readonly options: AgentHostOptions) {
    this.disposables.addAll(
      this.agentChannel,
      this.traceChannel,
      this._onDidCrash,
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsAgentLaunch(event)) void this.reload();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.reload()),
    );
  }

  /** Who watches the agent's turns (the chat reply) and what each turn gets. */
  setBridgeHost(host: BridgeHost): void {
    this.bridgeHost = host;
  }

  /** Where `agent/progress` notifications go. */
  onProgress(listener: (params: ProgressParams) => void): void {
    this.progressListener = listener;
  }

  /** An agent is named by the settings (and allowed by the workspace's trust). */
  configured(): boolean {
    return this.launch !== undefined;
  }

  /** The program and its first argument, without folders, for messages (`node agent.js`). */
  describe(): string {
    if (!this.launch) return '(no agent)';
    return [this.launch.command, ...this.launch.args.slice(0, 1)].map((part) => path.basename(part)).join(' ');
  }

  /** Reads the settings; (re)starts the agent when what to run changed. */
  async reload(): Promise<void> {
    const decision = agentLaunchFromSettings();
    if (decision.ignored) this.options.logger.warn('agent.settings_ignored', { reason: decision.ignored });
    if (JSON.stringify(decision.launch) === JSON.stringify(this.launch) && this.status.kind !== 'failed') return;
    await this.stop();
    this.launch = decision.launch;
    // Another agent, or the same one asked for again: earlier crashes no longer count.
    this.backoff = new RestartBackoff();
    if (this.launch) void this.start();
  }

  /** The running client, waiting for one that is starting or restarting; otherwise why there is none. */
  async ready(token: vscode.CancellationToken): Promise<LanguageClient | string> {
    const status = this.status;
    switch (status.kind) {
      case 'running':
        return status.client;
      case 'off':
        return 'No agent is configured (agentToolExecutor.agent.command).';
      case 'failed':
        return status.message;
      default: {
        let timer: ReturnType<typeof setTimeout> | undefined;
        let cancel: vscode.Disposable | undefined;
        const waited = new Promise<string>((resolve) => {
          timer = setTimeout(() => resolve(`The agent (${this.describe()}) did not start within ${AGENT_READY_TIMEOUT_MS / 1000} s.`), AGENT_READY_TIMEOUT_MS);
          cancel = token.onCancellationRequested(() => resolve('Cancelled.'));
        });
        try {
          return await Promise.race([status.ready, waited]);
        } finally {
          clearTimeout(timer);
          cancel?.dispose();
        }
      }
    }
  }

  /** Stops the agent (shutdown, exit, then its process is killed); open turns are cancelled. */
  async stop(): Promise<void> {
    this.generation++;
    clearTimeout(this.restartTimer);
    const client = this.client;
    const service = this.service;
    this.client = undefined;
    this.service = undefined;
    this.status = { kind: 'off' };
    await service?.closeAll('the agent was stopped');
    if (client?.needsStop()) await client.stop(AGENT_STOP_TIMEOUT_MS).catch(() => undefined);
  }

  dispose(): void {
    void this.stop();
    this.disposables.dispose();
  }

  private start(): Promise<LanguageClient | string> {
    const launch = this.launch!;
    const generation = ++this.generation;
    const ready = this.startClient(launch, generation);
    this.status = this.status.kind === 'restarting' ? { kind: 'restarting', ready } : { kind: 'starting', ready };
    return ready;
  }

  private async startClient(launch: AgentLaunch, generation: number): Promise<LanguageClient | string> {
    let client: LanguageClient | undefined;
    const service = new BridgeService({
      executor: this.options.executor,
      notify: (params) => {
        if (client?.isRunning()) client.sendNotification(EventNotification, params).catch(() => undefined);
      },
      executorInfo: { name: 'Agent Tool Executor (VS Code)', version: this.options.version },
      approvals: 'interactive',
      ...(this.options.checkpoints ? { checkpoints: this.options.checkpoints } : {}),
      logger: this.options.logger,
      host: {
        turnOptions: (turnId) => this.bridgeHost?.turnOptions?.(turnId) ?? {},
        observe: (turn, turnId) => this.bridgeHost?.observe?.(turn, turnId),
      },
    });
    const serverOptions: ServerOptions = {
      command: launch.command,
      args: [...launch.args],
      options: { cwd: launch.cwd ?? this.options.workspaceFolders()[0], env: { ...process.env, ...launch.env } },
    };
    const initializationOptions: AgentInitializationOptions = { executor: service.info() };
    const { CloseAction, ErrorAction, LanguageClient } = await import('vscode-languageclient/node');
    const clientOptions: LanguageClientOptions = {
      documentSelector: [],
      outputChannel: this.agentChannel,
      traceOutputChannel: this.traceChannel,
      initializationOptions: () => ({ ...initializationOptions, executor: service.info() }),
      errorHandler: {
        error: () => ({ action: ErrorAction.Continue, handled: true }),
        closed: () => {
          this.ended(generation, 'its process exited');
          return { action: CloseAction.DoNotRestart, handled: true };
        },
      },
      initializationFailedHandler: () => false,
    };
    client = new LanguageClient(AGENT_CLIENT_ID, 'Agent Tool Executor: Agent', serverOptions, clientOptions);
    bindBridge(client, service, { requireInitialize: false });
    client.onNotification(ProgressNotification, (params) => {
      if (generation === this.generation) this.progressListener?.(params);
    });
    this.client = client;
    this.service = service;
    this.backoff.started();
    this.options.logger.info('agent.starting', { command: launch.command, args: launch.args.length, cwd: serverOptions.options?.cwd });
    try {
      await client.start();
    } catch (error) {
      this.ended(generation, `it could not be started: ${error instanceof Error ? error.message : String(error)}`);
      return `The agent (${this.describe()}) could not be started: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (generation !== this.generation) return 'The agent was stopped.';
    this.status = { kind: 'running', client };
    this.options.logger.info('agent.running', { command: launch.command });
    return client;
  }

  /** The agent of `generation` ended without being asked to: cancel its turns, tell, and maybe restart. */
  private ended(generation: number, why: string): void {
    if (generation !== this.generation) return;
    this.generation++;
    const service = this.service;
    this.client = undefined;
    this.service = undefined;
    const decision = this.backoff.crashed();
    const cancelled = service?.openTurns ?? 0;
    void service?.closeAll(`the agent stopped: ${why}`);
    const lost = cancelled > 0 ? ` Its ${cancelled === 1 ? 'open turn was' : `${cancelled} open turns were`} cancelled.` : '';
    if (decision.restart) {
      const message = `The agent (${this.describe()}) stopped: ${why}.${lost} Restarting it in ${formatSeconds(decision.delayMs)} (restart ${decision.attempt}).`;
      this.options.logger.warn('agent.crashed', { why, attempt: decision.attempt, delayMs: decision.delayMs, cancelledTurns: cancelled });
      this.agentChannel.warn(message);
      let resolveReady!: (value: LanguageClient | string) => void;
      const ready = new Promise<LanguageClient | string>((resolve) => (resolveReady = resolve));
      this.status = { kind: 'restarting', ready };
      const restartGeneration = this.generation;
      this.restartTimer = setTimeout(() => {
        if (restartGeneration !== this.generation || !this.launch) return resolveReady('The agent was stopped.');
        void this.start().then(resolveReady);
      }, decision.delayMs);
      this._onDidCrash.fire({ message, restarting: true });
    } else {
      const message = `The agent (${this.describe()}) stopped: ${why}.${lost} It stopped ${decision.attempts} times in a row, so it is not restarted; change agentToolExecutor.agent.* or reload the window to try again.`;
      this.options.logger.error('agent.given_up', { why, attempts: decision.attempts });
      this.agentChannel.error(message);
      this.status = { kind: 'failed', message };
      this._onDidCrash.fire({ message, restarting: false });
    }
  }
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
