// Node adapters of the executor's result ports, for the CLI (and any Node host).
export { createNodeSnapshotter, NodeWorkspaceSnapshotter, type NodeSnapshotterOptions } from './snapshot/nodeSnapshotter';
export { FsWatchChangeFeed } from './snapshot/fsWatchFeed';
export { SNAPSHOT_MAX_DEPTH, SNAPSHOT_MAX_FILES, SNAPSHOT_SKIP_DIRS, SNAPSHOT_SKIP_SUFFIXES, walkWorkspace } from './snapshot/walk';
export { createNodeArtifactStore, NodeArtifactStore, type NodeArtifactStoreOptions } from './artifacts/nodeArtifactStore';
export { JsonlSessionRecorder, type JsonlSessionRecorderOptions } from './sessionRecord/jsonlSessionRecorder';
