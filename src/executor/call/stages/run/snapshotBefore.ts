// Stage 8 (spec §3.8, §5): the turn's checkpoint and the before-snapshot, for tools that are not read-only.
import type { CallState, ExecutorDeps, RunState } from '../../callState';
import { projectErrorMessage } from '../../../contract/errors';
import type { TurnCheckpoint } from '../../../ports/workspace/turnCheckpoint';
import type { WorkspaceSnapshotter } from '../../../ports/workspace/workspaceSnapshotter';

/** Undefined at once for a read-only tool or without a snapshotter: the runner awaits only a snapshot taken. */
export function snapshotBefore(state: CallState, deps: ExecutorDeps, own: Pick<RunState, 'snapshot'>): Promise<void> | undefined {
  const snapshotter = deps.snapshotter;
  const checkpoint = state.options.checkpoint;
  if (state.flags!.readOnly || (!snapshotter && !checkpoint)) return undefined;
  return (checkpoint ? takeCheckpoint(state, deps, checkpoint) : Promise.resolve()).then(() => (snapshotter ? begin(state, deps, own, snapshotter) : undefined));
}

/** The turn's checkpoint comes before the call's snapshot; a call runs even when it failed (undo then says what it cannot restore). */
async function takeCheckpoint(state: CallState, deps: ExecutorDeps, checkpoint: TurnCheckpoint): Promise<void> {
  try {
    await checkpoint.beforeWrite(state.signal);
  } catch (error) {
    state.signal.throwIfAborted();
    deps.logger.warn('tool.checkpoint.failed', { tool: state.toolName, callId: state.call.id, error: projectErrorMessage(error) });
  }
}

async function begin(state: CallState, deps: ExecutorDeps, own: Pick<RunState, 'snapshot'>, snapshotter: WorkspaceSnapshotter): Promise<void> {
  try {
    own.snapshot = await snapshotter.begin(deps.workspaceFolders, state.signal);
  } catch (error) {
    state.signal.throwIfAborted();
    deps.logger.warn('tool.snapshot.failed', { tool: state.toolName, callId: state.call.id, phase: 'before', error: projectErrorMessage(error) });
  }
}
