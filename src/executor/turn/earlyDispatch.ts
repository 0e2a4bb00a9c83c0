// Early dispatch while the model is still streaming (spec §2): only calls that cannot surprise anyone.
import type { ExecutorDeps } from '../call/callState';
import type { ToolCall } from '../contract/contract';
import { flagsOf } from '../contract/flags';
import { parseRawInput, validateInput } from '../contract/schema';

/**
 * True when a call may start before the model's reply is complete: its tool is registered and enabled,
 * read-only, concurrent-safe, non-destructive, of scope `none`, never asks (`alwaysAsk`), its input is
 * already valid, and the permission policy allows it without approval. It then runs through the same
 * pipeline as any call (PreToolUse hooks may still stop it).
 */
export async function canDispatchEarly(call: ToolCall, deps: ExecutorDeps, signal: AbortSignal): Promise<boolean> {
  const entry = deps.registry.get(call.name);
  if (!entry || deps.registry.isDisabled(call.name)) return false;
  const flags = flagsOf(entry.def);
  if (!flags.readOnly || !flags.concurrentSafe || flags.destructive || flags.sideEffectScope !== 'none' || flags.alwaysAsk) {
    return false;
  }
  const parsed = parseRawInput(call.name, call.input);
  const valid = parsed.ok ? validateInput(call.name, entry.schema.validator, parsed.value) : parsed;
  if (!valid.ok) return false;
  let input = valid.value;
  try {
    input = entry.def.resolveInput ? entry.def.resolveInput(input) : input;
  } catch {
    return false;
  }
  const decision = await deps.permissionPolicy.evaluate({ tool: entry.def, input, callId: call.id, workspaceFolders: deps.workspaceFolders }, signal);
  return decision.behavior === 'allow';
}
