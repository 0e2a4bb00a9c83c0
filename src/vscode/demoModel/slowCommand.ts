// The "slow"/"long command" session: one Bash call that takes long enough to press Stop, then a
// sentence on how it ended.
import type { DemoStep, DemoTurn } from './conversation';
import { callId, firstLine, outcomeOf, respond, text, toolCall, type DemoSession } from './session';

/** Long enough to find and press the stop button; well under Bash's 120 s default timeout. */
export const SLOW_COMMAND_SECONDS = 30;
export const SLOW_COMMAND = `sleep ${SLOW_COMMAND_SECONDS}; echo done`;

const SESSION = 'slow';

export const slowCommandSession: DemoSession = {
  name: SESSION,
  trigger: /\bslow\b|\blong[- ]running\b|\blong command\b/i,
  tools: ['Bash'],
  next(turn: DemoTurn): DemoStep {
    const id = callId(turn, SESSION, 'bash');
    const result = turn.results.get(id);
    if (result === undefined) {
      return respond(
        text(`Running a command that takes ${SLOW_COMMAND_SECONDS} seconds: press Stop to cancel it.`),
        toolCall(id, 'Bash', { command: SLOW_COMMAND, description: `Wait ${SLOW_COMMAND_SECONDS} seconds, then print done` }),
      );
    }
    switch (outcomeOf(result)) {
      case 'denied':
        return respond(text('The slow command was denied, so nothing ran.'));
      case 'cancelled':
        return respond(text('The slow command was cancelled before it finished.'));
      default:
        return respond(text(/\bdone\b/.test(result) ? `The slow command finished and printed \`done\`.` : `The slow command ended: ${firstLine(result)}`));
    }
  },
};
