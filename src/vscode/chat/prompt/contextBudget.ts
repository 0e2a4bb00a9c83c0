// The context budget: which parts of a conversation go into the next request so the whole request
// fits the model's window, by the model's own counter. In this order:
//   1. the instructions and the pinned units (the current prompt and the latest round) stay whole;
//   2. older units' tool results become one-line stubs, oldest first, until the request fits;
//   3. when all are stubs and it still does not fit, the oldest units are dropped, with a note;
//   4. (before any of this, at intake) a single result bigger than its share is cut: resultCut.ts.
// No `vscode` here: the counter and the artifact store come in as functions.
import type { PromptMessage } from './promptMessages';

/** Messages that go or stay together: a prompt, or a round's model message with the results it got. */
export interface PromptUnit {
  readonly messages: readonly PromptMessage[];
  /** The same with long tool results as one-line stubs; absent when nothing in it can be shortened. */
  readonly stubbed?: readonly PromptMessage[];
  /** Kept whole whatever happens: the current prompt and the latest round. */
  readonly pinned?: boolean;
}

/** Counts one message as the provider will (cached by the caller). */
export type MessageCounter = (message: PromptMessage) => number | Promise<number>;

export interface FitInput {
  readonly instructions: PromptMessage;
  /** In conversation order. */
  readonly units: readonly PromptUnit[];
  /** What the offered tools' names, descriptions and schemas take, by the same counter. */
  readonly toolTokens: number;
  /** The model's window less the reply reserve. */
  readonly budget: number;
  readonly count: MessageCounter;
  /** The note telling the model that `dropped` older parts were left out. */
  readonly droppedNote: (dropped: number) => PromptMessage;
}

export type FitOutcome =
  | {
      readonly ok: true;
      readonly messages: readonly PromptMessage[];
      /** The whole request by the counter: messages and tools. */
      readonly tokens: number;
      /** Indexes (into `units`) of the units sent as stubs. */
      readonly stubbed: readonly number[];
      /** How many of the oldest units were left out. */
      readonly dropped: number;
    }
  | { readonly ok: false; readonly tokens: number };

/** Chooses what to send; `ok: false` when even the instructions, tools and pinned units alone do not fit. */
export async function fitToWindow(input: FitInput): Promise<FitOutcome> {
  const { units, budget } = input;
  const full = await Promise.all(units.map((unit) => costOf(unit.messages, input.count)));
  const short = await Promise.all(units.map((unit, index) => (unit.stubbed ? costOf(unit.stubbed, input.count) : full[index]!)));
  let tokens = input.toolTokens + (await input.count(input.instructions));
  const open: number[] = [];
  units.forEach((unit, index) => {
    tokens += full[index]!;
    if (!unit.pinned) open.push(index);
  });
  const stubbed = new Set<number>();
  // 2. Stubs, oldest first, until it fits.
  for (const index of open) {
    if (tokens <= budget) break;
    if (short[index]! >= full[index]!) continue;
    tokens -= full[index]! - short[index]!;
    stubbed.add(index);
  }
  // 3. Drop the oldest, with a note whose size is counted first.
  const dropped = new Set<number>();
  let note: PromptMessage | undefined;
  if (tokens > budget) {
    note = input.droppedNote(open.length);
    tokens += await input.count(note);
    for (const index of open) {
      if (tokens <= budget) break;
      tokens -= stubbed.has(index) ? short[index]! : full[index]!;
      stubbed.delete(index);
      dropped.add(index);
    }
    if (tokens > budget) return { ok: false, tokens };
    // The note with the real number (its count may differ from the estimate's).
    const estimate = await input.count(note);
    note = input.droppedNote(dropped.size);
    tokens += (await input.count(note)) - estimate;
    if (tokens > budget) return { ok: false, tokens };
  }
  const messages: PromptMessage[] = [input.instructions];
  if (note) messages.push(note);
  units.forEach((unit, index) => {
    if (dropped.has(index)) return;
    messages.push(...(stubbed.has(index) ? unit.stubbed! : unit.messages));
  });
  return { ok: true, messages, tokens, stubbed: [...stubbed].sort((a, b) => a - b), dropped: dropped.size };
}

async function costOf(messages: readonly PromptMessage[], count: MessageCounter): Promise<number> {
  let total = 0;
  for (const message of messages) {
    const counted = count(message);
    // A cached count comes back as a number: no await, so a long conversation costs no microtask per message.
    total += typeof counted === 'number' ? counted : await counted;
  }
  return total;
}
