// The runtime process's working directory (src/tools/sandbox/runtime/runtime.ts `WorkingFolder`): the library reads
// it for each wrap, so wraps in one folder run side by side and one in another folder waits for them.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WorkingFolder } from '../../../src/tools/sandbox/runtime/runtime';

describe("the sandbox runtime's working folder", () => {
  const started = process.cwd();
  let a: string;
  let b: string;
  before(() => {
    a = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'folder-a-')));
    b = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'folder-b-')));
  });
  after(() => {
    process.chdir(started);
    fs.rmSync(a, { recursive: true, force: true });
    fs.rmSync(b, { recursive: true, force: true });
  });

  /** A wrap that notes the folder it saw at its start and its end, and ends when `release` is called. */
  const held = () => {
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const seen: string[] = [];
    const run = async () => {
      seen.push(process.cwd());
      await done;
      seen.push(process.cwd());
      return seen;
    };
    return { run, release, seen };
  };

  it('runs wraps of one folder side by side, and one of another folder after them, each in its own', async () => {
    const folder = new WorkingFolder();
    const [first, second, third] = [held(), held(), held()];
    const signal = new AbortController().signal;
    const running = [folder.inside(a, signal, first.run), folder.inside(a, signal, second.run), folder.inside(b, signal, third.run)];
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual([first.seen, second.seen, third.seen], [[a], [a], []], 'both wraps in a started; the one in b waits');
    first.release();
    await running[0];
    assert.deepEqual(third.seen, [], 'still waiting: a wrap in a runs');
    second.release();
    await running[1];
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(third.seen, [b]);
    third.release();
    assert.deepEqual(await Promise.all(running), [[a, a], [a, a], [b, b]]);
  });

  it('a wrap cancelled while it waits does not run; one whose folder is gone fails', async () => {
    const folder = new WorkingFolder();
    const first = held();
    const controller = new AbortController();
    const running = folder.inside(a, new AbortController().signal, first.run);
    const waiting = folder.inside(b, controller.signal, async () => 'ran');
    controller.abort(new Error('the call was cancelled'));
    await assert.rejects(waiting, /the call was cancelled/, 'at once, while the wrap in a still runs');
    first.release();
    await running;
    await assert.rejects(folder.inside(path.join(a, 'gone'), new AbortController().signal, async () => 'ran'), /ENOENT/);
  });
});
