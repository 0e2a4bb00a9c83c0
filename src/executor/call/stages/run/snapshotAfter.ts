// Stage 10 (spec §3.10, §5): the after-snapshot; not cancellable, also after errors, timeouts and cancels.
import type { CallState, ExecutorDeps } from '../../callState';
import { projectErrorMessage } from '../../../contract/errors';
import type { SnapshotSession } from '../../../ports/workspace/workspaceSnapshotter';
import { gitWriteProtected } from '../../../policy/path/gitFiles';

function isGitFile(absolutePath: string): boolean {
  return gitWriteProtected(absolutePath.split(/[\\/]/).filter(Boolean).map((segment) => segment.toLowerCase())) !== undefined;
}

/** Undefined at once when no before-snapshot was taken: the runner awaits only a snapshot to finish. */
export function snapshotAfter(state: CallState, deps: ExecutorDeps): Promise<void> | undefined {
  const snapshot = state.snapshot;
  if (!snapshot) return undefined;
  state.snapshot = undefined;
  return finishSnapshot(state, deps, snapshot);
}

async function finishSnapshot(state: CallState, deps: ExecutorDeps, snapshot: SnapshotSession): Promise<void> {
  try {
    const changes = await snapshot.finish();
    // What an agent ignore file excludes is not listed: its names are the user's to keep away. Git's files
    // always are: an ignore file must not hide a change to what the host's git runs.
    const ignored = deps.ignored;
    state.changes = ignored ? changes.filter((change) => isGitFile(change.absolutePath) || !ignored.excludedBy(change.absolutePath)) : changes;
  } catch (error) {
    deps.logger.warn('tool.snapshot.failed', { tool: state.toolName, callId: state.call.id, phase: 'after', error: projectErrorMessage(error) });
    return;
  }
  // What the model is told changed becomes the read-before-write baseline (spec §5): the model caused
  // these writes (a heredoc through Bash is a write like any other), so it may edit them next.
  for (const change of state.changes) {
    if (change.kind === 'deleted') deps.files.forget(change.absolutePath);
    else if (change.mtimeAfterMs !== undefined && change.sizeAfter !== undefined) {
      deps.files.record(change.absolutePath, { mtimeMs: change.mtimeAfterMs, size: change.sizeAfter });
    }
  }
}
