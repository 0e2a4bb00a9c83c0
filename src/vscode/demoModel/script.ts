// The scripted demo model's brain: conversation in, next step out. Deterministic and offline; a
// few recognisable prompts each play a short agent session on examples/demo-workspace, and the
// step is decided only from the tool results already in the conversation, so a follow-up prompt
// in the same chat starts over and a replayed request gets the same answer.
import { currentTurn, type DemoMessage, type DemoStep } from './conversation';
import { respond, text, type DemoSession } from './session';
import { SLOW_COMMAND_SECONDS, slowCommandSession } from './slowCommand';
import { attachedSession, readLoopSession } from './context';
import { recapSession } from './recap';
import { tourSession } from './tour';

/** Prompts asking for a failure make the model raise a LanguageModelError (Blocked) instead of answering. */
const FAIL_TRIGGER = /\b(fail|failure|error)\b/i;

export const FAIL_MESSAGE =
  'The scripted demo model refuses this prompt on purpose (a "fail" or "error" prompt), so the way a model error is shown can be tried.';

/**
 * Checked after the failure prompt (so "demo an error" fails rather than tours), in this order (so
 * "a slow demo" runs the slow command).
 */
const SESSIONS: readonly DemoSession[] = [slowCommandSession, readLoopSession, tourSession, recapSession, attachedSession];

export interface DemoRequest {
  readonly messages: readonly DemoMessage[];
  /** Names of the tools the request offers (ProvideLanguageModelChatResponseOptions.tools). */
  readonly tools: readonly string[];
}

export function nextStep(request: DemoRequest): DemoStep {
  const turn = currentTurn(request.messages);
  if (FAIL_TRIGGER.test(turn.prompt)) return { kind: 'fail', reason: 'blocked', message: FAIL_MESSAGE };
  const session = SESSIONS.find((candidate) => candidate.trigger.test(turn.prompt));
  if (!session) return respond(text(HELP));
  const missing = session.tools.filter((name) => !request.tools.includes(name));
  if (missing.length > 0) {
    const offered = request.tools.length > 0 ? request.tools.join(', ') : 'none';
    return respond(text(`The "${session.name}" demo needs the tools ${missing.join(', ')}, which this request does not offer (offered: ${offered}).`));
  }
  return session.next(turn);
}

const HELP = [
  'I am a scripted demo model: I run offline and understand only a few prompts.',
  '',
  '- **demo** or **tour**: read and search the sample workspace, edit `src/greet.js` (asks for approval), run a command with a long output (kept in `numbers.txt`), then summarise.',
  `- **slow** or **long command**: run a ${SLOW_COMMAND_SECONDS}-second command, to try the stop button.`,
  '- **fail** or **error**: raise a model error.',
  '- **recap**: list the tool results of the earlier prompts of this conversation.',
  '- **attached**: say what the files attached to the prompt start with.',
  '- **read FILE N times**: read a file in N rounds (with a small `agentToolExecutor.demoModel.windowTokens`, older results get shortened).',
].join('\n');
