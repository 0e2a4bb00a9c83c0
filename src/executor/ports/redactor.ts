// Port: secret masking, applied once before a result forks to model, UI, artifact, record and logs (spec §6).

export interface Redactor {
  /** Returns the text with every secret replaced by `[REDACTED:<rule>]`. */
  redact(text: string): string;
}

/** The identity redactor, for hosts that configure none. */
export const noRedaction: Redactor = { redact: (text) => text };
