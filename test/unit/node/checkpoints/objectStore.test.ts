// Objects in packs: a batch is one file, read back by a store opened later, pruned without losing
// what the pack still holds, and a damaged pack is ignored rather than trusted.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { ObjectStore } from '../../../../src/node/checkpoints/objectStore';

const roots: string[] = [];
after(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

function fresh(): { root: string; store: ObjectStore } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ckpt-objects-'));
  roots.push(root);
  return { root, store: new ObjectStore(path.join(root, 'objects')) };
}

/** Every file under the folder, with its size. */
function filesUnder(dir: string): Map<string, number> {
  const files = new Map<string, number>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) files.set(path.relative(dir, path.join(entry.parentPath, entry.name)), fs.statSync(path.join(entry.parentPath, entry.name)).size);
  }
  return files;
}

describe('the object store with packs', () => {
  it('writes a batch as one pack, read back by a store opened later', () => {
    const { root, store } = fresh();
    const batch = store.batch();
    const names = ['one', 'two', 'three', 'one'].map((text) => store.put(Buffer.from(text), batch));
    assert.equal(names[0], names[3], 'the same bytes are one object');
    assert.deepEqual(filesUnder(path.join(root)).size, 0, 'nothing written before the flush');
    store.flush(batch);
    const files = [...filesUnder(path.join(root, 'objects')).keys()];
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^pack\/.+\.pack$/);
    const reopened = new ObjectStore(path.join(root, 'objects'));
    assert.deepEqual(names.map((name) => reopened.get(name).toString()), ['one', 'two', 'three', 'one']);
    assert.deepEqual([...reopened.names()].sort(), [...new Set(names)].sort());
    assert.equal(reopened.size(), fs.statSync(path.join(root, 'objects', files[0]!)).size);
    // A put of bytes a pack holds writes nothing more.
    reopened.put(Buffer.from('two'));
    assert.equal(filesUnder(path.join(root, 'objects')).size, 1);
  });

  it('removing some of a pack keeps the rest readable, and counts what it freed', () => {
    const { root, store } = fresh();
    const batch = store.batch();
    const keep = store.put(Buffer.from('kept '.repeat(100)), batch);
    const drop = store.put(Buffer.from('dropped '.repeat(1000)), batch);
    const alsoDrop = store.put(Buffer.from('dropped too'), batch);
    store.flush(batch);
    const loose = store.put(Buffer.from('a file of its own'));
    const before = store.size();
    const freed = store.removeAll([drop, alsoDrop, loose]);
    assert.equal(store.size(), before - freed);
    assert.equal(freed > 0, true);
    const reopened = new ObjectStore(path.join(root, 'objects'));
    assert.equal(reopened.get(keep).toString(), 'kept '.repeat(100));
    assert.deepEqual([...reopened.names()], [keep]);
    assert.throws(() => reopened.get(drop), /ENOENT/);
    assert.equal(reopened.size(), store.size(), 'the kept count matches the disk');
    assert.equal(store.removeAll([keep]) > 0, true);
    assert.deepEqual([...filesUnder(path.join(root, 'objects')).keys()], [], 'an emptied pack is removed');
  });

  it('a store that did not write a pack finds it when asked for one of its objects', () => {
    const { root, store } = fresh();
    const reader = new ObjectStore(path.join(root, 'objects'));
    assert.equal(reader.has(store.put(Buffer.from('before'))), true);
    const batch = store.batch();
    const name = store.put(Buffer.from('packed by the other store'), batch);
    store.flush(batch);
    assert.equal(reader.get(name).toString(), 'packed by the other store');
  });

  it('a pack whose index is damaged is ignored, and a damaged object is not returned', () => {
    const { root, store } = fresh();
    const batch = store.batch();
    const name = store.put(Buffer.from('x'.repeat(64)), batch);
    store.flush(batch);
    const [pack] = [...filesUnder(path.join(root, 'objects')).keys()];
    const file = path.join(root, 'objects', pack!);
    const bytes = fs.readFileSync(file);
    // The last byte is the object's: flipped, the bytes no longer match their name.
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    fs.writeFileSync(file, bytes);
    assert.throws(() => new ObjectStore(path.join(root, 'objects')).get(name), /damaged|invalid|unexpected|incorrect/i);
    fs.writeFileSync(file, Buffer.concat([Buffer.from([0, 0, 0, 5]), Buffer.from('[[1]]')]));
    const reopened = new ObjectStore(path.join(root, 'objects'));
    assert.deepEqual([...reopened.names()], []);
    assert.equal(reopened.has(name), false);
  });
});
