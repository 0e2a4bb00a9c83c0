// Stage 11 (spec §3.11, §6): secrets are masked once, before the result forks to model, UI,
// artifact, session record and logs. Streamed output was already redacted as it arrived.
import type { ToolDisplay } from '../../../contract/contract';
import type { CallState, ExecutorDeps, ResultState } from '../../callState';
import { projectErrorMessage } from '../../../contract/errors';

/** Produces the redacted UI text of the call: its output (a stream's trailer), or its failure message. */
export function redact(state: CallState, deps: ExecutorDeps, own: Pick<ResultState, 'failure' | 'text'>): void {
  const r = deps.redactor;
  if (own.failure) {
    own.failure = { ...own.failure, message: r.redact(own.failure.message) };
    own.text = own.failure.message;
    return;
  }
  own.text = r.redact(modelText(state, deps));
}

/** The tool's model projection; a formatter that throws falls back to the raw content (logged), never a dead call. */
function modelText(state: CallState, deps: ExecutorDeps): string {
  const output = state.run.output!;
  const def = state.entry!.def;
  if (!def.formatModelContent) return output.content;
  try {
    const text = def.formatModelContent(output);
    return typeof text === 'string' ? text : output.content;
  } catch (error) {
    deps.logger.warn('tool.format.failed', { tool: state.toolName, callId: state.call.id, error: projectErrorMessage(error) });
    return output.content;
  }
}

/** Redacts every string of a display. */
export function redactDisplay(display: ToolDisplay, deps: ExecutorDeps): ToolDisplay {
  const r = (text: string) => deps.redactor.redact(text);
  switch (display.kind) {
    case 'file_diff':
      return { ...display, path: r(display.path), before: r(display.before), after: r(display.after), diff: r(display.diff) };
    case 'bash_output':
      return { ...display, output: r(display.output) };
  }
}
