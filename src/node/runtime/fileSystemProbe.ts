// The core's file system port (src/executor/ports/fileSystemProbe.ts) on Node: realpath(3) through
// `fs.realpath.native`, and synchronously only where the mount table says nothing can wait on a network
// or a daemon (./localMounts.ts).
import { existsSync, realpath as realpathCallback, realpathSync } from 'node:fs';
import { lstat, readlink } from 'node:fs/promises';
import type { FileSystemProbe } from '../../executor';
import type { LocalFileSystems } from './localMounts';

/** The probe of this process, asking `mounts` (the process's mount table) whether a synchronous realpath is safe. */
export function nodeFileSystemProbe(mounts: Pick<LocalFileSystems, 'noRemoteMounts'>): FileSystemProbe {
  return {
    noRemoteMounts: () => mounts.noRemoteMounts(),
    // `realpath.native`: the JS `realpath` walks with an lstat per component.
    realpathSync: (absolute) => realpathSync.native(absolute),
    // The callback API costs less per call than the promise API's, and this is on every path a call names.
    realpath: (absolute) => new Promise((resolve, reject) => realpathCallback.native(absolute, (error, resolved) => (error ? reject(error) : resolve(resolved)))),
    readLink: async (absolute) => {
      try {
        const stat = await lstat(absolute);
        return stat.isSymbolicLink() ? await readlink(absolute) : undefined;
      } catch {
        return undefined;
      }
    },
    exists: (absolute) => existsSync(absolute),
  };
}
