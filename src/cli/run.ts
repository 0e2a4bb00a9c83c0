// `tool-exec run`: builds an executor over Node adapters, runs the batch, prints the results.
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ToolExecutor } from '../executor/executor';
import type { ApprovalClient } from '../executor/ports/approvalClient';
import type { Logger } from '../executor/ports/logger';
import { projectErrorMessage } from '../executor/errors';
import { ToolRegistry } from '../executor/registry';
import { FixedApprovalClient } from '../node/fixedApprovalClient';
import { TtyApprovalClient } from '../node/ttyApprovalClient';
import { registerBuiltinTools } from '../tools/index';
import { ProcessSupervisor } from '../tools/processTree';
import { createCliAdapters } from './adapters';
import { UsageError, type RunArgs } from './args';
import { readCalls, streamCalls } from './calls';
import type { CliWriter } from './cliOutput';
import type { ToolContainment } from './containment';
import { humanSummary, OrderedPrinter, summaryLine, type StoppedBackground } from './output';
import { loadToolModule } from './toolModules';

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
  const workspace = resolve(io.cwd, args.workspace);
  if (!isDirectory(workspace)) throw new UsageError(`--workspace ${args.workspace} is not a directory`);
  const source = args.calls === '-' ? '-' : resolve(io.cwd, args.calls);
  // A whole CALLS file is checked before anything runs; a stream is checked line by line as it runs.
  const calls = args.stream ? undefined : await readCalls(source, io.stdin);
  const moduleTools = [];
  for (const module of args.tools) {
    const load = () => loadToolModule(module, io.cwd);
    const defs = await (io.containment ? io.containment.runInModule(module, load) : load());
    moduleTools.push({ module, defs: io.containment ? defs.map((def) => io.containment!.wrap(def, module)) : defs });
  }
  const sessionId = randomUUID();
  const adapters = await createCliAdapters({
    sessionId,
    workspace,
    cwd: io.cwd,
    mode: args.mode,
    settingsFile: args.settings,
    artifactsDir: args.artifacts,
    logger: io.logger,
  });
  const registry = new ToolRegistry();
  // The batch's own: whatever its commands started is stopped before the CLI returns.
  const supervisor = new ProcessSupervisor();
  const executor = new ToolExecutor({
    ...adapters.options,
    registry,
    sessionId,
    workspaceFolders: [workspace],
    approvalClient: approvalClientFor(args, io),
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
          // A bad name or an input schema that does not compile: the module is misused, not the CLI broken.
          throw new UsageError(`--tools ${module}: tool ${JSON.stringify(def.name)} cannot be registered: ${projectErrorMessage(error)}`);
        }
      }
    }
    const started = performance.now();
    const turn = executor.beginTurn({ signal: io.signal });
    const printer = new OrderedPrinter(args.json, io.stdout);
    turn.onEvent((event) => {
      if (event.type === 'toolCallResult' || event.type === 'toolCallFailed') printer.add(event.result);
    });
    let badInput: UsageError | undefined;
    try {
      for await (const call of calls ?? streamCalls(source, io.stdin, io.signal)) printer.expect(turn.offer(call));
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
    await executor.dispose();
    await supervisor.dispose();
    await adapters.close();
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

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
