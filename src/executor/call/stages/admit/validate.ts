// Stage 2 (spec §3.2): JSON parse, then the zod schema. The model's JSON is never repaired.
import type { AdmissionRecord, StageFailure } from '../../callState';
import type { ToolCall } from '../../../contract/contract';
import { parseRawInput, validateInput } from '../../../contract/schema';

/**
 * Input fields that name a file, a folder, a pattern, a command or a URL: the operating system cannot
 * take a NUL byte in any of them (it would end the string early), so one there is invalid input, not
 * a crash in the handler.
 */
const NUL_FREE_FIELD = /path|file|dir|cwd|pattern|glob|command|url/i;

export function validate(call: ToolCall, own: AdmissionRecord): StageFailure | undefined {
  const entry = own.entry!;
  const parsed = parseRawInput(call.name, call.input);
  const validated = parsed.ok ? validateInput(call.name, entry.schema.validator, parsed.value) : parsed;
  if (!validated.ok) {
    return { kind: 'invocation', stage: 'validate', message: validated.message, errorClass: 'InvalidInput', wrap: true };
  }
  const withNul = fieldWithNul(validated.value);
  if (withNul !== undefined) {
    const message = `tool ${call.name}: invalid input: field ${withNul} contains a NUL byte`;
    return { kind: 'invocation', stage: 'validate', message, errorClass: 'InvalidInput', wrap: true };
  }
  own.input = validated.value;
  return undefined;
}

function fieldWithNul(input: unknown): string | undefined {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  for (const [key, value] of Object.entries(input)) {
    if (!NUL_FREE_FIELD.test(key)) continue;
    const values = Array.isArray(value) ? value : [value];
    if (values.some((item) => typeof item === 'string' && item.includes('\u0000'))) return key;
  }
  return undefined;
}
