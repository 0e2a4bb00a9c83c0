// `tool-exec serve --stdio` (issue 15): the bridge protocol (docs/PROTOCOL.md) served from the server side
// on stdin/stdout, for an agent that starts us as its child. One executor for the whole connection; it
// ends when the agent closes our stdin, sends `exit`, or a signal arrives — open turns are cancelled
// first and every process their calls started is stopped.
import { Writable } from 'node:stream';
import { createMessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { bindBridge } from '../bridge/bind';
import { BridgeErrorCodes, EventNotification, Methods } from '../bridge/protocol';
import { BridgeService } from '../bridge/service';
import type { ToolExecutor } from '../executor/executor';
import type { ApprovalClient } from '../executor/ports/approvalClient';
import type { Logger } from '../executor/ports/logger';
import { FixedApprovalClient } from '../node/fixedApprovalClient';
import type { CliWriter } from './cliOutput';
import { createCliExecutor, loadModuleTools, workspaceOf, type CliExecutorArgs } from './cliExecutor';
import type { ToolContainment } from './containment';

declare const TOOL_EXEC_VERSION: string | undefined;

export interface ServeArgs extends CliExecutorArgs {
  readonly approve?: 'allow' | 'deny';
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
  const workspace = workspaceOf(args, io.cwd);
  const moduleTools = await loadModuleTools(args, io);
  const { executor, close } = await createCliExecutor(args, io, workspace, moduleTools, approvalClientFor(args));
  try {
    await serveConnection(executor, io);
    return 0;
  } finally {
    await close();
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

