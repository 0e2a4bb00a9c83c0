// What a command hook said, read the way Claude Code reads it, so users' existing hooks work:
// exit 0 = no objection (stdout may carry JSON), exit 2 = block with stderr as the reason, any other
// exit = a failed hook (no decision, logged). JSON may decide with `hookSpecificOutput.permissionDecision`
// (PreToolUse), `hookSpecificOutput.decision.behavior` (PermissionRequest), the older top-level
// `decision: approve|block`, and add `additionalContext`.
import type { HookEventName, HookOutcome } from '../../executor/ports/hooks';

/** How a hook process ended. */
export interface HookProcessResult {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A hook whose output is not an answer (bad exit code, killed, invalid JSON): no decision, logged. */
export class HookFailure extends Error {
  override readonly name = 'HookFailure';
}

/** Claude Code's exit code for "block". */
export const BLOCKING_EXIT_CODE = 2;

/** Interprets the process result; throws `HookFailure` for a hook that failed (the chain logs it). */
export function interpretHookResult(event: HookEventName, result: HookProcessResult): HookOutcome {
  if (result.exitCode === BLOCKING_EXIT_CODE) {
    const reason = result.stderr.trim() || 'blocked by hook (exit code 2, no message)';
    if (event === 'PreToolUse' || event === 'PermissionRequest') return { decision: 'deny', reason };
    // The call already ran: Claude Code shows the message to the model.
    return { additionalContext: reason };
  }
  if (result.exitCode !== 0) {
    const how = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`;
    throw new HookFailure(`${how}${result.stderr.trim() ? `: ${result.stderr.trim()}` : ''}`);
  }
  const stdout = result.stdout.trim();
  if (!stdout.startsWith('{')) return {};
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch (error) {
    throw new HookFailure(`printed invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return {};
  return interpretJson(event, json as Record<string, unknown>);
}

function interpretJson(event: HookEventName, json: Record<string, unknown>): HookOutcome {
  const specific = isRecord(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const additionalContext = text(specific.additionalContext) ?? text(json.additionalContext);
  const outcome: { decision?: 'allow' | 'deny' | 'ask'; reason?: string; additionalContext?: string } = {};
  if (additionalContext) outcome.additionalContext = additionalContext;
  switch (event) {
    case 'PreToolUse': {
      const decision = decisionOf(specific.permissionDecision ?? json.permissionDecision ?? legacy(json.decision));
      if (decision) {
        outcome.decision = decision;
        const reason = text(specific.permissionDecisionReason) ?? text(json.permissionDecisionReason) ?? text(json.reason);
        if (reason) outcome.reason = reason;
      }
      break;
    }
    case 'PermissionRequest': {
      const nested = isRecord(specific.decision) ? specific.decision : {};
      const decision = decisionOf(nested.behavior ?? specific.permissionDecision ?? json.permissionDecision ?? legacy(json.decision));
      if (decision === 'allow' || decision === 'deny') {
        outcome.decision = decision;
        const reason = text(nested.message) ?? text(specific.permissionDecisionReason) ?? text(json.reason);
        if (reason) outcome.reason = reason;
      }
      break;
    }
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      // `decision: "block"` after the fact: Claude Code feeds the reason to the model.
      const reason = json.decision === 'block' ? text(json.reason) : undefined;
      if (reason) outcome.additionalContext = additionalContext ? `${additionalContext}\n${reason}` : reason;
      break;
    }
  }
  return outcome;
}

function decisionOf(value: unknown): 'allow' | 'deny' | 'ask' | undefined {
  return value === 'allow' || value === 'deny' || value === 'ask' ? value : undefined;
}

/** The older PreToolUse form: `decision: "approve" | "block"`. */
function legacy(value: unknown): unknown {
  if (value === 'approve') return 'allow';
  if (value === 'block') return 'deny';
  return undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
