// The redactor the executor, its logs and `@executor` hold for the whole session, while the user's
// `agentToolExecutor.redaction.patterns` may change: it forwards to the redactor built from the settings
// as they are now, and `reload()` builds it again. A stream keeps the rules it started with, so one
// output is never masked by two rule sets.
import type { RedactionStream, Redactor } from '../../executor';
import { redactionStreamOf } from '../../executor';

export class LiveRedactor implements Redactor {
  /** Built on first use: compiling the rules would otherwise be part of activation. */
  private current: Redactor | undefined;

  constructor(private readonly build: () => Redactor) {}

  /**
   * Builds the redactor from the settings again, now (so a broken pattern is reported as the user saves it);
   * later results use it.
   */
  reload(): void {
    this.current = this.build();
  }

  redact(text: string): string {
    return this.redactor().redact(text);
  }

  createStream(): RedactionStream {
    return redactionStreamOf(this.redactor());
  }

  private redactor(): Redactor {
    return (this.current ??= this.build());
  }
}
