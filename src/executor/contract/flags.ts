// A tool's safety flags as the scheduler and permission layer read them (spec §1, §2).
import type { SideEffectScope, ToolDefinition } from './contract';
import type { CallFlags } from './events';

/**
 * Read-only to the scheduler only if declared `readOnly` *and* the scope is `none`: a read-only tool
 * with session scope (a todo list, a sub-agent) is not read-only here. A tool that declares no scope
 * is taken to touch the workspace, unless it declares itself read-only.
 */
export function effectiveScope(def: ToolDefinition): SideEffectScope {
  return def.sideEffectScope ?? (def.readOnly === true ? 'none' : 'workspace');
}

export function flagsOf(def: ToolDefinition): CallFlags {
  const scope = effectiveScope(def);
  return {
    readOnly: def.readOnly === true && scope === 'none',
    destructive: def.destructive === true,
    concurrentSafe: def.concurrentSafe === true,
    sideEffectScope: scope,
    alwaysAsk: def.permission?.alwaysAsk === true,
  };
}
