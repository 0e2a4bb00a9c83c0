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
  /**
   * `push`, with the redacted text handed to `emit` in one or more pieces, in order: a stream that
   * would otherwise join them into one string (a copy of the chunk) may hand them apart. Absent: `push`.
   */
  pushEach?(chunk: string, emit: (text: string) => void): void;
  end(): string;
  /** What `end` would emit now, without ending: the held-back text redacted as it stands. Absent: nothing shown early. */
  peek?(): string;
  /**
   * True when what it emits is ASCII as long as all it was given was: every mask it writes is ASCII. A
   * reader that knows its input was ASCII then need not count the output's UTF-8 bytes. Absent: unknown.
   */
  readonly keepsAscii?: boolean;
}

/** The identity redactor, for hosts that configure none. */
export const noRedaction: Redactor = {
  redact: (text) => text,
  createStream: () => ({ push: (chunk) => chunk, end: () => '', peek: () => '', keepsAscii: true }),
};
