// `tool-exec serve --stdio` (issue 15): the bridge protocol (docs/PROTOCOL.md) served from the server side
// on stdin/stdout, for an agent that starts us as its child. One executor for the whole connection; it
// ends when the agent closes our stdin, sends `exit`, or a signal arrives — open turns are cancelled
// first and every process their calls started is stopped.
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import { createMessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { bindBridge } from '../bridge/bind';
import { BridgeErrorCodes, EventNotification, Methods } from '../bridge/protocol';
import { BridgeService } from '../bridge/service';
import type { ToolDefinition } from '../executor/contract';
import { projectErrorMessage } from '../executor/errors';
import { ToolExecutor } from '../executor/executor';
import type { ApprovalClient } from '../executor/ports/approvalClient';
import type { Logger } from '../executor/ports/logger';
import type { PermissionMode } from '../executor/policy/index';
import { ToolRegistry } from '../executor/registry';
import { FixedApprovalClient } from '../node/fixedApprovalClient';
import { registerBuiltinTools } from '../tools/index';
import { ProcessSupervisor } from '../tools/processTree';
import { createCliAdapters } from './adapters';
import { UsageError } from './args';
import type { CliWriter } from './cliOutput';
import type { ToolContainment } from './containment';
import { loadToolModule } from './toolModules';

declare const TOOL_EXEC_VERSION: string | undefined;

export interface ServeArgs {
  readonly workspace: string;
  readonly tools: readonly string[];
  readonly concurrency?: number;
  readonly maxResultBytes?: number;
  readonly timeoutMs?: number;
  readonly approve?: 'allow' | 'deny';
  readonly mode?: PermissionMode;
  readonly artifacts?: string;
  readonly settings?: string;
}

export interface ServeIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: CliWriter;
  readonly cwd: string;
  readonly logger: Logger;
  /** Aborted on a signal or a closed stdout: the server stops. */
  readonly signal: AbortSignal;
  readonly containment?: ToolContainment;
}

/** Serves until the agent goes away; resolves with the exit code (0). */
export async function serveStdio(args: ServeArgs, io: ServeIo): Promise<number> {
  const workspace = resolve(io.cwd, args.workspace);
  if (!isDirectory(workspace)) throw new UsageError(`--workspace ${args.workspace} is not a directory`);
  const moduleTools: { module: string; defs: ToolDefinition[] }[] = [];
  for (const module of args.tools) {
    const load = () => loadToolModule(module, io.cwd);
    const defs = await (io.containment ? io.containment.runInModule(module, load) : load());
    moduleTools.push({ module, defs: io.containment ? defs.map((def) => io.containment!.wrap(def, module)) : defs });
  }
  const sessionId = randomUUID();
  const adapters = await createCliAdapters({ sessionId, workspace, cwd: io.cwd, mode: args.mode, settingsFile: args.settings, artifactsDir: args.artifacts, logger: io.logger });
  const registry = new ToolRegistry();
  const supervisor = new ProcessSupervisor();
  const executor = new ToolExecutor({
    ...adapters.options,
    registry,
    sessionId,
    workspaceFolders: [workspace],
    approvalClient: approvalClientFor(args),
    defaultTimeoutMs: args.timeoutMs,
    maxConcurrency: args.concurrency,
    maxModelBytes: args.maxResultBytes,
  });
  try {
    registerBuiltinTools(registry, { backgroundTasks: executor, supervisor, sandbox: adapters.sandbox });
    for (const { module, defs } of moduleTools) {
      for (const def of defs) {
        if (registry.has(def.name)) throw new UsageError(`--tools ${module}: tool ${def.name} is already registered`);
        try {
          registry.register(def);
        } catch (error) {
          throw new UsageError(`--tools ${module}: tool ${JSON.stringify(def.name)} cannot be registered: ${projectErrorMessage(error)}`);
        }
      }
    }
    await serveConnection(executor, io);
    return 0;
  } finally {
    await executor.dispose();
    await supervisor.dispose();
    await adapters.close();
  }
}

async function serveConnection(executor: ToolExecutor, io: ServeIo): Promise<void> {
  // Descriptor 1 is the CLI's own (`CliOutput`): protocol messages are the only thing written there.
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      io.stdout.write(chunk.toString('utf8'));
      callback();
    },
  });
  const connection = createMessageConnection(new StreamMessageReader(io.stdin), new StreamMessageWriter(out));
  const service = new BridgeService({
    executor,
    notify: (params) => void connection.sendNotification(EventNotification, params).catch(() => {}),
    executorInfo: { name: 'tool-exec', version: typeof TOOL_EXEC_VERSION === 'string' ? TOOL_EXEC_VERSION : 'dev' },
    approvals: 'settings',
  });
  const binding = bindBridge(connection, service, { requireInitialize: true });
  const known = ['initialize', 'shutdown', ...Object.values(Methods).filter((method) => method.startsWith('executor/') && method !== Methods.event)];
  connection.onRequest((method) => new ResponseError(BridgeErrorCodes.MethodNotFound, `unknown method ${JSON.stringify(method)}: tool-exec serve answers ${known.join(', ')}`));
  connection.onRequest('shutdown', () => service.closeAll('the agent asked to shut down').then(() => null));
  const ended = new Promise<string>((resolveEnded) => {
    connection.onNotification('exit', () => resolveEnded('the agent sent exit'));
    connection.onClose(() => resolveEnded('the agent closed the connection'));
    io.signal.addEventListener('abort', () => resolveEnded('tool-exec was stopped'), { once: true });
  });
  connection.listen();
  const reason = await ended;
  io.logger.info('serve.ended', { reason, openTurns: service.openTurns });
  await service.closeAll(reason);
  binding.dispose();
  connection.dispose();
}

/** `--approve` answers everything; otherwise nobody can be asked (stdin is the protocol): deny. */
function approvalClientFor(args: ServeArgs): ApprovalClient {
  if (args.approve === 'allow') return new FixedApprovalClient({ kind: 'allowOnce' });
  if (args.approve === 'deny') return new FixedApprovalClient({ kind: 'deny', reason: 'denied by --approve deny' });
  return new FixedApprovalClient({ kind: 'deny', reason: 'tool-exec serve has nobody to ask (pass --approve allow, or allow rules in --settings)' });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
