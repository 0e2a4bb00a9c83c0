// The redactor the executor, its logs and `@executor` hold for the whole session, while the user's
// `agentToolExecutor.redaction.patterns` may change: it forwards to the redactor built from the settings
// as they are now, and `reload()` builds it again. A stream keeps the rules it started with, so one
// output is never masked by two rule sets.
import type { RedactionStream, Redactor } from '../executor/ports/redactor';
import { redactionStreamOf } from '../executor/results/redaction/lineStream';

export class LiveRedactor implements Redactor {
  private current: Redactor;

  constructor(private readonly build: () => Redactor) {
    this.current = build();
  }

  /** Builds the redactor from the settings again; later results use it. */
  reload(): void {
    this.current = this.build();
  }

  redact(text: string): string {
    return this.current.redact(text);
  }

  createStream(): RedactionStream {
    return redactionStreamOf(this.current);
  }
}
