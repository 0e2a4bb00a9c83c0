import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';

// In a child process: the test runner treats an uncaught exception in its own process as a failure.
const CONTAINMENT = path.resolve(__dirname, '..', '..', '..', 'src', 'cli', 'toolModules', 'containment.js');
const SCRIPT = `
const { ToolContainment, ToolExitError } = require(${JSON.stringify(CONTAINMENT)});
const warnings = [];
const containment = new ToolContainment((message) => warnings.push(message), (error) => { console.error('internal', error); containment.exit(9); });
containment.install();
const ctx = (callId) => ({ callId, signal: new AbortController().signal });
const def = (name, handler) => ({ name, description: '', inputSchema: {}, handler });
const timer = containment.wrap(def('timer', () => new Promise(() => setTimeout(() => { throw new Error('late boom'); }, 5))), 'm');
const rejects = containment.wrap(def('rejects', async () => { Promise.reject(new Error('nobody')); await new Promise((r) => setTimeout(r, 50)); return { content: 'no' }; }), 'm');
const exits = containment.wrap(def('exits', () => { process.exit(7); }), 'm');
const fine = containment.wrap(def('fine', () => new Promise((resolve) => setTimeout(() => resolve({ content: 'fine' }), 20))), 'm');
Promise.allSettled([timer.handler({}, ctx('a')), rejects.handler({}, ctx('b')), exits.handler({}, ctx('c')), fine.handler({}, ctx('d'))]).then((outcomes) => {
  const out = outcomes.map((o) => o.status === 'fulfilled' ? o.value.content : (o.reason instanceof ToolExitError ? 'exit ' + o.reason.code : o.reason.message));
  console.log(JSON.stringify({ out, faults: containment.report.faults, warnings }));
  setTimeout(() => { containment.uninstall(); process.exit(0); }, 10);
});
`;

describe('ToolContainment', () => {
  it('attributes a timer throw, an unhandled rejection and process.exit to their own calls, and leaves the others be', () => {
    const run = spawnSync(process.execPath, ['-e', SCRIPT], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const { out, faults, warnings } = JSON.parse(run.stdout) as { out: string[]; faults: number; warnings: string[] };
    assert.match(out[0]!, /uncaught exception outside its handler .*late boom/);
    assert.match(out[1]!, /unhandled promise rejection: Error: nobody/);
    assert.equal(out[2], 'exit 7');
    assert.equal(out[3], 'fine');
    assert.equal(faults, 3);
    assert.deepEqual(warnings, []);
  });
});

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const CLI = path.join(ROOT, 'out', 'src', 'cli', 'main.js');
const HOSTILE_TOOLS = path.join(ROOT, 'test', 'faults', 'fixtures', 'hostile-tools.mjs');

describe('tool-exec run with a module whose code throws after its handler returned', () => {
  it('keeps every result of the batch and logs which call queued the fault', () => {
    const calls = [
      { id: 'slow', name: 'ok', input: { ms: 150 } },
      { id: 'micro', name: 'microtaskAfterReturn', input: {} },
      { id: 'timer', name: 'timerAfterReturn', input: {} },
      { id: 'reject', name: 'rejectAfterReturn', input: {} },
      { id: 'tick', name: 'tickAfterReturn', input: {} },
      { id: 'immediate', name: 'immediateAfterReturn', input: {} },
      { id: 'last', name: 'ok', input: { ms: 50 } },
    ];
    const run = spawnSync(process.execPath, [CLI, 'run', '--tools', HOSTILE_TOOLS, '--json', '-'], { input: JSON.stringify(calls), encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id?: string; isError?: boolean; content?: string });
    assert.deepEqual(
      lines.slice(0, -1).map((line) => [line.id, line.isError, line.content]),
      [
        ['slow', false, 'ok slow'],
        ['micro', false, 'returned before the microtask'],
        ['timer', false, 'returned before the timer'],
        ['reject', false, 'returned before the rejection'],
        ['tick', false, 'returned before the tick'],
        ['immediate', false, 'returned before the immediate'],
        ['last', false, 'ok last'],
      ],
    );
    assert.match(run.stderr, /tool microtaskAfterReturn \(call micro, [^)]*hostile-tools\.mjs\), after its call ended, caused an uncaught exception .*boom in a microtask/);
    assert.match(run.stderr, /tool timerAfterReturn \(call timer, [^)]*\), after its call ended, caused an uncaught exception .*boom in a timer after return/);
    assert.match(run.stderr, /tool rejectAfterReturn \(call reject, [^)]*\), after its call ended, caused an unhandled promise rejection: Error: rejected after return/);
    assert.match(run.stderr, /tool tickAfterReturn \(call tick, [^)]*\), after its call ended, caused an uncaught exception .*boom in a tick/);
    assert.match(run.stderr, /tool immediateAfterReturn \(call immediate, [^)]*\), after its call ended, caused an uncaught exception .*boom in an immediate/);
    assert.doesNotMatch(run.stderr, /internal error/);
  });
});
