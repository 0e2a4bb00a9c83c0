// Port: the before/after workspace snapshot around a non-read-only call (spec §5).
import type { WorkspaceChange } from '../../contract/result';

export interface SnapshotSession {
  /** Takes the after-snapshot (not cancellable) and returns what changed since `begin`. */
  finish(): Promise<readonly WorkspaceChange[]>;
}

export interface WorkspaceSnapshotter {
  begin(folders: readonly string[], signal: AbortSignal): Promise<SnapshotSession>;
}
