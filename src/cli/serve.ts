// `tool-exec serve --stdio`: the bridge protocol (docs/PROTOCOL.md) served from the server side
// on stdin/stdout, for an agent that starts us as its child. One executor for the whole connection; it
// ends when the agent closes our stdin, sends `exit`, or a signal arrives — open turns are cancelled
// first and every process their calls started is stopped. Each turn that writes is checkpointed in the
// store `tool-exec undo` reads (beside the artifacts), and the agent may list and undo them.
import { randomUUID } from 'node:crypto';
import { createMessageConnection, ResponseError, type Message, type MessageWriter } from 'vscode-jsonrpc/node';
import { bindBridge } from '../bridge/bind';
import { FramedMessageReader, FrameWriter, FramingError } from '../bridge/framing';
import { BridgeErrorCodes, EventNotification, Methods } from '../bridge/protocol';
import { BridgeService, type BridgeCheckpoints } from '../bridge/service';
import type { ToolExecutor } from '../executor';
import type { ApprovalClient } from '../executor';
import type { Logger } from '../executor';
import { FixedApprovalClient } from '../node/approval/fixedApprovalClient';
import type { CheckpointStore } from '../node/checkpoints/checkpointStore';
import { HostTurnCheckpoint } from '../node/checkpoints/hostTurn';
import { undoTurn } from '../node/checkpoints/undo';
import { checkpointStoreFor } from './checkpoints';
import type { CliWriter } from './cliOutput';
import type { ServeArgs } from './args';
import { createCliExecutor, loadModuleTools, workspaceOf } from './cliExecutor';
import type { ToolContainment } from './toolModules/containment';

declare const TOOL_EXEC_VERSION: string | undefined;

export interface ServeIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: CliWriter;
  readonly cwd: string;
  readonly logger: Logger;
  /** Aborted on a signal or a closed stdout: the server stops. */
  readonly signal: AbortSignal;
  readonly containment?: ToolContainment;
}

/** Exit code when the agent's stream broke the framing (the CLI's code for a misuse). */
export const SERVE_FRAMING_EXIT_CODE = 2;
/** At the end, how long the requests already read may take to be answered (open turns were cancelled: they answer at once). Ours. */
export const SERVE_ANSWER_DRAIN_MS = 1000;

/** Serves until the agent goes away; resolves with the exit code (0, or SERVE_FRAMING_EXIT_CODE). */
export async function serveStdio(args: ServeArgs, io: ServeIo): Promise<number> {
  const workspace = workspaceOf(args, io.cwd);
  const moduleTools = await loadModuleTools(args, io);
  const { executor, close } = await createCliExecutor(args, io, workspace, moduleTools, approvalClientFor(args));
  try {
    const { framing } = await serveConnection(executor, io, storeCheckpoints(checkpointStoreFor(workspace, args.artifacts, io.cwd), [workspace], args.approve === 'allow'));
    return framing === undefined ? 0 : SERVE_FRAMING_EXIT_CODE;
  } finally {
    await close();
  }
}

/** Serves one connection on `io` until it ends; `framing` says how the agent's stream broke it, if it did. */
export async function serveConnection(executor: ToolExecutor, io: Omit<ServeIo, 'cwd'>, checkpoints?: BridgeCheckpoints): Promise<{ reason: string; framing?: string }> {
  // Descriptor 1 is the CLI's own (`CliOutput`): protocol messages are the only thing written there.
  const writer = new FrameWriter(io.stdout);
  // Answers written here rather than by the connection (FrameWriter writes at once).
  const answerDirectly = (id: string | number | null, code: number, message: string) => void writer.write({ jsonrpc: '2.0', id, error: { code, message } } as never);
  const reader = new FramedMessageReader(io.stdin, (bad) => answerDirectly(bad.id, bad.code, bad.message));
  let answered = 0;
  const counting: MessageWriter = {
    write: (message: Message) => {
      // Counted: the connection may go once every request read was answered.
      if (!('method' in message) && 'id' in message) answered++;
      return writer.write(message);
    },
    onError: writer.onError,
    onClose: writer.onClose,
    end: () => writer.end(),
    dispose: () => writer.dispose(),
  };
  const connection = createMessageConnection(reader, counting);
  let framing: string | undefined;
  const service = new BridgeService({
    executor,
    notify: (params) => void connection.sendNotification(EventNotification, params).catch(() => {}),
    executorInfo: { name: 'tool-exec', version: typeof TOOL_EXEC_VERSION === 'string' ? TOOL_EXEC_VERSION : 'dev' },
    approvals: 'settings',
    ...(checkpoints ? { checkpoints } : {}),
    logger: io.logger,
  });
  const binding = bindBridge(connection, service, { requireInitialize: true });
  const known = ['initialize', 'shutdown', ...Object.values(Methods).filter((method) => method.startsWith('executor/') && method !== Methods.event)];
  connection.onRequest((method) => new ResponseError(BridgeErrorCodes.MethodNotFound, `unknown method ${JSON.stringify(method)}: tool-exec serve answers ${known.join(', ')}`));
  connection.onRequest('shutdown', () => service.closeAll('the agent asked to shut down').then(() => null));
  const ended = new Promise<string>((resolveEnded) => {
    // The stream is out of step: said to the agent (id null, as JSON-RPC answers what it cannot read) and on stderr.
    connection.onError(([error]) => {
      if (!(error instanceof FramingError) || framing !== undefined) return;
      framing = error.message;
      answerDirectly(null, BridgeErrorCodes.ParseError, `framing error: ${framing}; tool-exec serve stops`);
      resolveEnded(`the agent's stream broke the framing: ${framing}`);
    });
    connection.onNotification('exit', () => resolveEnded('the agent sent exit'));
    connection.onClose(() => resolveEnded('the agent closed the connection'));
    io.signal.addEventListener('abort', () => resolveEnded('tool-exec was stopped'), { once: true });
  });
  connection.listen();
  const reason = await ended;
  if (framing !== undefined) io.logger.error('serve.framing_error', { reason, openTurns: service.openTurns });
  else io.logger.info('serve.ended', { reason, openTurns: service.openTurns });
  await service.closeAll(reason);
  // Every request read before the end gets its answer before the connection goes.
  const until = performance.now() + SERVE_ANSWER_DRAIN_MS;
  while (answered < reader.requestsRead && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 2));
  binding.dispose();
  connection.dispose();
  return { reason, ...(framing !== undefined ? { framing } : {}) };
}

/**
 * Each turn checkpointed on its own; an undo overwrites what changed since only when the agent says `force`.
 * An undo writes files that no rule judges, so the agent may ask for one only under `--approve allow`.
 */
export function storeCheckpoints(store: CheckpointStore, folders: readonly string[], agentMayUndo: boolean): BridgeCheckpoints {
  return {
    begin: (title) => {
      const turn = new HostTurnCheckpoint(store, `serve-${randomUUID().slice(0, 8)}`, title, folders);
      return { checkpoint: turn, end: (reported) => turn.end(reported) };
    },
    turns: () => store.turns(),
    undoFromAgent: (undoId, force) => {
      if (!agentMayUndo) return Promise.reject(new Error('tool-exec serve has nobody to ask whether the agent may undo a turn (pass --approve allow, or run tool-exec undo yourself)'));
      return undoTurn(store, undoId, () => (force ? 'overwrite' : 'skip'));
    },
  };
}

/** `--approve` answers everything; otherwise nobody can be asked (stdin is the protocol): deny. */
function approvalClientFor(args: ServeArgs): ApprovalClient {
  if (args.approve === 'allow') return new FixedApprovalClient({ kind: 'allowOnce' });
  if (args.approve === 'deny') return new FixedApprovalClient({ kind: 'deny', reason: 'denied by --approve deny' });
  return new FixedApprovalClient({ kind: 'deny', reason: 'tool-exec serve has nobody to ask (pass --approve allow, or allow rules in --settings)' });
}

