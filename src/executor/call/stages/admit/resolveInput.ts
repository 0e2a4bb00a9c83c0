// Stage 3 (spec §3.3): normalise once; from here on hooks, rules, events, preview and handler see the same bytes.
import type { CallState, StageFailure } from '../../callState';
import { projectErrorMessage } from '../../../contract/errors';
import { flagsOf } from '../../../contract/flags';

export function resolveInput(state: CallState): StageFailure | undefined {
  const def = state.entry!.def;
  try {
    const resolved = def.resolveInput ? def.resolveInput(state.input) : state.input;
    // Frozen, so no hook, rule or handler can change what the user approved.
    state.input = deepFreeze(resolved);
  } catch (error) {
    return {
      kind: 'invocation',
      stage: 'validate',
      message: `tool ${state.toolName}: invalid input: ${projectErrorMessage(error)}`,
      errorClass: 'InvalidInput',
      wrap: true,
    };
  }
  state.flags = flagsOf(def);
  return undefined;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) deepFreeze(child);
  }
  return value;
}
