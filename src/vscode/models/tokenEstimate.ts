// Token counts before a request is sent. Neither format counts tokens without sending the text (and
// billing or loading the model for it), so this is an estimate: characters / 4, OpenAI's rule of thumb
// for English, scaled per model by what the endpoint reported for the last request (its real prompt
// tokens against our estimate of the same messages). No `vscode` here.

/** OpenAI's rule of thumb: a token is about 4 characters of English text. */
export const CHARS_PER_TOKEN = 4;
/** A correction is kept within this factor either way: one odd answer must not skew every count. */
export const MAX_CORRECTION = 4;

export class TokenEstimate {
  private readonly corrections = new Map<string, number>();

  /** Tokens of `chars` characters for `model`, corrected by its last report. */
  count(model: string, chars: number): number {
    return Math.ceil((chars / CHARS_PER_TOKEN) * (this.corrections.get(model) ?? 1));
  }

  /** The endpoint counted `realTokens` for a request of `chars` characters: later counts follow it. */
  calibrate(model: string, chars: number, realTokens: number): void {
    if (chars <= 0 || realTokens <= 0) return;
    const factor = realTokens / (chars / CHARS_PER_TOKEN);
    this.corrections.set(model, Math.min(MAX_CORRECTION, Math.max(1 / MAX_CORRECTION, factor)));
  }
}
