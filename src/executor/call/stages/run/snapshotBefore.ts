// Stage 8 (spec §3.8, §5): the before-snapshot, for tools that are not read-only.
import type { CallState, ExecutorDeps } from '../../callState';
import { projectErrorMessage } from '../../../contract/errors';
import type { WorkspaceSnapshotter } from '../../../ports/workspace/workspaceSnapshotter';

/** Undefined at once for a read-only tool or without a snapshotter: the runner awaits only a snapshot taken. */
export function snapshotBefore(state: CallState, deps: ExecutorDeps): Promise<void> | undefined {
  const snapshotter = deps.snapshotter;
  if (!snapshotter || state.flags!.readOnly) return undefined;
  return begin(state, deps, snapshotter);
}

async function begin(state: CallState, deps: ExecutorDeps, snapshotter: WorkspaceSnapshotter): Promise<void> {
  try {
    state.snapshot = await snapshotter.begin(deps.workspaceFolders, state.signal);
  } catch (error) {
    state.signal.throwIfAborted();
    deps.logger.warn('tool.snapshot.failed', { tool: state.toolName, callId: state.call.id, phase: 'before', error: projectErrorMessage(error) });
  }
}
