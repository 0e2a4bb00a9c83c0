// Early dispatch while the model is still streaming (spec §2): only calls that cannot surprise anyone.
// It admits and judges a call with the pipeline's own stages, and hands that judgement to the pipeline.
import { AdmissionRecord, type ExecutorDeps, type Prejudged } from '../call/callState';
import { lookup } from '../call/stages/admit/lookup';
import { judgeByPolicy } from '../call/stages/admit/permission';
import { resolveInput } from '../call/stages/admit/resolveInput';
import { validate } from '../call/stages/admit/validate';
import type { ToolCall } from '../contract/contract';
import { sharedJudge } from '../policy/path/judgePath';

/**
 * The judgement of a call that may start before the model's reply is complete: its tool is registered,
 * enabled and offered, read-only, concurrent-safe, non-destructive, of scope `none`, never asks
 * (`alwaysAsk`), its input passes stages 2-3 (the NUL check too), and the permission policy allows it
 * without approval. Undefined for any other call; throws when the policy does. The call then runs
 * through the same pipeline as any call (PreToolUse hooks may still stop it), which takes this
 * judgement instead of making it again. Only a call that starts at once carries one: a call that waits
 * is judged when it runs, since the turn's earlier calls may change the rules (a session grant).
 */
export async function judgeEarly(call: ToolCall, deps: ExecutorDeps, signal: AbortSignal, offeredTools?: ReadonlySet<string>): Promise<Prejudged | undefined> {
  const admission = new AdmissionRecord(call.input);
  if (lookup(call, deps, offeredTools, admission)) return undefined;
  const entry = admission.entry!;
  const flags = admission.flags!;
  if (!flags.readOnly || !flags.concurrentSafe || flags.destructive || flags.sideEffectScope !== 'none' || flags.alwaysAsk) {
    return undefined;
  }
  if (validate(call, admission) ?? resolveInput(call, admission)) return undefined;
  const judgePath = sharedJudge();
  const decision = await judgeByPolicy(call, entry, admission.input, deps, judgePath, signal);
  if (decision.behavior !== 'allow') return undefined;
  return { admission: { entry, flags, input: admission.input }, decision, judgePath };
}

/** Whether a call may start while the model is still streaming (see `judgeEarly`). */
export async function canDispatchEarly(call: ToolCall, deps: ExecutorDeps, signal: AbortSignal): Promise<boolean> {
  return (await judgeEarly(call, deps, signal)) !== undefined;
}
