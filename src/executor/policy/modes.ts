// The four permission modes and the names Claude Code's settings use for them.

/**
 * default: read-only tools run, others ask. acceptEdits: file edits inside the workspace run too;
 * commands and network ask. plan: only read-only tools; others are denied. bypass: everything runs
 * except `alwaysAsk`, sensitive files and deny rules.
 */
export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypass';

export const PERMISSION_MODES: readonly PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypass'];

/** Claude Code's `permissions.defaultMode` values that differ from ours. */
const ALIASES: Readonly<Record<string, PermissionMode>> = { bypassPermissions: 'bypass' };

/** Our names and Claude Code's; undefined for anything else. */
export function parsePermissionMode(value: unknown): PermissionMode | undefined {
  if (typeof value !== 'string') return undefined;
  if ((PERMISSION_MODES as readonly string[]).includes(value)) return value as PermissionMode;
  return ALIASES[value];
}

/** How strict a mode is, for "a workspace may tighten but never loosen" decisions. */
export function modeStrictness(mode: PermissionMode): number {
  return { bypass: 0, acceptEdits: 1, default: 2, plan: 3 }[mode];
}
