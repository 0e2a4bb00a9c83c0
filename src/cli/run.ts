// `tool-exec run`: builds an executor over Node adapters, runs the batch, prints the results.
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ToolExecutor } from '../executor/executor';
import type { ApprovalClient } from '../executor/ports/approvalClient';
import type { Logger } from '../executor/ports/logger';
import { ToolRegistry } from '../executor/registry';
import type { ToolCallResult } from '../executor/result';
import { FixedApprovalClient } from '../node/fixedApprovalClient';
import { TtyApprovalClient } from '../node/ttyApprovalClient';
import { registerBuiltinTools } from '../tools/index';
import { createCliAdapters } from './adapters';
import { UsageError, type RunArgs } from './args';
import { readCalls } from './calls';
import { humanResult, humanSummary, jsonLine, summaryLine, type BatchSummary } from './output';
import { loadToolModule } from './toolModules';

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
  const moduleTools = [];
  for (const module of args.tools) moduleTools.push({ module, defs: await loadToolModule(module, io.cwd) });
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
    registerBuiltinTools(registry, { backgroundTasks: executor });
    for (const { module, defs } of moduleTools) {
      for (const def of defs) {
        if (registry.has(def.name)) throw new UsageError(`--tools ${module}: tool ${def.name} is already registered`);
        registry.register(def);
      }
    }
    const started = performance.now();
    const groups = executor.schedule(calls);
    const results = await executor.executeSchedule(groups, { signal: io.signal });
    printResults(args.json, io.stdout, results, {
      calls: results.length,
      errors: results.filter((result) => result.isError).length,
      groups: groups.length,
      wallMs: Math.round(performance.now() - started),
    });
    return 0;
  } finally {
    await executor.dispose();
    await adapters.close();
  }
}

function printResults(json: boolean, out: NodeJS.WritableStream, results: readonly ToolCallResult[], summary: BatchSummary): void {
  if (json) {
    for (const result of results) out.write(`${jsonLine(result)}\n`);
    out.write(`${summaryLine(summary)}\n`);
  } else {
    results.forEach((result, index) => out.write(`${humanResult(result, index + 1)}\n`));
    out.write(`${humanSummary(summary)}\n`);
  }
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
