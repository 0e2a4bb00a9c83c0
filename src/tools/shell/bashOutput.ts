// BashOutput: the output a background command printed since the last look, and whether it still runs.
import { z } from 'zod';
import type { ToolDefinition, ToolOutput } from '../../executor';
import { deferredSchema } from '../../executor';
import type { BackgroundShellState, BackgroundShells } from './backgroundShells';

/** Bash's output budget (`BASH_MAX_MODEL_BYTES`) applies to each look as well. */
export const BASH_OUTPUT_MAX_MODEL_BYTES = 30_000;

/** The input of every tool that acts on one background command (BashOutput, KillBash). */
export const taskIdInputSchema = deferredSchema(() =>
  z.object({
    task_id: z.string().min(1).describe('The id Bash returned for a run_in_background command.'),
  }),
);
const inputSchema = taskIdInputSchema;
export type BashOutputInput = z.infer<ReturnType<typeof inputSchema>>;

export function createBashOutputTool(shells: BackgroundShells | undefined): ToolDefinition<BashOutputInput, BackgroundShellState> {
  return {
    name: 'BashOutput',
    description: 'Shows what a background command (Bash with run_in_background) printed since you last looked, and whether it is still running.',
    get inputSchema() {
      return inputSchema();
    },
    readOnly: true,
    concurrentSafe: true,
    sideEffectScope: 'none',
    resultBudget: { maxModelBytes: BASH_OUTPUT_MAX_MODEL_BYTES, strategy: 'truncate', previewDirection: 'tail' },
    handler: (input) => readBackground(input, shells),
  };
}

function readBackground(input: BashOutputInput, shells: BackgroundShells | undefined): ToolOutput<BackgroundShellState> {
  const shell = shells?.get(input.task_id);
  if (!shell) return unknownTask(input.task_id, shells);
  const state = shell.state();
  const output = shell.readNew();
  const status = state.running
    ? `[Task ${state.id} is still running]`
    : `[Task ${state.id} has ended: ${state.signal ? `killed by ${state.signal}` : `exit code ${state.exitCode}`}]`;
  const shown = output === '' ? '(no new output)\n' : output.endsWith('\n') ? output : `${output}\n`;
  return { content: shown + status, data: state };
}

/** Shared by BashOutput and KillBash. */
export function unknownTask(id: string, shells: BackgroundShells | undefined): ToolOutput<never> {
  const known = shells?.ids() ?? [];
  const hint = known.length > 0 ? ` Known tasks: ${known.join(', ')}.` : ' No background commands were started in this session.';
  return { content: `There is no background command with task id ${id}.${hint}`, isError: true };
}
