// Port: what path resolution (src/executor/policy/path) asks the file system. The core follows `..` and
// symlinks itself and asks the host only for single system calls, so it does no I/O of its own; the
// Node adapter is src/node/runtime/fileSystemProbe.ts, installed by each composition root.

export interface FileSystemProbe {
  /** True when no mount can wait on a network or a daemon: `realpathSync` cannot hang the thread then. */
  noRemoteMounts(): boolean;
  /** realpath(3), synchronously; throws when a component is missing, dangling, a loop or not a directory. */
  realpathSync(absolute: string): string;
  /** realpath(3); rejects where `realpathSync` throws. */
  realpath(absolute: string): Promise<string>;
  /** The target of the symbolic link `absolute`, as written; undefined when it is no link or cannot be read. */
  readLink(absolute: string): Promise<string | undefined>;
  /** True when `absolute` exists; synchronous, as a model's relative path is read. */
  exists(absolute: string): boolean;
}

let installed: FileSystemProbe | undefined;

/** Sets the probe every path resolution of this process asks; each composition root calls it before any tool runs. */
export function installFileSystemProbe(probe: FileSystemProbe): void {
  installed = probe;
}

/** The installed probe. Throws when none is: a path judged without the file system would name the wrong file. */
export function fileSystemProbe(): FileSystemProbe {
  if (!installed) throw new Error('no file system probe: the composition root must call installFileSystemProbe before paths are resolved');
  return installed;
}
