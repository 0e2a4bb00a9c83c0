// The JSON a hook receives (Claude Code's shape), built from the resolved input.
import type { CallState, ExecutorDeps } from '../../callState';
import type { HookEventName, HookInput } from '../../../ports/hooks';

export function hookInput(state: CallState, deps: ExecutorDeps, event: HookEventName, extra: Partial<HookInput> = {}): HookInput {
  return {
    hook_event_name: event,
    tool_name: state.toolName,
    tool_input: state.input,
    tool_use_id: state.call.id,
    cwd: deps.workspaceFolders[0] ?? process.cwd(),
    session_id: deps.sessionId,
    ...(deps.permissionPolicy.mode === undefined ? {} : { permission_mode: deps.permissionPolicy.mode === 'bypass' ? 'bypassPermissions' : deps.permissionPolicy.mode }),
    ...extra,
  };
}
