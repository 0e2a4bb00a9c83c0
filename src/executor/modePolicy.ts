// The permission modes as a policy (policy issue §1): the executor's default when no rules are configured.
import { flagsOf } from './flags';
import type { PermissionDecision, PermissionPolicy, PermissionRequest } from './ports/permissionPolicy';

export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypass';
export const PERMISSION_MODES: readonly PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypass'];

/**
 * default: read-only tools run, others ask. acceptEdits: workspace edits run too; commands and network ask.
 * plan: only read-only tools; others are denied. bypass: everything runs (the executor still keeps
 * `alwaysAsk`). "Allow for this session" answers allow the tool for the rest of the session.
 */
export class ModePolicy implements PermissionPolicy {
  private readonly sessionAllowed = new Set<string>();

  constructor(public mode: PermissionMode = 'default') {}

  evaluate(request: PermissionRequest): PermissionDecision {
    const name = request.tool.name;
    const flags = flagsOf(request.tool);
    if (flags.readOnly) return { behavior: 'allow', by: 'mode', reason: `${name} only reads` };
    switch (this.mode) {
      case 'plan':
        return { behavior: 'deny', by: 'mode', reason: `plan mode runs only read-only tools, and ${name} is not read-only` };
      case 'bypass':
        return { behavior: 'allow', by: 'mode', reason: 'bypass mode' };
      case 'acceptEdits':
        if (flags.sideEffectScope === 'workspace' && !flags.destructive) {
          return { behavior: 'allow', by: 'mode', reason: 'acceptEdits mode allows workspace edits' };
        }
        break;
      case 'default':
        break;
    }
    if (this.sessionAllowed.has(name)) return { behavior: 'allow', by: 'user', reason: `${name} was allowed for this session` };
    return { behavior: 'ask', by: 'mode', reason: `${name} may change files or reach outside the workspace` };
  }

  rememberSessionApproval(request: PermissionRequest): void {
    this.sessionAllowed.add(request.tool.name);
  }
}
