// Stream redaction for a redactor that has no stream of its own: whole lines only, so a secret
// split across two chunks of one line is still caught. A line longer than the cap is cut there.
import type { RedactionStream, Redactor } from '../../ports/redactor';

/** A partial line longer than this is redacted and emitted as it is (bounded memory). */
export const LINE_STREAM_MAX_PENDING_CHARS = 64 * 1024;

export function redactionStreamOf(redactor: Redactor): RedactionStream {
  if (redactor.createStream) return redactor.createStream();
  let pending = '';
  return {
    push(chunk) {
      pending += chunk;
      const lastNewline = pending.lastIndexOf('\n');
      let cut = lastNewline + 1;
      if (cut === 0 && pending.length > LINE_STREAM_MAX_PENDING_CHARS) cut = pending.length;
      if (cut === 0) return '';
      const ready = pending.slice(0, cut);
      pending = pending.slice(cut);
      return redactor.redact(ready);
    },
    end() {
      const rest = pending;
      pending = '';
      return rest ? redactor.redact(rest) : '';
    },
    peek: () => (pending ? redactor.redact(pending) : ''),
  };
}
