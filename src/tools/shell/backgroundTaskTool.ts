// What BashOutput and KillBash share: the one input (the task id Bash returned), the lookup of that
// task in the session, and the answer when there is none.
import { z } from 'zod';
import type { ToolDefinition, ToolOutput } from '../../executor';
import { deferredSchema } from '../../executor';
import type { BackgroundShell, BackgroundShellState, BackgroundShells } from './backgroundShells';

const inputSchema = deferredSchema(() =>
  z.object({
    task_id: z.string().min(1).describe('The id Bash returned for a run_in_background command.'),
  }),
);
export type TaskIdInput = z.infer<ReturnType<typeof inputSchema>>;

/** A tool on one background command: its definition but for the input and handler, and what it does to the task. */
export type BackgroundTaskToolParts = Omit<ToolDefinition<TaskIdInput, BackgroundShellState>, 'inputSchema' | 'jsonSchema' | 'handler'> & {
  act(shell: BackgroundShell, shells: BackgroundShells): ToolOutput<BackgroundShellState> | Promise<ToolOutput<BackgroundShellState>>;
};

export function backgroundTaskTool(shells: BackgroundShells | undefined, { act, ...definition }: BackgroundTaskToolParts): ToolDefinition<TaskIdInput, BackgroundShellState> {
  return {
    ...definition,
    get inputSchema() {
      return inputSchema();
    },
    handler: (input) => {
      const shell = shells?.get(input.task_id);
      return shells && shell ? act(shell, shells) : unknownTask(input.task_id, shells);
    },
  };
}

function unknownTask(id: string, shells: BackgroundShells | undefined): ToolOutput<never> {
  const known = shells?.ids() ?? [];
  const hint = known.length > 0 ? ` Known tasks: ${known.join(', ')}.` : ' No background commands were started in this session.';
  return { content: `There is no background command with task id ${id}.${hint}`, isError: true };
}
