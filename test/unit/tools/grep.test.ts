import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { GREP_MAX_CONTENT_LINES } from '../../../src/tools/search/grep';
import { findRipgrep, findVsCodeRipgrep } from '../../../src/tools/search/ripgrep';
import { makeWorkspace, type Workspace } from './helpers';
import { until } from './processes';

describe('Grep', () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = makeWorkspace();
    ws.write('src/a.ts', 'import x from "y";\nexport function alpha() {\n  return TODO;\n}\n');
    ws.write('src/b.py', 'def beta():\n    # todo: later\n    pass\n');
    ws.write('notes.md', 'nothing to see\n');
  });
  afterEach(() => ws.dispose());

  it('finds the system rg (installed by the project setup)', () => {
    assert.ok(findRipgrep(), 'ripgrep must be installed: apt-get install -y ripgrep');
  });

  it('lists files with matches by default, workspace-relative', async () => {
    const result = await ws.run('Grep', { pattern: 'TODO' });
    assert.equal(result.modelContent, 'src/a.ts');
  });

  it('shows matching lines with line numbers and context in content mode', async () => {
    const result = await ws.run('Grep', { pattern: 'return', output_mode: 'content', context: 1 });
    assert.equal(result.modelContent, 'src/a.ts-2-export function alpha() {\nsrc/a.ts:3:  return TODO;\nsrc/a.ts-4-}');
  });

  it('counts matches per file, case-insensitively', async () => {
    const result = await ws.run('Grep', { pattern: 'todo', output_mode: 'count', case_insensitive: true });
    assert.deepEqual(result.modelContent.split('\n').sort(), ['src/a.ts:1', 'src/b.py:1']);
  });

  it('filters by glob and by type', async () => {
    const byGlob = await ws.run('Grep', { pattern: 'e', glob: '*.md' });
    assert.equal(byGlob.modelContent, 'notes.md');
    const byType = await ws.run('Grep', { pattern: '(?i)todo', type: 'py' });
    assert.equal(byType.modelContent, 'src/b.py');
  });

  it('searches one folder or file given as path', async () => {
    const result = await ws.run('Grep', { pattern: 'def', path: 'src/b.py', output_mode: 'content' });
    assert.equal(result.modelContent, 'src/b.py:1:def beta():');
  });

  it('says when nothing matches', async () => {
    const result = await ws.run('Grep', { pattern: 'zebra' });
    assert.equal(result.isError, false);
    assert.match(result.modelContent, /^No matches for "zebra"/);
  });

  it('reports a bad regular expression as an error with ripgrep\'s message', async () => {
    const result = await ws.run('Grep', { pattern: '(unclosed' });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /ripgrep failed: .*regex parse error/s);
  });

  it('takes a pattern that starts with a dash as a pattern', async () => {
    ws.write('flags.txt', 'use --force here\n');
    const result = await ws.run('Grep', { pattern: '--force' });
    assert.equal(result.modelContent, 'flags.txt');
  });

  it(`caps content at ${GREP_MAX_CONTENT_LINES} lines and says so`, async () => {
    ws.write('big.txt', 'hit\n'.repeat(GREP_MAX_CONTENT_LINES * 3));
    const result = await ws.run('Grep', { pattern: 'hit', path: 'big.txt', output_mode: 'content' });
    const lines = result.modelContent.split('\n');
    assert.equal(lines.length, GREP_MAX_CONTENT_LINES + 1);
    assert.match(lines.at(-1)!, /Output capped at 500 lines; narrow the pattern/);
  });

  it('honours .gitignore', async () => {
    fs.mkdirSync(ws.file('.git'));
    ws.write('.gitignore', 'build/\n');
    ws.write('build/out.ts', 'TODO');
    const result = await ws.run('Grep', { pattern: 'TODO' });
    assert.equal(result.modelContent, 'src/a.ts');
  });

  it('gives a clear error when ripgrep does not exist', async () => {
    await ws.dispose();
    ws = makeWorkspace({ tools: { rgPath: '/nonexistent/rg' } });
    const result = await ws.run('Grep', { pattern: 'x' });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /Grep cannot run: the configured ripgrep \/nonexistent\/rg does not exist\. Install ripgrep \(Debian\/Ubuntu: apt-get install ripgrep/);
  });

  it('refuses a named pipe as its path instead of waiting on it', async () => {
    const fifo = ws.file('pipe.fifo');
    execFileSync('mkfifo', [fifo]);
    const result = await ws.run('Grep', { pattern: 'x', path: fifo });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /cannot search .*pipe\.fifo: it is not a regular file or folder/);
  });

  it('stops ripgrep when the call is cancelled while it runs', async () => {
    // A ripgrep that never ends: ripgrep itself no longer gets a path it could block on.
    const marker = `blocked-rg-${process.pid}-${Date.now()}`;
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'stalled-rg-'));
    const stalled = path.join(folder, 'rg');
    fs.writeFileSync(stalled, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} -e "setInterval(() => {}, 1000)" ${marker}\n`, { mode: 0o755 });
    await ws.dispose();
    ws = makeWorkspace({ tools: { rgPath: stalled } });
    const rgReading = () =>
      fs.readdirSync('/proc').some((pid) => {
        try {
          return /^\d+$/.test(pid) && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
        } catch {
          return false;
        }
      });
    const controller = new AbortController();
    const running = ws.run('Grep', { pattern: 'x' }, controller.signal);
    await until(rgReading);
    controller.abort();
    const result = await running;
    assert.equal(result.errorKind, 'cancelled');
    await until(() => !rgReading());
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('finds the rg VS Code ships under its appRoot', () => {
    const appRoot = ws.file('vscode-app');
    const rg = ws.write('vscode-app/node_modules/@vscode/ripgrep/bin/rg', '#!/bin/sh\n');
    fs.chmodSync(rg, 0o755);
    assert.equal(findVsCodeRipgrep(appRoot), rg);
    assert.equal(findVsCodeRipgrep(ws.file('nowhere')), undefined);
  });
});
