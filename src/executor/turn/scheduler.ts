// Scheduling a batch (spec §2): order-keeping groups of parallel calls, serial calls alone.
import type { SideEffectScope, ToolCall } from '../contract/contract';
import { flagsOf } from '../contract/flags';
import type { ToolRegistry } from '../contract/registry';

/** Spec §2: a parallel group holds at most 10 calls. */
export const MAX_GROUP_SIZE = 10;

/** Names treated as read-only when they are not in the registry (spec §2, rule 5: a fixed list). */
export const KNOWN_READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  'Read', 'Glob', 'Grep', 'LS', 'WebSearch', 'NotebookRead', 'ToolSearch',
  'read', 'glob', 'grep', 'ls', 'list', 'view', 'search', 'tool_search',
]);

/** What the scheduler knows of one call. */
export interface ToolDependency {
  readonly toolName?: string;
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  readonly concurrentSafe?: boolean;
  readonly sideEffectScope?: SideEffectScope;
}

/** The six rules of spec §2, in order. */
export function canRunInParallel(tool: ToolDependency): boolean {
  const hasToolName = typeof tool.toolName === 'string' && tool.toolName.length > 0;
  const hasSafetyMetadata =
    tool.readOnly !== undefined ||
    tool.destructive !== undefined ||
    tool.concurrentSafe !== undefined ||
    tool.sideEffectScope !== undefined;
  if (!hasToolName && !hasSafetyMetadata) return true;
  if (tool.destructive) return false;
  if (tool.concurrentSafe === true) return true;
  if (tool.concurrentSafe === false) return false;
  const readOnly = tool.readOnly ?? (hasToolName ? KNOWN_READ_ONLY_TOOLS.has(tool.toolName!) : false);
  if (readOnly) return true;
  return tool.sideEffectScope === 'none';
}

/** One group of a schedule; `calls` keep the model's order. */
export interface ScheduleGroup<C extends ToolCall = ToolCall> {
  readonly index: number;
  readonly parallel: boolean;
  readonly calls: readonly C[];
}

/** The registry's view of a call, for `canRunInParallel`. */
export function dependencyOf(call: ToolCall, registry: ToolRegistry): ToolDependency {
  const entry = registry.get(call.name);
  if (!entry) return { toolName: call.name };
  const { def } = entry;
  const flags = flagsOf(def);
  return {
    toolName: call.name,
    readOnly: def.readOnly === undefined ? undefined : flags.readOnly,
    destructive: def.destructive,
    concurrentSafe: def.concurrentSafe,
    sideEffectScope: def.sideEffectScope,
  };
}

/**
 * Consecutive parallel calls collect into one group of at most `MAX_GROUP_SIZE`;
 * a serial call closes the open group and forms its own.
 */
export function scheduleCalls<C extends ToolCall>(calls: readonly C[], registry: ToolRegistry): ScheduleGroup<C>[] {
  const groups: ScheduleGroup<C>[] = [];
  let open: C[] = [];
  const flush = () => {
    if (open.length > 0) {
      groups.push({ index: groups.length, parallel: true, calls: open });
      open = [];
    }
  };
  for (const call of calls) {
    if (canRunInParallel(dependencyOf(call, registry))) {
      open.push(call);
      if (open.length === MAX_GROUP_SIZE) flush();
    } else {
      flush();
      groups.push({ index: groups.length, parallel: false, calls: [call] });
    }
  }
  flush();
  return groups;
}
