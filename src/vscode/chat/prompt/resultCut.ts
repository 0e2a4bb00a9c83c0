// A single tool result bigger than its share of the window is cut when it comes in, through the
// executor's budget path: the head and tail thirds around a line naming what was left out, plus
// where the whole text was saved. No `vscode` here.
import { truncateMiddle } from '../../../executor/results/budget';

/** Cuts measured by the counter before giving up on hitting the share exactly (then a sure bound). */
export const MAX_CUT_ATTEMPTS = 4;
/** Bytes per token to start from: below what tokenizers give for English and code, so the first cut rarely overshoots. */
export const START_BYTES_PER_TOKEN = 3;

export interface CutInput {
  readonly text: string;
  /** What the result may take, by the counter. */
  readonly maxTokens: number;
  /** Counts a text as the result message it becomes. */
  readonly count: (text: string) => Promise<number>;
  /** Where the whole text already is; otherwise `save` is asked. */
  readonly savedUri?: string;
  readonly save: () => Promise<string | undefined>;
}

export interface CutOutcome {
  readonly text: string;
  readonly cut: boolean;
  /** Where the whole text can be read (saved here or before). */
  readonly uri?: string;
}

/** The text itself when it fits its share; otherwise its head and tail, with where the whole is. */
export async function cutToShare(input: CutInput): Promise<CutOutcome> {
  const tokens = await input.count(input.text);
  if (tokens <= input.maxTokens) return { text: input.text, cut: false, uri: input.savedUri };
  const uri = input.savedUri ?? (await input.save().catch(() => undefined));
  const where = uri ? `[The whole result (${input.text.length} chars) was saved: read any part of it with Read on ${uri}, with offset and limit.]` : '[The whole result could not be saved.]';
  let bytes = Math.max(1, Math.floor(input.maxTokens * START_BYTES_PER_TOKEN));
  for (let attempt = 0; attempt < MAX_CUT_ATTEMPTS; attempt++) {
    const text = `${truncateMiddle(input.text, bytes)}\n${where}`;
    const took = await input.count(text);
    if (took <= input.maxTokens) return { text, cut: true, uri };
    bytes = Math.floor((bytes * input.maxTokens) / took) - 1;
    if (bytes <= 0) break;
  }
  // A counter that counts more tokens than characters is not one we know; say where the text is, and nothing else.
  return { text: where, cut: true, uri };
}
