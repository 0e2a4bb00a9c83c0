// The sandbox runtime's own process, as the host sees it (src/tools/sandbox/runtime/runtimeProcess.ts): answers
// to each request, a cancel that does not wait for the process, an end nobody asked for that fails every
// request with why (and says so once), a reset that stops it, and an idle process that keeps no host
// alive. A scripted stand-in speaks the runtime process's protocol; the real one runs in
// sandboxBash.test.ts and the CLI's sandbox tests.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isAlive } from '../../../src/tools/process/procfs';
import { SandboxRuntimeProcess } from '../../../src/tools/sandbox/runtime/runtimeProcess';
import { until } from './processes';

/** The stand-in: `wrap` of `slow` answers after 500 ms, of `die` ends the process (exit 3) after a line on stderr. */
const STAND_IN = `
const aborted = [];
process.on('message', (request) => {
  const answer = (message) => process.send(message);
  switch (request.op) {
    case 'abort': aborted.push(request.target); return;
    case 'wrap':
      if (request.command.command === 'die') { process.stderr.write('boom: the runtime failed\\n', () => process.exit(3)); return; }
      setTimeout(() => answer({ id: request.id, value: 'wrapped ' + request.command.command }), request.command.command === 'slow' ? 500 : 0);
      return;
    case 'violations': return answer({ id: request.id, value: aborted.map(String) });
    case 'checkDependencies': return answer({ id: request.id, error: 'bwrap is missing' });
    default: return answer({ id: request.id, value: true });
  }
});
process.on('disconnect', () => process.exit(0));
`;

/** A command to wrap, in this process's folder. */
const command = (text: string, key: string) => ({ command: text, shell: '/bin/sh', key, cwd: process.cwd() });

describe('the sandbox runtime process', () => {
  let dir: string;
  let script: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-process-'));
    script = path.join(dir, 'standIn.js');
    fs.writeFileSync(script, STAND_IN);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('answers each request, and an error as a rejection with its message', async () => {
    const runtime = new SandboxRuntimeProcess({ script });
    try {
      assert.equal(await runtime.isSupportedPlatform(), true);
      await assert.rejects(runtime.checkDependencies(), /bwrap is missing/);
      assert.equal(await runtime.wrap(command('echo hi', 'k1'), new AbortController().signal), 'wrapped echo hi');
    } finally {
      await runtime.reset();
    }
  });

  it('fails a cancelled wrap at once, tells the process, and drops its late answer', async () => {
    const runtime = new SandboxRuntimeProcess({ script });
    try {
      const controller = new AbortController();
      const slow = runtime.wrap(command('slow', 'k1'), controller.signal);
      const fast = runtime.wrap(command('fast', 'k2'), new AbortController().signal);
      controller.abort(new Error('stopped by the user'));
      await assert.rejects(slow, /stopped by the user/);
      assert.equal(await fast, 'wrapped fast');
      // The wrap was the first request (id 1); the process heard of its abort.
      assert.deepEqual(await runtime.violations('k1'), ['1']);
      // The slow answer comes later and settles nothing.
      await new Promise((resolve) => setTimeout(resolve, 600));
      assert.equal(await runtime.wrap(command('after', 'k3'), new AbortController().signal), 'wrapped after');
      await assert.rejects(runtime.wrap(command('x', 'k4'), AbortSignal.abort(new Error('already gone'))), /already gone/);
    } finally {
      await runtime.reset();
    }
  });

  it('an end nobody asked for fails every request with why, tells it once, and refuses what comes after', async () => {
    const told: string[] = [];
    const runtime = new SandboxRuntimeProcess({ script, onLost: (reason) => told.push(reason) });
    const pending = runtime.wrap(command('slow', 'k1'), new AbortController().signal);
    const died = runtime.wrap(command('die', 'k2'), new AbortController().signal);
    await assert.rejects(died, /the OS sandbox's process \(pid \d+\) ended \(exit code 3\): boom: the runtime failed/);
    await assert.rejects(pending, /ended \(exit code 3\)/);
    await assert.rejects(runtime.isSupportedPlatform(), /ended \(exit code 3\)/);
    assert.equal(told.length, 1);
    await runtime.reset();
    assert.equal(told.length, 1);
  });

  it('reset stops the process, and is not an end to tell', async () => {
    const told: string[] = [];
    const runtime = new SandboxRuntimeProcess({ script, onLost: (reason) => told.push(reason) });
    assert.equal(await runtime.isSupportedPlatform(), true);
    const pid = runtime.pid!;
    assert.ok(isAlive(pid));
    await runtime.reset();
    await until(() => !isAlive(pid));
    await assert.rejects(runtime.isSupportedPlatform(), /the OS sandbox was stopped/);
    assert.deepEqual(told, []);
  });

  it('an idle runtime process keeps no host alive, and ends with it', () => {
    const host = `
      const { SandboxRuntimeProcess } = require(${JSON.stringify(require.resolve('../../../src/tools/sandbox/runtime/runtimeProcess'))});
      const runtime = new SandboxRuntimeProcess({ script: ${JSON.stringify(script)} });
      runtime.wrap({ command: 'slow', shell: '/bin/sh', key: 'k', cwd: process.cwd() }, new AbortController().signal).then((line) => console.log(line + ' ' + runtime.pid));
    `;
    const run = spawnSync(process.execPath, ['-e', host], { encoding: 'utf8', timeout: 10_000 });
    assert.equal(run.status, 0, run.stderr);
    // It waited for the request under way, then ended on its own.
    const [, pid] = /^wrapped slow (\d+)\n$/.exec(run.stdout) ?? [];
    assert.ok(pid, run.stdout);
    return until(() => !isAlive(Number(pid)));
  });
});
