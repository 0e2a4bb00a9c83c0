// Which paths can be touched without waiting on anything but this machine, from the mount table
// (/proc/self/mountinfo, Linux). A file system that answers over a network or through a user-space
// daemon (NFS, SMB, sshfs and any FUSE, 9p, virtiofs, autofs) can hold a call that touches it until
// the server or daemon answers, for good when it is gone; one on a local disk or in memory cannot. A
// synchronous call is only made where the table says the second: the policy's realpath when no mount
// is of the first kind (src/executor/policy/path/judgePath.ts), Read's small files on local disks
// (src/tools/file/read.ts). Listing the mounts waits on none of them (`mount` lists a hung NFS mount, where
// `df` hangs), so the table itself is read synchronously.
import { close, openSync, readSync } from 'node:fs';

/**
 * File systems on this machine's disks or in its memory (their `mountinfo` type), whose files are
 * read synchronously. Anything else, unknown types included, is not.
 */
export const LOCAL_FILE_SYSTEM_TYPES: ReadonlySet<string> = new Set([
  'ext2', 'ext3', 'ext4', 'xfs', 'btrfs', 'bcachefs', 'f2fs', 'jfs', 'reiserfs', 'nilfs2', 'zfs',
  'tmpfs', 'ramfs', 'overlay', 'squashfs', 'erofs', 'vfat', 'exfat', 'ntfs3', 'hfsplus',
]);
/**
 * The kernel's own file systems, answered from its memory: a path may go through them (`/proc`,
 * `/sys`, `/dev`) without waiting on anything, though their files are not read synchronously.
 */
export const KERNEL_FILE_SYSTEM_TYPES: ReadonlySet<string> = new Set([
  'proc', 'sysfs', 'devtmpfs', 'devpts', 'mqueue', 'cgroup', 'cgroup2', 'securityfs', 'debugfs', 'tracefs',
  'bpf', 'pstore', 'hugetlbfs', 'configfs', 'binfmt_misc', 'efivarfs', 'selinuxfs', 'nsfs', 'fusectl', 'rpc_pipefs',
]);
/** File systems that keep their files in memory only: nothing on them touches a disk. */
export const MEMORY_FILE_SYSTEM_TYPES: ReadonlySet<string> = new Set(['tmpfs', 'ramfs']);
/**
 * The table is read again when the last reading is older than this: a mount made since (an sshfs over
 * a folder) is seen at most this late; a reading is cheap but not free (docs/MEASUREMENTS.md, "Mount
 * table"), so calls in a burst read it twice a second at most.
 */
export const MOUNT_TABLE_MAX_AGE_MS = 500;
const MOUNTINFO = '/proc/self/mountinfo';
/** First buffer for the table; doubled until the table fits (a host with many containers has thousands of mounts). */
const MOUNTINFO_FIRST_BUFFER_BYTES = 64 * 1024;

/** One line of /proc/self/mountinfo: where it is mounted and its type. */
export interface MountEntry {
  readonly mountPoint: string;
  readonly type: string;
}

/** What the mount table says of paths, answered synchronously. */
export interface LocalFileSystems {
  /**
   * True only when the mount `real` is on is on a local disk or in memory (`LOCAL_FILE_SYSTEM_TYPES`), and
   * every mount above it is too or is the kernel's own. `real`: absolute, no symlink left in it.
   */
  isLocal(real: string): boolean;
  /** True only when no mount is of a type that can wait on a network or a daemon: any path resolves locally, symlinks and all. */
  noRemoteMounts(): boolean;
}

/**
 * The mount points and types of a mountinfo text (proc(5): `id parent major:minor root mountpoint
 * options [optional fields…] - type source super-options`, spaces and such in paths as octal escapes),
 * `text` decoded as latin1 (one char per byte).
 */
export function parseMountInfo(text: string): MountEntry[] {
  const entries: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    const separator = fields.indexOf('-', 6);
    if (fields.length < 7 || separator === -1 || separator + 1 >= fields.length) continue;
    entries.push({ mountPoint: decodeMountPoint(fields[4]!), type: fields[separator + 1]! });
  }
  return entries;
}

/**
 * True when the deepest mount `real` is under is local and every one above it local or the kernel's own
 * (a path goes through /dev to reach a tmpfs on /dev/shm without waiting on anything).
 */
export function onLocalMounts(entries: readonly MountEntry[], real: string): boolean {
  const deepest = deepestMount(entries, real);
  if (!deepest || !LOCAL_FILE_SYSTEM_TYPES.has(deepest.type)) return false;
  return entries.every((entry) => !isUnder(real, entry.mountPoint) || LOCAL_FILE_SYSTEM_TYPES.has(entry.type) || KERNEL_FILE_SYSTEM_TYPES.has(entry.type));
}

/** True when the deepest mount `real` lies under keeps its files in memory (`MEMORY_FILE_SYSTEM_TYPES`). */
export function onMemoryMount(entries: readonly MountEntry[], real: string): boolean {
  const deepest = deepestMount(entries, real);
  return deepest !== undefined && MEMORY_FILE_SYSTEM_TYPES.has(deepest.type);
}

/** The mount `real` is on: the deepest one it lies under, the last mounted of those at one place. */
function deepestMount(entries: readonly MountEntry[], real: string): MountEntry | undefined {
  let deepest: MountEntry | undefined;
  for (const entry of entries) {
    if (isUnder(real, entry.mountPoint) && (!deepest || entry.mountPoint.length >= deepest.mountPoint.length)) deepest = entry;
  }
  return deepest;
}

/** True when every mount is local or the kernel's own. */
export function noRemoteMount(entries: readonly MountEntry[]): boolean {
  return entries.length > 0 && entries.every((entry) => LOCAL_FILE_SYSTEM_TYPES.has(entry.type) || KERNEL_FILE_SYSTEM_TYPES.has(entry.type));
}

function isUnder(real: string, mountPoint: string): boolean {
  if (mountPoint === '/') return real.startsWith('/');
  return real === mountPoint || (real.startsWith(mountPoint) && real.charCodeAt(mountPoint.length) === 47 /* / */);
}

/**
 * A mount point as the kernel wrote it, decoded as paths are: the field holds the table's bytes one per
 * char (latin1), the octal escapes are bytes too, and the path is UTF-8 (realpath's strings are).
 */
function decodeMountPoint(field: string): string {
  const unescaped = field.includes('\\') ? field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))) : field;
  return Buffer.from(unescaped, 'latin1').toString('utf8');
}

interface Reading {
  readonly text: string;
  readonly entries: readonly MountEntry[];
  readonly noRemote: boolean;
}

/**
 * The process's mount table, read from a descriptor kept open when the last reading is older than
 * `MOUNT_TABLE_MAX_AGE_MS`. Where it cannot be read (off Linux), nothing is local.
 */
export class MountTable implements LocalFileSystems {
  private reading: Reading | undefined;
  /** `now()` of `reading`. */
  private readAt = Number.NEGATIVE_INFINITY;
  private unavailable = false;
  private fd: number | undefined;
  private buffer: Buffer | undefined;

  constructor(
    private readonly file = MOUNTINFO,
    private readonly now: () => number = () => performance.now(),
  ) {}

  isLocal(real: string): boolean {
    const reading = this.current();
    return reading !== undefined && onLocalMounts(reading.entries, real);
  }

  noRemoteMounts(): boolean {
    return this.current()?.noRemote ?? false;
  }

  /** True when `real` (absolute, no symlink left) is on a file system in memory; false where the table cannot be read. */
  inMemory(real: string): boolean {
    const reading = this.current();
    return reading !== undefined && onMemoryMount(reading.entries, real);
  }

  private current(): Reading | undefined {
    if (this.unavailable) return undefined;
    const now = this.now();
    if (now - this.readAt < MOUNT_TABLE_MAX_AGE_MS) return this.reading;
    try {
      const text = this.readText();
      if (text !== this.reading?.text) {
        const entries = parseMountInfo(text);
        this.reading = { text, entries, noRemote: noRemoteMount(entries) };
      }
      this.readAt = now;
      return this.reading;
    } catch {
      // No table (not Linux, no /proc): nothing is local, and it is not asked again.
      this.unavailable = true;
      this.reading = undefined;
      // Not waited for: close(2) frees the descriptor even when it reports an error.
      if (this.fd !== undefined) close(this.fd, () => {});
      this.fd = undefined;
      return undefined;
    }
  }

  private readText(): string {
    this.fd ??= openSync(this.file, 'r');
    for (;;) {
      const buffer = (this.buffer ??= Buffer.allocUnsafe(MOUNTINFO_FIRST_BUFFER_BYTES));
      // From the start each time: the kernel writes the table anew for a read at offset 0.
      const bytes = readSync(this.fd, buffer, 0, buffer.length, 0);
      if (bytes < buffer.length) return buffer.toString('latin1', 0, bytes);
      this.buffer = Buffer.allocUnsafe(buffer.length * 2);
    }
  }
}

/** The table every call of this process asks. */
export const processMountTable = new MountTable();
