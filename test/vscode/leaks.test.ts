// Runs after the VS Code suites (scripts/test.sh): none of the servers, browsers, file
// watchers or extension hosts they started may still be running.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { findTagged } from './harness/processes';

test('no VS Code server, browser or watcher process is left after the suites', () => {
  const left = findTagged();
  assert.deepEqual(left.map((p) => `${p.pid} ${p.command}`), []);
});
