// Port: file-system change events collected while a call runs, so workspace snapshots have no
// blind spot past the walk's depth and file limits. A watcher library in the CLI,
// VS Code's file watcher in the host.

export interface FileChangeEvent {
  readonly kind: 'created' | 'modified' | 'deleted';
  /** Absolute path. */
  readonly path: string;
  readonly directory: boolean;
}

export interface FileChangeFeed {
  /** Starts watching (once; later calls resolve at once). Rejects when `signal` aborts. */
  start(folders: readonly string[], signal: AbortSignal): Promise<void>;
  /** Subscribes; returns the unsubscribe function. */
  onChange(listener: (event: FileChangeEvent) => void): () => void;
  /**
   * Resolves once events for changes made before the call were delivered (the watcher went quiet).
   * `since` (a `Date.now()` time): the watcher may answer at once when it saw no change since then.
   */
  settle(since?: number): Promise<void>;
  /**
   * A reading that changes whenever the watcher learns of a change it was not already waiting for
   * (a raw change from the kernel, an event that answers none). Equal readings, with the kernel's
   * pending notifications delivered before the second one, mean the watched folders did not change
   * in between. Undefined once the watcher may have missed changes (an error), or when it cannot tell.
   */
  changeMark?(): number | undefined;
  /**
   * Subscribes to the folders whose listing may have changed (a name in them appeared, went or was
   * renamed), as soon as the kernel reports it, before the watcher's own event (undefined: any
   * folder may have); returns the unsubscribe function. A walk may reuse what it read of a folder
   * until then, while `changeMark` is defined (after a watcher error it is not, and this may be silent).
   */
  onFolderChange?(listener: (folder: string | undefined) => void): () => void;
  dispose(): Promise<void>;
}
