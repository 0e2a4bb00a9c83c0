// The executor `tool-exec run` and `tool-exec serve` build alike: the workspace checked, the `--tools`
// modules loaded (inside containment), the Node adapters, the built-in tools and the modules' tools
// registered; `close` ends it all (background commands, process trees, session, watcher).
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ToolDefinition } from '../executor';
import { projectErrorMessage } from '../executor';
import { DeadlineClock, ToolExecutor } from '../executor';
import type { ApprovalClient } from '../executor';
import type { Logger } from '../executor';
import { ToolRegistry } from '../executor';
import { registerBuiltinTools } from '../tools/index';
import { ProcessSupervisor } from '../tools/process/supervisor';
import { createCliAdapters } from './adapters';
import { UsageError, type CliExecutorArgs } from './args';
import type { ToolContainment } from './toolModules/containment';
import { loadToolModule } from './toolModules/toolModules';

export interface CliExecutorIo {
  readonly cwd: string;
  readonly logger: Logger;
  readonly containment?: ToolContainment;
}

export interface CliExecutor {
  readonly executor: ToolExecutor;
  close(): Promise<void>;
}

/** The absolute workspace folder; a misuse when it is not a folder (checked before anything loads). */
export function workspaceOf(args: Pick<CliExecutorArgs, 'workspace'>, cwd: string): string {
  const workspace = resolve(cwd, args.workspace);
  let folder = false;
  try {
    folder = statSync(workspace).isDirectory();
  } catch {
    folder = false;
  }
  if (!folder) throw new UsageError(`--workspace ${args.workspace} is not a directory`);
  return workspace;
}

/** Loads the `--tools` modules: their code runs inside containment, so its faults become a call's result. */
export async function loadModuleTools(args: Pick<CliExecutorArgs, 'tools'>, io: CliExecutorIo): Promise<{ module: string; defs: ToolDefinition[] }[]> {
  const moduleTools: { module: string; defs: ToolDefinition[] }[] = [];
  for (const module of args.tools) {
    const load = () => loadToolModule(module, io.cwd);
    const defs = await (io.containment ? io.containment.runInModule(module, load) : load());
    moduleTools.push({ module, defs: io.containment ? defs.map((def) => io.containment!.wrap(def, module)) : defs });
  }
  return moduleTools;
}

export async function createCliExecutor(
  args: CliExecutorArgs,
  io: CliExecutorIo,
  workspace: string,
  moduleTools: readonly { module: string; defs: readonly ToolDefinition[] }[],
  approvalClient: ApprovalClient,
): Promise<CliExecutor> {
  const sessionId = randomUUID();
  const adapters = await createCliAdapters({ sessionId, workspace, cwd: io.cwd, mode: args.mode, settingsFile: args.settings, artifactsDir: args.artifacts, logger: io.logger });
  const registry = new ToolRegistry();
  // The run's own: whatever its commands started is stopped before the CLI returns.
  const supervisor = new ProcessSupervisor();
  // One clock for the calls' deadlines and Bash's timeouts.
  const clock = new DeadlineClock();
  const executor = new ToolExecutor({
    ...adapters.options,
    registry,
    sessionId,
    workspaceFolders: [workspace],
    approvalClient,
    defaultTimeoutMs: args.timeoutMs,
    maxConcurrency: args.concurrency,
    maxModelBytes: args.maxResultBytes,
    clock,
  });
  const close = async () => {
    await executor.dispose();
    await supervisor.dispose();
    await adapters.close();
  };
  try {
    registerBuiltinTools(registry, { backgroundTasks: executor, supervisor, clock, sandbox: adapters.sandbox });
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
  } catch (error) {
    await close();
    throw error;
  }
  return { executor, close };
}
