// `tool-exec run`: builds an executor over Node adapters, runs the batch, prints the results.
import { resolve } from 'node:path';
import type { ApprovalClient } from '../executor/ports/approvalClient';
import type { Logger } from '../executor/ports/logger';
import { FixedApprovalClient } from '../node/approval/fixedApprovalClient';
import { TtyApprovalClient } from '../node/approval/ttyApprovalClient';
import { UsageError, type RunArgs } from './args';
import { readCalls, streamCalls } from './readCalls';
import { createCliExecutor, loadModuleTools, workspaceOf } from './cliExecutor';
import type { CliWriter } from './cliOutput';
import type { ToolContainment } from './toolModules/containment';
import { humanSummary, OrderedPrinter, summaryLine, type StoppedBackground } from './output';

export interface CliIo {
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly stdout: CliWriter;
  readonly cwd: string;
  readonly logger: Logger;
  /** Aborted on a signal or a closed stdout: running calls are cancelled and still get their results. */
  readonly signal: AbortSignal;
  /** Runs `--tools` code so its faults become the faulty call's result (the CLI's `main` installs it). */
  readonly containment?: ToolContainment;
}

/** Runs the batch; resolves with the exit code (0 when the batch ran, whatever the tools did). */
export async function runBatch(args: RunArgs, io: CliIo): Promise<number> {
  const workspace = workspaceOf(args, io.cwd);
  const source = args.calls === '-' ? '-' : resolve(io.cwd, args.calls);
  // A whole CALLS file is checked before anything runs; a stream is checked line by line as it runs.
  const calls = args.stream ? undefined : await readCalls(source, io.stdin);
  const moduleTools = await loadModuleTools(args, io);
  const { executor, close } = await createCliExecutor(args, io, workspace, moduleTools, approvalClientFor(args, io));
  try {
    const started = performance.now();
    const turn = executor.beginTurn({ signal: io.signal });
    const printer = new OrderedPrinter(args.json, io.stdout);
    turn.onEvent((event) => {
      if (event.type === 'toolCallResult' || event.type === 'toolCallFailed') printer.add(event.result);
    });
    let badInput: UsageError | undefined;
    try {
      // A whole file is the complete reply at once (its calls run by the groups); a stream is offered as it comes.
      if (calls) for (const call of calls) printer.expect(turn.offer(call));
      else for await (const call of streamCalls(source, io.stdin, io.signal)) printer.expect(turn.offer(call));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      badInput = error;
    } finally {
      turn.end();
    }
    const results = await turn.results();
    const backgroundStopped: StoppedBackground[] = executor.backgroundTasks
      .list()
      .filter((task) => task.status === 'running')
      .map((task) => ({ id: task.id, command: task.description ?? task.name }));
    const summary = {
      calls: results.length,
      errors: results.filter((result) => result.isError).length,
      groups: new Set(results.map((result) => result.group)).size,
      wallMs: Math.round(performance.now() - started),
      ...(backgroundStopped.length > 0 ? { backgroundStopped } : {}),
    };
    io.stdout.write(`${args.json ? summaryLine(summary) : humanSummary(summary)}\n`);
    // The calls read before a bad line ran and were reported; the bad line still makes it a misuse.
    if (badInput) throw badInput;
    return 0;
  } finally {
    await close();
  }
}

/** `--approve` answers everything; otherwise ask on a TTY, deny when nobody can answer. */
function approvalClientFor(args: RunArgs, io: CliIo): ApprovalClient {
  if (args.approve === 'allow') return new FixedApprovalClient({ kind: 'allowOnce' });
  if (args.approve === 'deny') return new FixedApprovalClient({ kind: 'deny', reason: 'denied by --approve deny' });
  // Streaming calls from stdin leaves no terminal to answer on.
  if (io.stdin.isTTY && !(args.stream && args.calls === '-')) return new TtyApprovalClient();
  return new FixedApprovalClient({ kind: 'deny', reason: 'no terminal to ask on (pass --approve allow to allow)' });
}

