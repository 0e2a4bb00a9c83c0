// Running hooks: matchers, per-hook timeouts, crash isolation, and the "first decision ends the chain" rule.
import { projectErrorMessage } from '../contract/errors';
import type { Logger } from '../ports/logger';
import type { Hook, HookEventName, HookInput, HookOutcome, HookSource } from '../ports/hooks';

/** Spec/Claude Code: a hook that has not answered after 60 s gives no decision. */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

/** Hooks registered through the API, in registration order. */
export class HookRegistry implements HookSource {
  private readonly hooks: Hook[] = [];

  /** Returns a function that removes the hook. */
  register(hook: Hook): () => void {
    this.hooks.push(hook);
    return () => {
      const index = this.hooks.indexOf(hook);
      if (index >= 0) this.hooks.splice(index, 1);
    };
  }

  hooksFor(event: HookEventName, toolName: string): readonly Hook[] {
    return this.hooks.filter((hook) => hook.event === event && matchesTool(hook.matcher, toolName));
  }
}

/** Several sources in order (API hooks, then user settings, then workspace settings). */
export function combineHookSources(...sources: readonly HookSource[]): HookSource {
  return { hooksFor: (event, toolName) => sources.flatMap((source) => source.hooksFor(event, toolName)) };
}

/** Claude Code's matcher: empty or `*` matches all; otherwise a regular expression on the whole name. */
export function matchesTool(matcher: string | undefined, toolName: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(toolName);
  } catch {
    return matcher === toolName;
  }
}

export interface HookChainResult {
  /** The first hook that decided, and what it said. */
  readonly decision?: { readonly hook: string; readonly outcome: HookOutcome & { decision: 'allow' | 'deny' | 'ask' } };
  /** Additional context from every hook that ran, in order. */
  readonly additionalContext: readonly string[];
}

export interface HookChainOptions {
  /** Stop at the first hook that decides (PreToolUse, PermissionRequest). */
  readonly stopAtDecision: boolean;
  /** Decisions this event may give; others are ignored (and logged). */
  readonly allowedDecisions: ReadonlySet<string>;
  readonly logger: Logger;
}

/** Runs the hooks of one event in order. A hook that times out or crashes gives no decision and is logged. */
export async function runHookChain(
  source: HookSource,
  input: HookInput,
  options: HookChainOptions,
  signal: AbortSignal,
): Promise<HookChainResult> {
  const additionalContext: string[] = [];
  for (const hook of source.hooksFor(input.hook_event_name, input.tool_name)) {
    signal.throwIfAborted();
    const outcome = await runOneHook(hook, input, options.logger, signal);
    if (!outcome) continue;
    if (outcome.additionalContext?.trim()) additionalContext.push(outcome.additionalContext.trim());
    const decision = outcome.decision;
    if (decision === undefined) continue;
    if (!options.allowedDecisions.has(decision)) {
      options.logger.warn('tool.hook.ignored_decision', { hook: hook.name, event: input.hook_event_name, decision });
      continue;
    }
    if (options.stopAtDecision) {
      return { decision: { hook: hook.name, outcome: { ...outcome, decision } }, additionalContext };
    }
  }
  return { additionalContext };
}

async function runOneHook(hook: Hook, input: HookInput, logger: Logger, parent: AbortSignal): Promise<HookOutcome | undefined> {
  const timeoutMs = hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onParentAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const aborted = new Promise<'aborted'>((resolve) => {
    if (controller.signal.aborted) resolve('aborted');
    controller.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
  const running = Promise.resolve()
    .then(() => hook.run(input, controller.signal))
    .then(
      (outcome) => ({ outcome }),
      (error: unknown) => ({ error }),
    );
  try {
    const settled = await Promise.race([running, timedOut, aborted]);
    if (settled === 'aborted') {
      parent.throwIfAborted();
      return undefined;
    }
    if (settled === 'timeout') {
      controller.abort(new Error(`hook ${hook.name} timed out`));
      logger.warn('tool.hook.timeout', { hook: hook.name, event: input.hook_event_name, tool: input.tool_name, timeoutMs });
      return undefined;
    }
    if ('error' in settled) {
      logger.error('tool.hook.crashed', {
        hook: hook.name,
        event: input.hook_event_name,
        tool: input.tool_name,
        error: projectErrorMessage(settled.error),
      });
      return undefined;
    }
    return settled.outcome ?? undefined;
  } finally {
    clearTimeout(timer);
    parent.removeEventListener('abort', onParentAbort);
    if (!controller.signal.aborted) controller.abort();
  }
}
