// Stage 3 (spec §3.3): normalise once; from here on hooks, rules, events, preview and handler see the same bytes.
import type { AdmissionRecord, StageFailure } from '../../callState';
import type { ToolCall } from '../../../contract/contract';
import { projectErrorMessage } from '../../../contract/errors';
import { deepFreeze } from '../../../deepFreeze';

export function resolveInput(call: ToolCall, own: AdmissionRecord): StageFailure | undefined {
  const def = own.entry!.def;
  try {
    const resolved = def.resolveInput ? def.resolveInput(own.input) : own.input;
    // Frozen, so no hook, rule or handler can change what the user approved.
    own.input = deepFreeze(resolved);
  } catch (error) {
    return {
      kind: 'invocation',
      stage: 'validate',
      message: `tool ${call.name}: invalid input: ${projectErrorMessage(error)}`,
      errorClass: 'InvalidInput',
      wrap: true,
    };
  }
  return undefined;
}
