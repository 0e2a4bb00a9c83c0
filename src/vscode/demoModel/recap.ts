// The "recap" session: answers from the tool results of the earlier prompts of the conversation, so a
// follow-up prompt shows that the participant sent them back (the multi-turn check).
import type { DemoStep, DemoTurn } from './conversation';
import { firstLine, respond, text, type DemoSession } from './session';

export const recapSession: DemoSession = {
  name: 'recap',
  trigger: /\brecap\b|\bwhat did you (do|find)\b/i,
  tools: [],
  next(turn: DemoTurn): DemoStep {
    if (turn.earlier.length === 0) return respond(text('I have no tool results from earlier in this conversation.'));
    const lines = turn.earlier.map((result) => `- \`${result.callId}\`: ${firstLine(result.text)}`);
    return respond(text([`Earlier in this conversation I got ${turn.earlier.length} tool result${turn.earlier.length === 1 ? '' : 's'}:`, '', ...lines].join('\n')));
  },
};
