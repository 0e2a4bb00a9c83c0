// Stage 12 (spec §3.12, §7, §8): the model content — budgeted, persisted when large, with workspace changes.
import { applyBudget, type SpilledText } from '../../../results/budget';
import type { CallState, ExecutorDeps, ResultState } from '../../callState';
import { formatWorkspaceChanges } from '../../../results/workspaceChanges';
import { projectErrorMessage, toolUseError } from '../../../contract/errors';
import { buildBashOutputDisplay } from '../../../results/displays/commandOutput';
import type { CollectedOutput } from '../../../results/stream/outputStream';
import { utf8Bytes } from '../../../format/text';
import { redactDisplay } from './redact';

/** What this stage writes: all of the result but the failure. */
type Own = Omit<ResultState, 'failure'>;

export async function serialize(state: CallState, deps: ExecutorDeps, own: Own): Promise<void> {
  const failure = state.result.failure;
  if (failure) {
    // A failed call's partial stream goes nowhere (its partial artifact is deleted).
    await state.run.outputStream?.discard();
    own.modelContent = failure.wrap ? toolUseError(own.text) : own.text;
    own.originalBytes = utf8Bytes(own.text);
    own.strategy = 'inline';
  } else {
    await budgetOutput(state, deps, own);
  }
  const changes = formatWorkspaceChanges(state.run.changes);
  if (changes) {
    own.modelContent = `${own.modelContent}\n\n${deps.redactor.redact(changes)}`;
  }
}

async function budgetOutput(state: CallState, deps: ExecutorDeps, own: Own): Promise<void> {
  const def = state.entry!.def;
  const output = state.run.output!;
  const stream = state.run.outputStream;
  // Streamed output: the stream, then the (already redacted) `content` as its trailer.
  const collected: CollectedOutput | undefined = stream ? await stream.finish(own.text) : undefined;
  const content: string | SpilledText = collected?.kind === 'spilled' ? collected : (collected?.text ?? own.text);
  const empty = typeof content === 'string' && content.trim() === '';
  const text = empty ? `(${state.toolName} completed with no output)` : content;
  if (typeof text === 'string') own.text = text;
  else own.text = `${text.head}\n…\n${text.tail}`;
  const store = deps.artifactStore;
  const outcome = await applyBudget({
    toolName: state.toolName,
    text,
    budget: def.resultBudget ?? deps.defaultResultBudget,
    readOnlySuccess: state.flags!.readOnly && !output.isError,
    persist: store
      ? (full) => store.write({ sessionId: deps.sessionId, callId: state.call.id, retention: def.artifactRetention ?? 'session', content: full })
      : undefined,
    formatPersisted: def.formatPersistedModelContent?.bind(def),
  });
  own.modelContent = output.isError ? toolUseError(outcome.modelContent) : outcome.modelContent;
  own.strategy = empty ? 'empty' : outcome.strategy;
  own.truncated = outcome.truncated;
  own.originalBytes = outcome.originalBytes;
  own.artifact = outcome.artifact;
  if (outcome.strategy === 'artifact' || outcome.strategy === 'truncate') {
    deps.logger.debug('tool.result.budgeted', { tool: state.toolName, callId: state.call.id, strategy: outcome.strategy, originalBytes: outcome.originalBytes });
  }
  own.display = toolDisplay(state, deps) ?? streamDisplay(collected, outcome.truncated);
}

function toolDisplay(state: CallState, deps: ExecutorDeps) {
  const def = state.entry!.def;
  if (!def.display) return undefined;
  try {
    const display = def.display(state.run.output!, state.input);
    return display ? redactDisplay(display, deps) : undefined;
  } catch (error) {
    deps.logger.warn('tool.display.failed', { tool: state.toolName, callId: state.call.id, error: projectErrorMessage(error) });
    return undefined;
  }
}

/** Streams that asked for it get a `bash_output` display, built from already redacted text. */
function streamDisplay(collected: CollectedOutput | undefined, truncated: boolean) {
  if (collected?.options?.display !== 'bash_output') return undefined;
  const parts =
    collected.kind === 'whole'
      ? { head: collected.text, tail: collected.text, totalBytes: utf8Bytes(collected.text) }
      : { head: collected.head, tail: collected.tail, totalBytes: collected.totalBytes };
  return buildBashOutputDisplay({ ...parts, truncatedOrPersisted: truncated, end: collected.end });
}
