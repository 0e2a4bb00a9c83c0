// One request's messages: the context budget's plan (contextBudget.ts), with every result it takes
// out saved first, so a stub always names where the whole text can be read again. No `vscode` here.
import { fitToWindow, type FitOutcome, type MessageCounter } from './contextBudget';
import type { ConversationTurn } from '../chatMetadata';
import { unitsOf, unsavedStubbedResults } from './conversationUnits';
import { userText, type PromptMessage } from './promptMessages';

export interface AssembleInput {
  readonly instructions: PromptMessage;
  readonly earlier: readonly ConversationTurn[];
  readonly current: ConversationTurn;
  readonly toolTokens: number;
  /** The window less the reply reserve. */
  readonly budget: number;
  readonly count: MessageCounter;
  /** Saved copies of results this conversation took out already, by call id (`null`: saving failed); filled here. */
  readonly saved: Map<string, string | null>;
  /** Saves a result's whole text; its URI, or undefined when it could not be saved. */
  readonly save: (callId: string, text: string) => Promise<string | undefined>;
}

export type Assembled = FitOutcome & { readonly saves: number };

/** The messages to send, or `ok: false` when the pinned part alone is over the budget. */
export async function assemble(input: AssembleInput): Promise<Assembled> {
  const savedUri = (callId: string) => input.saved.get(callId);
  // Results the executor saved already are never saved again.
  for (const turn of [...input.earlier, input.current]) {
    for (const round of turn.rounds) for (const result of round.results) if (result.artifactUri && !input.saved.has(result.callId)) input.saved.set(result.callId, result.artifactUri);
  }
  let saves = 0;
  // Each pass saves at least one more result, so this ends; most requests take one pass.
  for (;;) {
    const units = unitsOf(input.earlier, input.current, savedUri);
    const outcome = await fitToWindow({ instructions: input.instructions, units, toolTokens: input.toolTokens, budget: input.budget, count: input.count, droppedNote });
    if (!outcome.ok) return { ...outcome, saves };
    const unsaved = unsavedStubbedResults(units, outcome.stubbed, savedUri);
    if (unsaved.length === 0) return { ...outcome, saves };
    for (const result of unsaved) {
      const uri = await input.save(result.callId, result.text).catch(() => undefined);
      input.saved.set(result.callId, uri ?? null);
      saves++;
    }
  }
}

/** What the model is told when the oldest parts of the conversation were left out. */
export function droppedNote(dropped: number): PromptMessage {
  return userText(
    `[${dropped} older part${dropped === 1 ? '' : 's'} of this conversation (prompts, or rounds of tool calls with their results) ${dropped === 1 ? 'was' : 'were'} left out to fit the context window. Ask the user if you need what was said there.]`,
    `n:${dropped}`,
  );
}
