// Port: hooks around a call (spec §3.4, §3.6, §3.13). Programmatic hooks and command hooks both implement it.

export type HookEventName = 'PreToolUse' | 'PermissionRequest' | 'PostToolUse' | 'PostToolUseFailure';

export interface HookInput {
  readonly hook_event_name: HookEventName;
  readonly tool_name: string;
  readonly tool_input: unknown;
  readonly tool_use_id: string;
  readonly cwd: string;
  readonly session_id: string;
  /** The permission mode, with Claude Code's names (`default`, `acceptEdits`, `plan`, `bypassPermissions`). */
  readonly permission_mode?: string;
  /** PostToolUse: the model content of the result. */
  readonly tool_response?: unknown;
  /** PostToolUseFailure: the error message, and whether the user interrupted. */
  readonly error?: string;
  readonly is_interrupt?: boolean;
}

/** What a hook said. An empty object is "no objection, no decision". */
export interface HookOutcome {
  /** PreToolUse: allow | deny | ask; PermissionRequest: allow | deny. */
  readonly decision?: 'allow' | 'deny' | 'ask';
  readonly reason?: string;
  readonly additionalContext?: string;
}

export interface Hook {
  /** For logs and decision records. */
  readonly name: string;
  readonly event: HookEventName;
  /** Tool-name matcher: undefined or `*` matches all; otherwise a regular expression or `A|B` list. */
  readonly matcher?: string;
  /** Per-hook timeout in ms (default 60000). */
  readonly timeoutMs?: number;
  run(input: HookInput, signal: AbortSignal): Promise<HookOutcome> | HookOutcome;
}

export interface HookSource {
  /** The hooks for this event and tool, in the order they run. */
  hooksFor(event: HookEventName, toolName: string): readonly Hook[];
}
