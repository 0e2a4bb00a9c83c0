// KillBash: stops a background command and its whole process tree.
import { z } from 'zod';
import type { ToolDefinition, ToolOutput } from '../../executor/contract/contract';
import type { BackgroundShellState, BackgroundShells } from './backgroundShells';
import { taskIdInputSchema, unknownTask } from './bashOutput';

const inputSchema = taskIdInputSchema;
export type KillBashInput = z.infer<ReturnType<typeof inputSchema>>;

export function createKillBashTool(shells: BackgroundShells | undefined): ToolDefinition<KillBashInput, BackgroundShellState> {
  return {
    name: 'KillBash',
    description: 'Stops a background command (Bash with run_in_background) and every process it started.',
    get inputSchema() {
      return inputSchema();
    },
    concurrentSafe: false,
    // It only stops what this session started.
    sideEffectScope: 'session',
    handler: (input) => killBackground(input, shells),
  };
}

async function killBackground(input: KillBashInput, shells: BackgroundShells | undefined): Promise<ToolOutput<BackgroundShellState>> {
  const shell = shells?.get(input.task_id);
  if (!shells || !shell) return unknownTask(input.task_id, shells);
  if (!shell.running) {
    const state = shell.state();
    const ended = state.signal ? `killed by ${state.signal}` : `exit code ${state.exitCode}`;
    return { content: `Task ${shell.id} had already ended (${ended}).`, data: state };
  }
  // Through the executor, so its task list and events follow; the task's stop kills the tree.
  const stopped = await shells.host.backgroundTasks.stop(shell.id);
  if (!stopped) await shell.tree.kill();
  await shell.tree.exited.catch(() => undefined);
  return { content: `Stopped task ${shell.id} (${shell.command}).`, data: shell.state() };
}
