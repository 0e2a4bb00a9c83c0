// Stage 12 (spec §3.12, §7, §8): the model content — budgeted, persisted when large, with workspace changes.
import { applyBudget } from '../budget';
import type { CallState, ExecutorDeps } from '../callState';
import { formatWorkspaceChanges } from '../changes';
import { projectErrorMessage, toolUseError } from '../errors';
import { utf8Bytes } from '../text';
import { redactDisplay } from './redact';

export async function serialize(state: CallState, deps: ExecutorDeps): Promise<void> {
  if (state.failure) {
    state.modelContent = state.failure.wrap ? toolUseError(state.text) : state.text;
    state.originalBytes = utf8Bytes(state.text);
    state.strategy = 'inline';
  } else {
    await budgetOutput(state, deps);
  }
  const changes = formatWorkspaceChanges(state.changes);
  if (changes) {
    state.modelContent = `${state.modelContent}\n\n${deps.redactor.redact(changes)}`;
  }
}

async function budgetOutput(state: CallState, deps: ExecutorDeps): Promise<void> {
  const def = state.entry!.def;
  const output = state.output!;
  const empty = state.text.trim() === '';
  const text = empty ? `(${state.toolName} completed with no output)` : state.text;
  const store = deps.artifactStore;
  const outcome = await applyBudget({
    toolName: state.toolName,
    text,
    budget: def.resultBudget ?? deps.defaultResultBudget,
    readOnlySuccess: state.flags!.readOnly && !output.isError,
    persist: store
      ? (content) => store.write({ sessionId: deps.sessionId, callId: state.call.id, retention: def.artifactRetention ?? 'session', content })
      : undefined,
    formatPersisted: def.formatPersistedModelContent?.bind(def),
  });
  state.modelContent = output.isError ? toolUseError(outcome.modelContent) : outcome.modelContent;
  state.strategy = empty ? 'empty' : outcome.strategy;
  state.truncated = outcome.truncated;
  state.originalBytes = outcome.originalBytes;
  state.artifact = outcome.artifact;
  if (def.display) {
    try {
      const display = def.display(output, state.input);
      state.display = display ? redactDisplay(display, deps) : undefined;
    } catch (error) {
      deps.logger.warn('tool.display.failed', { tool: state.toolName, callId: state.call.id, error: projectErrorMessage(error) });
    }
  }
}
