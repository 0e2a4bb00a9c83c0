import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { watchFileChanges } from '../../../src/vscode/workspace/fileChangeWatch';

const POLL_MS = 20;
/** Generous for a 20 ms poll on a loaded machine; a broken watch fails here instead of hanging. */
const WAIT_LIMIT_MS = 5000;

async function until(what: string, probe: () => boolean): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > WAIT_LIMIT_MS) assert.fail(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

describe('watchFileChanges', () => {
  it('sees a file appear in a folder that did not exist, change, and go', { timeout: WAIT_LIMIT_MS * 4 }, async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ate-watch-'));
    const file = path.join(root, '.claude', 'settings.json');
    let calls = 0;
    const watch = watchFileChanges(file, () => calls++, POLL_MS);
    try {
      // Let the first poll see the file missing.
      await new Promise((resolve) => setTimeout(resolve, POLL_MS * 5));
      fs.mkdirSync(path.dirname(file));
      fs.writeFileSync(file, '{}');
      await until('the file to appear', () => calls === 1);
      fs.writeFileSync(file, '{"permissions":{}}');
      await until('the change', () => calls === 2);
      fs.rmSync(file);
      await until('the file to go', () => calls === 3);
    } finally {
      watch.dispose();
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
