// Stage 1 (spec §3.1): unknown, disabled, or not offered this turn → refused; nothing of the tool runs.
import type { AdmissionRecord, ExecutorDeps, StageFailure } from '../../callState';
import type { ToolCall } from '../../../contract/contract';
import { flagsOf } from '../../../contract/flags';

/** Tool-search tools the model is pointed to when it calls a tool it was not offered. */
const TOOL_SEARCH_NAMES = ['tool_search', 'ToolSearch'];

export function lookup(call: ToolCall, deps: ExecutorDeps, offered: ReadonlySet<string> | undefined, own: Pick<AdmissionRecord, 'entry' | 'flags'>): StageFailure | undefined {
  const name = call.name;
  const entry = deps.registry.get(name);
  if (!entry) {
    return refuse(name ? `unknown tool: ${name}` : 'unknown tool: (no tool name given)', 'UnknownTool');
  }
  if (deps.registry.isDisabled(name)) {
    return refuse(`tool ${name} is disabled`, 'DisabledTool');
  }
  if (offered && !offered.has(name)) {
    return refuse(notOfferedMessage(name, offered), 'ToolNotOffered');
  }
  own.entry = entry;
  own.flags = flagsOf(entry.def);
  return undefined;
}

function notOfferedMessage(name: string, offered: ReadonlySet<string>): string {
  const search = TOOL_SEARCH_NAMES.find((candidate) => offered.has(candidate));
  const list = [...offered].sort().join(', ');
  const hint = search
    ? `Use ${search} to find the tool you need, or call one of the offered tools: ${list}.`
    : `Call one of the offered tools: ${list || '(none)'}.`;
  return `tool ${name} was not offered in this turn. ${hint}`;
}

function refuse(message: string, errorClass: string): StageFailure {
  return { kind: 'invocation', stage: 'lookup', message, errorClass };
}
