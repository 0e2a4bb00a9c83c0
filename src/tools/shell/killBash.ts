// KillBash: stops a background command and its whole process tree.
import type { ToolDefinition, ToolOutput } from '../../executor';
import type { BackgroundShell, BackgroundShellState, BackgroundShells } from './backgroundShells';
import { backgroundTaskTool, type TaskIdInput } from './backgroundTaskTool';

export function createKillBashTool(shells: BackgroundShells | undefined): ToolDefinition<TaskIdInput, BackgroundShellState> {
  return backgroundTaskTool(shells, {
    name: 'KillBash',
    description: 'Stops a background command (Bash with run_in_background) and every process it started.',
    concurrentSafe: false,
    // It only stops what this session started.
    sideEffectScope: 'session',
    presentation: { verb: 'Stopping' },
    act: killBackground,
  });
}

async function killBackground(shell: BackgroundShell, shells: BackgroundShells): Promise<ToolOutput<BackgroundShellState>> {
  if (!shell.running) {
    const state = shell.state();
    const ended = state.signal ? `killed by ${state.signal}` : `exit code ${state.exitCode}`;
    return { content: `Task ${shell.id} had already ended (${ended}).`, data: state };
  }
  // Through the executor, so its task list and events follow; the task's stop kills the tree.
  const stopped = await shells.host.backgroundTasks.stop(shell.id);
  if (!stopped) await shell.tree.kill();
  // Its state says stopped only once the output is read too, so BashOutput right after agrees.
  await shell.finished;
  return { content: `Stopped task ${shell.id} (${shell.command}).`, data: shell.state() };
}
