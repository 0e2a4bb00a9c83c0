// `tool-exec run`: builds an executor over Node adapters, runs the batch, prints the results.
import { resolve } from 'node:path';
import { ToolExecutor } from '../executor/executor';
import { ModePolicy } from '../executor/modePolicy';
import type { ApprovalClient } from '../executor/ports/approvalClient';
import type { Logger } from '../executor/ports/logger';
import { ToolRegistry } from '../executor/registry';
import { FixedApprovalClient } from '../node/fixedApprovalClient';
import { registerBuiltinTools } from '../tools/index';
import { TtyApprovalClient } from '../node/ttyApprovalClient';
import { UsageError, type RunArgs } from './args';
import { readCalls } from './calls';
import { humanResult, humanSummary, jsonLine, summaryLine } from './output';
import { loadToolModule } from './toolModules';
import { statSync } from 'node:fs';

export interface CliIo {
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly stdout: NodeJS.WritableStream;
  readonly cwd: string;
  readonly logger: Logger;
  /** Aborted on SIGINT: running calls are cancelled and still get their results. */
  readonly signal: AbortSignal;
}

/** Runs the batch; resolves with the exit code (0 when the batch ran, whatever the tools did). */
export async function runBatch(args: RunArgs, io: CliIo): Promise<number> {
  const workspace = resolve(io.cwd, args.workspace);
  if (!isDirectory(workspace)) throw new UsageError(`--workspace ${args.workspace} is not a directory`);
  const calls = await readCalls(args.calls === '-' ? '-' : resolve(io.cwd, args.calls), io.stdin);
  const registry = new ToolRegistry();
  const executor = new ToolExecutor({
    registry,
    workspaceFolders: [workspace],
    permissionPolicy: new ModePolicy(args.mode),
    approvalClient: approvalClientFor(args, io),
    logger: io.logger,
    defaultTimeoutMs: args.timeoutMs,
    maxConcurrency: args.concurrency,
    maxModelBytes: args.maxResultBytes,
  });
  registerBuiltinTools(registry, { backgroundTasks: executor });
  for (const module of args.tools) {
    for (const def of await loadToolModule(module, io.cwd)) {
      if (registry.has(def.name)) throw new UsageError(`--tools ${module}: tool ${def.name} is already registered`);
      registry.register(def);
    }
  }
  const started = performance.now();
  const groups = executor.schedule(calls);
  const results = await executor.executeSchedule(groups, { signal: io.signal });
  const summary = {
    calls: results.length,
    errors: results.filter((result) => result.isError).length,
    groups: groups.length,
    wallMs: Math.round(performance.now() - started),
  };
  const out = io.stdout;
  if (args.json) {
    for (const result of results) out.write(`${jsonLine(result)}\n`);
    out.write(`${summaryLine(summary)}\n`);
  } else {
    results.forEach((result, index) => out.write(`${humanResult(result, index + 1)}\n`));
    out.write(`${humanSummary(summary)}\n`);
  }
  await executor.dispose();
  return 0;
}

/** `--approve` answers everything; otherwise ask on a TTY, deny when nobody can answer. */
function approvalClientFor(args: RunArgs, io: CliIo): ApprovalClient {
  if (args.approve === 'allow') return new FixedApprovalClient({ kind: 'allowOnce' });
  if (args.approve === 'deny') return new FixedApprovalClient({ kind: 'deny', reason: 'denied by --approve deny' });
  if (io.stdin.isTTY) return new TtyApprovalClient();
  return new FixedApprovalClient({ kind: 'deny', reason: 'no terminal to ask on (pass --approve allow to allow)' });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
