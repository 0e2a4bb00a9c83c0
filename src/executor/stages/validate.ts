// Stage 2 (spec §3.2): JSON parse, then the zod schema. The model's JSON is never repaired.
import type { CallState, StageFailure } from '../callState';
import { parseRawInput, validateInput } from '../schema';

export function validate(state: CallState): StageFailure | undefined {
  const entry = state.entry!;
  const parsed = parseRawInput(state.toolName, state.call.input);
  const validated = parsed.ok ? validateInput(state.toolName, entry.schema.validator, parsed.value) : parsed;
  if (!validated.ok) {
    return { kind: 'invocation', stage: 'validate', message: validated.message, errorClass: 'InvalidInput', wrap: true };
  }
  state.input = validated.value;
  return undefined;
}
