// BashOutput: the output a background command printed since the last look, and whether it still runs.
import type { ToolDefinition, ToolOutput } from '../../executor';
import type { BackgroundShell, BackgroundShellState, BackgroundShells } from './backgroundShells';
import { backgroundTaskTool, type TaskIdInput } from './backgroundTaskTool';

/** Bash's output budget (`BASH_MAX_MODEL_BYTES`) applies to each look as well. */
export const BASH_OUTPUT_MAX_MODEL_BYTES = 30_000;

export function createBashOutputTool(shells: BackgroundShells | undefined): ToolDefinition<TaskIdInput, BackgroundShellState> {
  return backgroundTaskTool(shells, {
    name: 'BashOutput',
    description: 'Shows what a background command (Bash with run_in_background) printed since you last looked, and whether it is still running.',
    readOnly: true,
    concurrentSafe: true,
    sideEffectScope: 'none',
    resultBudget: { maxModelBytes: BASH_OUTPUT_MAX_MODEL_BYTES, strategy: 'truncate', previewDirection: 'tail' },
    presentation: { verb: 'Reading the output of' },
    act: readBackground,
  });
}

function readBackground(shell: BackgroundShell): ToolOutput<BackgroundShellState> {
  const state = shell.state();
  const output = shell.readNew();
  const status = state.running
    ? `[Task ${state.id} is still running]`
    : `[Task ${state.id} has ended: ${state.signal ? `killed by ${state.signal}` : `exit code ${state.exitCode}`}]`;
  const shown = output === '' ? '(no new output)\n' : output.endsWith('\n') ? output : `${output}\n`;
  return { content: shown + status, data: state };
}
