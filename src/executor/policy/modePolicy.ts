// The permission modes without rules: kept for hosts that only pick a mode (`--mode`); the executor's
// default policy. Everything is implemented by `RulesPolicy` (policy/).
import type { PermissionMode } from './modes';
import { RulesPolicy } from './rulesPolicy';

export { PERMISSION_MODES, parsePermissionMode, type PermissionMode } from './modes';

/** A `RulesPolicy` with no rules: the mode, paths, sensitive files and session approvals only. */
export class ModePolicy extends RulesPolicy {
  constructor(mode: PermissionMode = 'default') {
    super({ mode });
  }
}
