// Stage 7 (spec §3.7): the timeout is resolved only now, after approval; waiting for a user is never timed.
import type { ToolDefinition } from '../../../contract/contract';
import type { CallState, ExecutorDeps, RunState } from '../../callState';

/** Spec §3.7: executor default for tools that declare nothing. */
export const DEFAULT_TOOL_TIMEOUT_MS = 300_000;

/**
 * Priority: `kind:'none'` (no timeout) → `resolveTimeoutBudgetMs` → `input.timeout_ms` / `input.timeout`
 * when `allowCallOverride` → `defaultMs` → `metadata.timeoutMs` → the executor default; capped at
 * `maxMs`, then `cleanupGraceMs` is added.
 */
export function resolveTimeoutMs(def: ToolDefinition, input: unknown, defaultTimeoutMs: number): number | undefined {
  const policy = def.timeout;
  if (policy?.kind === 'none') return undefined;
  const defaultMs = policy?.defaultMs ?? def.metadata?.timeoutMs ?? defaultTimeoutMs;
  const override = policy?.allowCallOverride ? callOverride(input) : undefined;
  const requestedMs = positive(def.resolveTimeoutBudgetMs?.(input)) ?? override ?? defaultMs;
  const cappedMs = policy?.maxMs === undefined ? requestedMs : Math.min(requestedMs, policy.maxMs);
  const graceMs = Math.max(0, Math.trunc(policy?.cleanupGraceMs ?? 0));
  return Math.max(1, Math.trunc(cappedMs)) + graceMs;
}

function callOverride(input: unknown): number | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  const record = input as { timeout_ms?: unknown; timeout?: unknown };
  return positive(record.timeout_ms) ?? positive(record.timeout);
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

export function resolveTimeout(state: CallState, deps: ExecutorDeps, own: Pick<RunState, 'timeoutMs'>): void {
  own.timeoutMs = resolveTimeoutMs(state.entry!.def, state.input, deps.defaultTimeoutMs);
}
