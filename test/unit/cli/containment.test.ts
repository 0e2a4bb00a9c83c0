import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';

// In a child process: the test runner treats an uncaught exception in its own process as a failure.
const CONTAINMENT = path.resolve(__dirname, '..', '..', '..', 'src', 'cli', 'containment.js');
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
