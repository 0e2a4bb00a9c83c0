// Stage 8 (spec §3.8, §5): the before-snapshot, for tools that are not read-only.
import type { CallState, ExecutorDeps } from '../callState';
import { projectErrorMessage } from '../errors';

export async function snapshotBefore(state: CallState, deps: ExecutorDeps): Promise<void> {
  if (!deps.snapshotter || state.flags!.readOnly) return;
  try {
    state.snapshot = await deps.snapshotter.begin(deps.workspaceFolders, state.signal);
  } catch (error) {
    state.signal.throwIfAborted();
    deps.logger.warn('tool.snapshot.failed', { tool: state.toolName, callId: state.call.id, phase: 'before', error: projectErrorMessage(error) });
  }
}
