import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { watchFileChanges } from '../../../src/vscode/fileChangeWatch';

const POLL_MS = 20;

function nextChange(file: string): { changed: Promise<void>; dispose(): void } {
  let dispose = () => {};
  const changed = new Promise<void>((resolve) => {
    dispose = watchFileChanges(file, resolve, POLL_MS).dispose;
  });
  return { changed, dispose: () => dispose() };
}

describe('watchFileChanges', () => {
  // The watch is not persistent (it never keeps a process alive), so the test keeps this one alive.
  let keepAlive: NodeJS.Timeout;
  beforeEach(() => (keepAlive = setInterval(() => {}, 1000)));
  afterEach(() => clearInterval(keepAlive));

  it('sees a file appear in a folder that did not exist, change, and go', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ate-watch-'));
    const file = path.join(root, '.claude', 'settings.json');
    try {
      let watch = nextChange(file);
      fs.mkdirSync(path.dirname(file));
      fs.writeFileSync(file, '{}');
      await watch.changed;
      watch.dispose();
      watch = nextChange(file);
      fs.writeFileSync(file, '{"permissions":{}}');
      await watch.changed;
      watch.dispose();
      watch = nextChange(file);
      fs.rmSync(file);
      await watch.changed;
      watch.dispose();
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('stops calling after dispose', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ate-watch-'));
    const file = path.join(root, 'settings.json');
    let calls = 0;
    const watch = watchFileChanges(file, () => calls++, POLL_MS);
    watch.dispose();
    fs.writeFileSync(file, '{}');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 5));
    assert.equal(calls, 0);
    fs.rmSync(root, { recursive: true, force: true });
  });
});
