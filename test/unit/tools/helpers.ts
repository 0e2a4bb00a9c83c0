// Shared test fixtures: a real temporary workspace and a real executor with the built-in tools registered.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DeadlineClock } from '../../../src/executor/call/deadlineClock';
import { ToolExecutor, type ExecutorOptions } from '../../../src/executor/executor';
import { ModePolicy } from '../../../src/executor/policy/modePolicy';
import type { ToolCallResult } from '../../../src/executor/contract/result';
import { ProcessSupervisor, registerBuiltinTools, type BuiltinToolsOptions } from '../../../src/tools/index';

export interface Workspace {
  readonly dir: string;
  readonly executor: ToolExecutor;
  file(relative: string): string;
  write(relative: string, content: string | Uint8Array): string;
  read(relative: string): string;
  run(name: string, input: unknown, signal?: AbortSignal): Promise<ToolCallResult>;
  dispose(): Promise<void>;
}

let counter = 0;

/** A fresh folder and an executor in bypass mode (permission is not what these tests are about); its own supervisor unless given one. */
export function makeWorkspace(
  options: { tools?: Partial<BuiltinToolsOptions>; executor?: Partial<ExecutorOptions> } = {},
): Workspace {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tools-test-')));
  // One clock for the calls' deadlines and Bash's timeouts, as the hosts have.
  const clock = options.executor?.clock ?? new DeadlineClock();
  const executor = new ToolExecutor({ workspaceFolders: [dir], permissionPolicy: new ModePolicy('bypass'), ...options.executor, clock });
  const ownSupervisor = options.tools?.supervisor ? undefined : new ProcessSupervisor();
  registerBuiltinTools(executor.registry, { backgroundTasks: executor, ...options.tools, supervisor: options.tools?.supervisor ?? ownSupervisor!, clock });
  const file = (relative: string) => path.join(dir, relative);
  return {
    dir,
    executor,
    file,
    write(relative, content) {
      const target = file(relative);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, content);
      return target;
    },
    read: (relative) => fs.readFileSync(file(relative), 'utf8'),
    run: (name, input, signal) => executor.execute({ id: `call_${++counter}`, name, input }, { signal }),
    async dispose() {
      await executor.dispose();
      await ownSupervisor?.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
