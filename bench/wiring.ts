// Executors for the benches: "bare" (the core with its defaults) and "wired like the CLI" (the
// adapters `tool-exec run` builds: redactor, redacting logger, rules policy, artifacts, snapshots,
// session record).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createCliAdapters } from '../src/cli/adapters';
import { DeadlineClock } from '../src/executor/call/deadlineClock';
import { ToolExecutor } from '../src/executor/executor';
import { ModePolicy } from '../src/executor/policy/modePolicy';
import { nullLogger } from '../src/executor/ports/logger';
import { FixedApprovalClient } from '../src/node/approval/fixedApprovalClient';
import { registerBuiltinTools } from '../src/tools/index';
import { ProcessSupervisor } from '../src/tools/process/supervisor';
import type { SpawnHelperMode } from '../src/tools/process/spawnHelper';

export interface BenchExecutor {
  readonly executor: ToolExecutor;
  /** Its own process supervisor. */
  readonly supervisor: ProcessSupervisor;
  close(): Promise<void>;
}

/**
 * The core with its defaults and the built-in tools; `bypass` so Bash and Write run unasked. `spawnHelper`:
 * how its supervisor forks the shells (src/tools/process/spawnHelper.ts). @default the supervisor's own default
 */
export function bareExecutor(workspace: string, spawnHelper?: SpawnHelperMode): BenchExecutor {
  // One clock for the calls' deadlines and Bash's timeouts, as the extension and the CLI have.
  const clock = new DeadlineClock();
  const executor = new ToolExecutor({ workspaceFolders: [workspace], permissionPolicy: new ModePolicy('bypass'), clock });
  const supervisor = new ProcessSupervisor(spawnHelper === undefined ? {} : { spawnHelper });
  registerBuiltinTools(executor.registry, { backgroundTasks: executor, supervisor, clock });
  return {
    executor,
    supervisor,
    close: async () => {
      await executor.dispose();
      await supervisor.dispose();
    },
  };
}

/** Built as `tool-exec run --approve allow --mode bypass` builds it. */
export async function cliWiredExecutor(workspace: string): Promise<BenchExecutor> {
  const sessionId = randomUUID();
  const artifactsDir = mkdtempSync(path.join(tmpdir(), 'bench-artifacts-'));
  const adapters = await createCliAdapters({ sessionId, workspace, cwd: workspace, mode: 'bypass', artifactsDir, logger: nullLogger });
  const clock = new DeadlineClock();
  const executor = new ToolExecutor({
    ...adapters.options,
    sessionId,
    workspaceFolders: [workspace],
    approvalClient: new FixedApprovalClient({ kind: 'allowOnce' }),
    clock,
  });
  const supervisor = new ProcessSupervisor();
  registerBuiltinTools(executor.registry, { backgroundTasks: executor, supervisor, clock });
  return {
    executor,
    supervisor,
    close: async () => {
      await executor.dispose();
      await supervisor.dispose();
      await adapters.close();
      rmSync(artifactsDir, { recursive: true, force: true });
    },
  };
}
