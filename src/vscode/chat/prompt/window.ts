// How much of a model's window a request may take, and the share the latest round's results get.
// No `vscode` here.

/** Used when a model reports no window (0 or missing): the smallest window in common use. Ours. */
export const DEFAULT_WINDOW_TOKENS = 8_192;
/** The reply's share of the window kept free, at most `MAX_REPLY_RESERVE_TOKENS`. Ours. */
export const REPLY_RESERVE_SHARE = 0.15;
/** Room for the longest reply we expect (a Write of a whole file). Ours. */
export const MAX_REPLY_RESERVE_TOKENS = 8_192;
/** The latest round's results together take at most this share of the budget; older rounds and stubs get the rest. Ours. */
export const LATEST_ROUND_SHARE = 0.5;

/** The window a model reports, or the default when it reports none. */
export function windowTokens(reported: number | undefined): number {
  return reported !== undefined && Number.isFinite(reported) && reported > 0 ? reported : DEFAULT_WINDOW_TOKENS;
}

/** What a request may take: the window less the reply's reserve. */
export function budgetOf(window: number): number {
  return window - Math.min(MAX_REPLY_RESERVE_TOKENS, Math.ceil(window * REPLY_RESERVE_SHARE));
}

/** Kept free beside the pinned part for the note that older parts were left out (about 60 tokens). Ours. */
export const NOTE_ROOM_TOKENS = 120;

/**
 * What each of a new round's `results` may take: their share of the budget, and never more than
 * what the rest of the pinned part (`fixed`: instructions, tools, prompt, the round's own calls) leaves.
 */
export function resultShare(budget: number, fixed: number, results: number): number {
  const room = Math.min(Math.floor(budget * LATEST_ROUND_SHARE), budget - fixed - NOTE_ROOM_TOKENS);
  return Math.max(1, Math.floor(room / Math.max(1, results)));
}
