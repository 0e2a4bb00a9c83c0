// The sandbox runtime bundle's `whichSync` (src/tools/sandbox/runtime/which.ts) against the system's `which`, over
// names, paths, PATH spellings and files that are not executable programs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { whichSync } from '../../../src/tools/sandbox/runtime/which';

/** The system's `which`, found with this process's PATH (the comparisons run it with others). */
const WHICH = spawnSync('sh', ['-c', 'command -v which'], { encoding: 'utf8' }).stdout.trim();

describe('whichSync for the sandbox runtime', { skip: WHICH ? false : 'needs a `which` to compare with' }, () => {
  let dir: string;
  const savedPath = process.env.PATH;
  const savedCwd = process.cwd();
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'which-'));
    for (const folder of ['a', 'b', 'c']) fs.mkdirSync(path.join(dir, folder));
    fs.writeFileSync(path.join(dir, 'a', 'tool'), '', { mode: 0o644 });
    fs.writeFileSync(path.join(dir, 'b', 'tool'), '#!/bin/sh\n', { mode: 0o755 });
    fs.mkdirSync(path.join(dir, 'a', 'folder'), { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'c', 'folder'), '#!/bin/sh\n', { mode: 0o700 });
    fs.symlinkSync(path.join(dir, 'b', 'tool'), path.join(dir, 'c', 'link'));
    fs.writeFileSync(path.join(dir, 'here'), '#!/bin/sh\n', { mode: 0o755 });
  });
  after(() => {
    process.env.PATH = savedPath;
    process.chdir(savedCwd);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** What `which` prints for `bin` with this PATH, in `dir`, or null when it finds nothing. */
  const system = (bin: string): string | null => {
    const run = spawnSync(WHICH, [bin], { cwd: dir, env: { PATH: process.env.PATH }, encoding: 'utf8' });
    return run.status === 0 ? run.stdout.trim() : null;
  };

  it('finds what `which` finds, spelled as it spells it', () => {
    const paths = [
      savedPath ?? '',
      `${dir}/a:${dir}/b:${dir}/c`,
      `${dir}/c:${dir}/a/:${dir}/b`,
      `${dir}/a:${dir}/b//`,
      `:${dir}/a`,
      `${dir}/a::${dir}/c`,
      `${dir}/a:`,
      '',
    ];
    const names = ['sh', 'bash', 'tool', 'folder', 'link', 'here', 'no-such-program-x', '/bin/sh', `${dir}/a/tool`, `${dir}/b/tool`, `${dir}/a/folder`, './here', 'a/tool', 'b/tool', ''];
    process.chdir(dir);
    for (const entry of paths) {
      process.env.PATH = entry;
      for (const name of names) assert.equal(whichSync(name), system(name), `which ${JSON.stringify(name)} with PATH=${JSON.stringify(entry)}`);
    }
  });
});
