// The "demo"/"tour" session on examples/demo-workspace: look around (Read and Grep in one response,
// so they can run in parallel), edit a file (asks for approval in the default mode), run a command
// whose long output is saved as an artifact (and kept in a new file, so the turn's undo has a file
// the shell created to remove), then summarise what happened, denials included.
import type { DemoStep, DemoTurn } from './conversation';
import { callId, firstLine, outcomeOf, respond, text, toolCall, type DemoSession } from './session';

/** The sample file the tour reads and edits (examples/demo-workspace/src/greet.js). */
export const TOUR_FILE = 'src/greet.js';
/** What the tour searches for: greet.js has one. */
export const TOUR_GREP_PATTERN = 'TODO';
/** Exactly the text of greet.js, so the Edit applies to a fresh copy of the sample workspace. */
export const TOUR_EDIT_OLD = '// TODO: let callers choose the greeting.\nfunction greet(name) {\n  return `Hello, ${titleCase(name)}!`;';
export const TOUR_EDIT_NEW = "function greet(name, greeting = 'Hello') {\n  return `${greeting}, ${titleCase(name)}!`;";
/** Lines of `seq`: about 290 KB, past Bash's spill size (3 × its 30000-byte budget), so it becomes an artifact. */
export const TOUR_OUTPUT_LINES = 50_000;
/** The file the tour's command creates with its output. */
export const TOUR_OUTPUT_FILE = 'numbers.txt';
/** The tour's command: a large output, also written to a new file by the shell. */
export const TOUR_COMMAND = `seq 1 ${TOUR_OUTPUT_LINES} | tee ${TOUR_OUTPUT_FILE}`;

/** The executor's envelope of a saved output (executor/budget.ts): "Full output was saved to: <path>". */
const SAVED_TO = /saved to:\s*(\S+)/i;

const SESSION = 'tour';

export const tourSession: DemoSession = {
  name: SESSION,
  trigger: /\b(demo|tour)\b/i,
  tools: ['Read', 'Grep', 'Edit', 'Bash'],
  next(turn: DemoTurn): DemoStep {
    const ids = idsOf(turn);
    const got = (id: string) => turn.results.get(id);
    if (got(ids.read) === undefined && got(ids.grep) === undefined) return lookAround(ids);
    if (got(ids.bash) !== undefined) return summary(turn);
    if (got(ids.edit) === undefined && needsEdit(got(ids.read))) return edit(ids);
    return longCommand(ids, needsEdit(got(ids.read)));
  },
};

function idsOf(turn: DemoTurn) {
  return {
    read: callId(turn, SESSION, 'read'),
    grep: callId(turn, SESSION, 'grep'),
    edit: callId(turn, SESSION, 'edit'),
    bash: callId(turn, SESSION, 'bash'),
  };
}
type Ids = ReturnType<typeof idsOf>;

/** The file still has the TODO the edit removes (a second tour in the same workspace skips the edit). */
function needsEdit(read: string | undefined): boolean {
  return read !== undefined && outcomeOf(read) === 'done' && read.includes(TOUR_EDIT_OLD.split('\n', 1)[0]!);
}

function lookAround(ids: Ids): DemoStep {
  return respond(
    text("I'll look around first: read the greeter and search the workspace for TODOs."),
    toolCall(ids.read, 'Read', { file_path: TOUR_FILE }),
    toolCall(ids.grep, 'Grep', { pattern: TOUR_GREP_PATTERN, output_mode: 'content' }),
  );
}

function edit(ids: Ids): DemoStep {
  return respond(
    text(`\`${TOUR_FILE}\` has a TODO: callers cannot choose the greeting. I'll add an optional \`greeting\` parameter.`),
    toolCall(ids.edit, 'Edit', { file_path: TOUR_FILE, old_string: TOUR_EDIT_OLD, new_string: TOUR_EDIT_NEW }),
  );
}

function longCommand(ids: Ids, editWanted: boolean): DemoStep {
  const lead = editWanted ? '' : `\`${TOUR_FILE}\` has no TODO left to fix, so there is nothing to edit. `;
  return respond(
    text(`${lead}Now a command with a long output, kept in \`${TOUR_OUTPUT_FILE}\`: the executor should save the output as an artifact and send me only a preview.`),
    toolCall(ids.bash, 'Bash', { command: TOUR_COMMAND, description: `Print ${TOUR_OUTPUT_LINES} numbers into ${TOUR_OUTPUT_FILE} (a large output)` }),
  );
}

function summary(turn: DemoTurn): DemoStep {
  const ids = idsOf(turn);
  const read = turn.results.get(ids.read);
  const lines = [
    outcomeOf(read) === 'denied' ? `- Reading \`${TOUR_FILE}\` was denied.` : `- I read \`${TOUR_FILE}\`.`,
    `- ${grepLine(turn.results.get(ids.grep))}`,
    `- ${editLine(turn.results.get(ids.edit), needsEdit(read))}`,
    `- ${bashLine(turn.results.get(ids.bash))}`,
  ];
  return respond(text(`Here is what happened:\n\n${lines.join('\n')}\n\nThat was the scripted tour: say "tour" again to replay it.`));
}

function grepLine(result: string | undefined): string {
  const outcome = outcomeOf(result);
  if (outcome !== 'done') return `The search for ${TOUR_GREP_PATTERN} was ${outcome}.`;
  const hits = result!.split('\n').filter((line) => line.includes(TOUR_GREP_PATTERN)).length;
  return `Grep found ${hits} line${hits === 1 ? '' : 's'} with ${TOUR_GREP_PATTERN}.`;
}

function editLine(result: string | undefined, wanted: boolean): string {
  switch (outcomeOf(result)) {
    case 'missing':
      return wanted ? `\`${TOUR_FILE}\` was not edited.` : `\`${TOUR_FILE}\` had no TODO left, so I did not edit it.`;
    case 'denied':
      return `The edit of \`${TOUR_FILE}\` was denied, so the file is unchanged.`;
    case 'cancelled':
      return `The edit of \`${TOUR_FILE}\` was cancelled.`;
    case 'done':
      return /^Edited\b/.test(result!)
        ? `I edited \`${TOUR_FILE}\`: \`greet(name, greeting = 'Hello')\` now takes the greeting.`
        : `The edit of \`${TOUR_FILE}\` failed: ${firstLine(result!)}`;
  }
}

function bashLine(result: string | undefined): string {
  const outcome = outcomeOf(result);
  if (outcome !== 'done') return `The command \`${TOUR_COMMAND}\` was ${outcome === 'missing' ? 'not run' : outcome}.`;
  const saved = SAVED_TO.exec(result!);
  return saved
    ? `\`${TOUR_COMMAND}\` printed too much to send whole: the executor saved it as an artifact (${saved[1]}) and sent me a preview.`
    : `\`${TOUR_COMMAND}\` ran: ${firstLine(result!)}`;
}
