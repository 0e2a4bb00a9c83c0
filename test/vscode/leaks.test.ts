// Runs after the VS Code suites (scripts/test.sh): none of the servers, browsers, file watchers
// or extension hosts they started may still be running. Whatever is left is reported, then
// killed, so a leak fails the run without leaving the machine busy.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { findTagged, killTagged } from './harness/processes';

test('no VS Code server, browser or watcher process is left after the suites', async () => {
  const left = findTagged();
  await killTagged('');
  assert.deepEqual(left.map((p) => `${p.pid} ${p.command}`), []);
});
