// When to start a process again after it ended on its own (an agent, src/vscode/bridge/agentHost.ts; the OS
// sandbox's runtime, src/tools/sandbox/bashSandbox.ts): exponential backoff, forgiven after a while of
// healthy running, and a limit so one that cannot start does not loop forever.

/** First wait before a restart. Ours. */
export const RESTART_INITIAL_DELAY_MS = 500;
/** The wait doubles per crash up to this. Ours. */
export const RESTART_MAX_DELAY_MS = 30_000;
/** Running this long without a crash resets the backoff. Ours. */
export const RESTART_HEALTHY_AFTER_MS = 60_000;
/** Crashes in a row (none healthy in between) after which the agent is left stopped. Ours. */
export const RESTART_MAX_ATTEMPTS = 8;

export type RestartDecision = { readonly restart: true; readonly attempt: number; readonly delayMs: number } | { readonly restart: false; readonly attempts: number };

export class RestartBackoff {
  private attempts = 0;
  private startedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The agent (re)started now. */
  started(): void {
    this.startedAt = this.now();
  }

  /** The agent's process ended without being asked to: restart, and after how long? */
  crashed(): RestartDecision {
    if (this.now() - this.startedAt >= RESTART_HEALTHY_AFTER_MS) this.attempts = 0;
    if (this.attempts >= RESTART_MAX_ATTEMPTS) return { restart: false, attempts: this.attempts };
    const delayMs = Math.min(RESTART_MAX_DELAY_MS, RESTART_INITIAL_DELAY_MS * 2 ** this.attempts);
    this.attempts++;
    return { restart: true, attempt: this.attempts, delayMs };
  }
}
