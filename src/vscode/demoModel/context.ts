// Two sessions that show how `@executor` gives a model its context: "attached" answers from the
// files attached to the prompt (they arrive in the prompt as `<attachment …>` blocks), and "read F
// N times" reads one file in N rounds, so a small window fills and older results are shortened.
import type { DemoStep, DemoTurn } from './conversation';
import { callId, firstLine, respond, text, toolCall, type DemoSession } from './session';

/** Rounds the read loop makes at most, whatever the prompt asks. */
export const MAX_READ_LOOP_ROUNDS = 20;

const ATTACHMENT = /<attachment (?:file|folder)="([^"]+)">\n([\s\S]*?)\n<\/attachment>/g;

export const attachedSession: DemoSession = {
  name: 'attached',
  trigger: /\battach(ed|ment)s?\b/i,
  tools: [],
  next(turn: DemoTurn): DemoStep {
    const found = [...turn.prompt.matchAll(ATTACHMENT)];
    if (found.length === 0) return respond(text('Nothing is attached to this prompt: add a file with the paperclip (Add Context), or #file.'));
    const lines = found.map(([, name, body]) => `- \`${name}\` starts with: ${firstLine(stripLineNumber(body ?? ''))}`);
    return respond(text([`You attached ${found.length} item${found.length === 1 ? '' : 's'}:`, '', ...lines].join('\n')));
  },
};

const READ_LOOP = /\bread (\S+) (\d+) times\b/i;
const SESSION = 'readloop';

export const readLoopSession: DemoSession = {
  name: SESSION,
  trigger: READ_LOOP,
  tools: ['Read'],
  next(turn: DemoTurn): DemoStep {
    const [, file = '', times = '1'] = READ_LOOP.exec(turn.prompt) ?? [];
    const rounds = Math.min(MAX_READ_LOOP_ROUNDS, Math.max(1, Number(times)));
    let done = 0;
    while (done < rounds && turn.results.has(callId(turn, SESSION, `read${done + 1}`))) done++;
    if (done < rounds) return respond(toolCall(callId(turn, SESSION, `read${done + 1}`), 'Read', { path: file }));
    return respond(text(`Read \`${file}\` ${rounds} times.`));
  },
};

/** Read's numbered lines (`     1→text` or `1\ttext`) without the number. */
function stripLineNumber(text: string): string {
  return text.replace(/^\s*\d+[\u2192\t]/, '');
}
