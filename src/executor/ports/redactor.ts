// Port: secret masking, applied once before a result forks to model, UI, artifact, record and logs (spec §6).

export interface Redactor {
  /** Returns the text with every secret replaced by `[REDACTED:<rule>]`. */
  redact(text: string): string;
  /**
   * A redactor for one stream of chunks: a secret split across two chunks is still caught.
   * Absent: the executor falls back to redacting whole lines (see `results/redaction/lineStream.ts`).
   */
  createStream?(): RedactionStream;
}

/** Redacts a stream: `push` returns the redacted text that is safe to emit so far, `end` the rest. */
export interface RedactionStream {
  push(chunk: string): string;
  end(): string;
}

/** The identity redactor, for hosts that configure none. */
export const noRedaction: Redactor = {
  redact: (text) => text,
  createStream: () => ({ push: (chunk) => chunk, end: () => '' }),
};
