import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { MOUNT_TABLE_MAX_AGE_MS, MountTable, noRemoteMount, onLocalMounts, onMemoryMount, parseMountInfo, processMountTable } from '../../../src/node/runtime/localMounts';

/** A mountinfo line as proc(5) lays it out, with `optional` fields before the separator. */
const line = (id: number, mountPoint: string, type: string, optional = '') =>
  `${id} 1 0:${id} / ${mountPoint} rw,relatime ${optional ? `${optional} ` : ''}- ${type} source rw`;

const TABLE = [
  line(22, '/proc', 'proc'),
  line(27, '/', 'ext4', 'shared:1'),
  line(30, '/home/me/nfs', 'nfs4', 'shared:7 master:2'),
  line(31, '/home/me/nfs/scratch', 'tmpfs'),
  line(32, '/mnt/with\\040space', 'fuse.sshfs'),
  line(33, '/mnt/donn\u00c3\u00a9es', 'cifs'),
  'garbage without fields',
  '',
].join('\n');

describe('the mount table', () => {
  const roots: string[] = [];
  after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it('reads mount points and types, optional fields, octal escapes and UTF-8 paths included, and skips what is not a mount line', () => {
    assert.deepEqual(parseMountInfo(TABLE), [
      { mountPoint: '/proc', type: 'proc' },
      { mountPoint: '/', type: 'ext4' },
      { mountPoint: '/home/me/nfs', type: 'nfs4' },
      { mountPoint: '/home/me/nfs/scratch', type: 'tmpfs' },
      { mountPoint: '/mnt/with space', type: 'fuse.sshfs' },
      { mountPoint: '/mnt/données', type: 'cifs' },
    ]);
  });

  it('calls a path local only when the mount it is on is on a disk or in memory, and every one above it too or the kernel\'s own', () => {
    const entries = parseMountInfo(TABLE);
    assert.equal(onLocalMounts(entries, '/home/me/project/a.ts'), true);
    assert.equal(onLocalMounts(entries, '/home/me/nfs'), false);
    assert.equal(onLocalMounts(entries, '/home/me/nfs/a.ts'), false);
    // A local mount below a remote one is reached through it.
    assert.equal(onLocalMounts(entries, '/home/me/nfs/scratch/a.ts'), false);
    // A prefix that is not a whole component is another folder.
    assert.equal(onLocalMounts(entries, '/home/me/nfs2/a.ts'), true);
    assert.equal(onLocalMounts(entries, '/mnt/with space/a'), false);
    assert.equal(onLocalMounts(entries, '/mnt/données/a'), false);
    // The kernel's own file systems are no disk: their files are read the asynchronous way.
    assert.equal(onLocalMounts(entries, '/proc/self/status'), false);
    // A path may go through one to a local mount below it (a tmpfs on /dev/shm, under devtmpfs /dev).
    const dev = [...entries, { mountPoint: '/dev', type: 'devtmpfs' }, { mountPoint: '/dev/shm', type: 'tmpfs' }];
    assert.equal(onLocalMounts(dev, '/dev/shm/a'), true);
    assert.equal(onLocalMounts(dev, '/dev/null'), false);
    // The last mounted at one place is the one a path is on; one it covers is still passed through.
    assert.equal(onLocalMounts([...entries, { mountPoint: '/home/me/nfs', type: 'tmpfs' }], '/home/me/nfs/a.ts'), false);
    assert.equal(onLocalMounts([...dev, { mountPoint: '/dev/shm', type: 'nfs4' }], '/dev/shm/a'), false);
    assert.equal(onLocalMounts([], '/a'), false);
  });

  it('says no mount can wait on a network or a daemon only when every one is local or the kernel own, autofs not', () => {
    assert.equal(noRemoteMount(parseMountInfo([line(22, '/proc', 'proc'), line(27, '/', 'ext4'), line(28, '/dev/shm', 'tmpfs')].join('\n'))), true);
    assert.equal(noRemoteMount(parseMountInfo(TABLE)), false);
    assert.equal(noRemoteMount(parseMountInfo([line(27, '/', 'ext4'), line(29, '/proc/sys/fs/binfmt_misc', 'autofs')].join('\n'))), false);
    assert.equal(noRemoteMount(parseMountInfo([line(27, '/', 'ext4'), line(29, '/run/user/1000/gvfs', 'fuse.gvfsd-fuse')].join('\n'))), false);
    assert.equal(noRemoteMount([]), false);
  });

  it('calls a path in memory by the deepest mount it lies under, the last one mounted there winning', () => {
    const entries = parseMountInfo([TABLE, line(40, '/dev/shm', 'tmpfs'), line(41, '/run/stacked', 'tmpfs'), line(42, '/run/stacked', 'ext4')].join('\n'));
    assert.equal(onMemoryMount(entries, '/home/me/nfs/scratch/fifo'), true);
    assert.equal(onMemoryMount(entries, '/home/me/nfs/scratch'), true);
    assert.equal(onMemoryMount(entries, '/dev/shm/tool-exec-pipes-1-a'), true);
    assert.equal(onMemoryMount(entries, '/dev/shmother'), false);
    assert.equal(onMemoryMount(entries, '/home/me/nfs/a'), false);
    assert.equal(onMemoryMount(entries, '/tmp'), false);
    assert.equal(onMemoryMount(entries, '/run/stacked/a'), false);
    assert.equal(onMemoryMount([], '/dev/shm'), false);
  });

  it('is read again once its reading is older than its limit, and a table that cannot be read makes nothing local', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'mounts-'));
    roots.push(root);
    const file = path.join(root, 'mountinfo');
    writeFileSync(file, [line(27, '/', 'ext4')].join('\n'));
    let now = 1_000;
    const table = new MountTable(file, () => now);
    assert.equal(table.isLocal('/work/a.ts'), true);
    assert.equal(table.noRemoteMounts(), true);
    // An sshfs mounted over the folder: unseen until the reading is old enough, then seen.
    writeFileSync(file, [line(27, '/', 'ext4'), line(40, '/work', 'fuse.sshfs')].join('\n'));
    now += MOUNT_TABLE_MAX_AGE_MS - 1;
    assert.equal(table.isLocal('/work/a.ts'), true);
    now += 1;
    assert.equal(table.isLocal('/work/a.ts'), false);
    assert.equal(table.noRemoteMounts(), false);
    assert.equal(table.isLocal('/elsewhere/a.ts'), true);

    const missing = new MountTable(path.join(root, 'none'), () => now);
    assert.equal(missing.isLocal('/work/a.ts'), false);
    assert.equal(missing.noRemoteMounts(), false);
    assert.equal(missing.inMemory('/dev/shm'), false);
  });

  it('reads a table larger than its first buffer whole', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'mounts-'));
    roots.push(root);
    const file = path.join(root, 'mountinfo');
    const many = Array.from({ length: 3_000 }, (_, index) => line(100 + index, `/var/lib/containers/${'x'.repeat(20)}/${index}`, 'overlay'));
    writeFileSync(file, [line(27, '/', 'ext4'), ...many, line(9_999, '/last', 'nfs')].join('\n'));
    const table = new MountTable(file);
    assert.equal(table.isLocal('/var/lib/containers/a'), true);
    assert.equal(table.isLocal('/last/a'), false, 'the last line was read');
  });

  it("is this process's own table on Linux", { skip: process.platform !== 'linux' && 'mountinfo is Linux only' }, () => {
    const entries = parseMountInfo(readFileSync('/proc/self/mountinfo', 'latin1'));
    for (const real of [realpathSync(os.tmpdir()), realpathSync(process.cwd()), '/proc/self/status']) {
      assert.equal(processMountTable().isLocal(real), onLocalMounts(entries, real), real);
    }
    assert.equal(processMountTable().noRemoteMounts(), noRemoteMount(entries));
    assert.equal(processMountTable().isLocal('/proc/self/status'), false);
    assert.equal(processMountTable().inMemory(realpathSync(os.tmpdir())), onMemoryMount(entries, realpathSync(os.tmpdir())));
  });
});
