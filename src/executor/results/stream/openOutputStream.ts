// Sizes and opens a call's output stream from its budget (spec §7) and the executor's ports.
import { PREVIEW_CHARS, budgetLimitBytes, spillAtChars } from '../budget';
import type { CallState, ExecutorDeps } from '../../call/callState';
import type { OutputStreamOptions } from '../../contract/contract';
import { BASH_OUTPUT_MAX_BYTES } from '../displays/commandOutput';
import { OutputCollector } from './outputStream';
import { redactionStreamOf } from '../redaction/lineStream';

/** A new stream for the call; the handler stage keeps it, so opening it twice returns the same one. */
export function openOutputStream(state: CallState, deps: ExecutorDeps, options: OutputStreamOptions = {}): OutputCollector {
  const def = state.entry!.def;
  const budget = def.resultBudget ?? deps.defaultResultBudget;
  // Success is not known yet: size for the largest limit (read-only successes get 3×).
  const limit = budgetLimitBytes(budget, state.flags?.readOnly === true);
  const store = deps.artifactStore;
  const openWriter = store?.openWriter?.bind(store);
  return new OutputCollector({
    redaction: redactionStreamOf(deps.redactor),
    spillAtChars: spillAtChars(limit),
    headChars: Math.max(PREVIEW_CHARS, limit),
    tailChars: Math.max(limit, options.display === 'bash_output' ? BASH_OUTPUT_MAX_BYTES : 0),
    openArtifact:
      budget.strategy === 'artifact' && openWriter
        ? () => openWriter({ sessionId: deps.sessionId, callId: state.call.id, retention: def.artifactRetention ?? 'session' })
        : undefined,
    options,
    // Already redacted: what the artifact and the model will get, live.
    onText: (text) => state.run.live?.addOutput(text),
  });
}
