// Whether this machine can run the real OS sandbox the tests use: Linux with bubblewrap and socat (scripts/setup.sh).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before } from 'node:test';
import { BashSandbox } from '../../../src/tools/sandbox/bashSandbox';

export const CAN_SANDBOX = process.platform === 'linux' && spawnSync('sh', ['-c', 'command -v bwrap && command -v socat'], { encoding: 'utf8' }).status === 0;

/** A sandbox with a home folder of its own for one suite: made before its tests, disposed after them. */
export function sandboxPerSuite(): { readonly sandbox: BashSandbox; readonly home: string } {
  const made = {} as { sandbox: BashSandbox; home: string };
  before(() => {
    made.home = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-home-'));
    made.sandbox = new BashSandbox({ home: made.home });
  });
  after(async () => {
    await made.sandbox.dispose();
    fs.rmSync(made.home, { recursive: true, force: true });
  });
  return made;
}
