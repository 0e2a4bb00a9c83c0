// Fault catalogue, class –: Malformed input.
import assert from 'node:assert/strict';
import { call, cli, hostile, result } from '../define';

// ── 0. Malformed input ────────────────────────────────────────────────────────────────────────────────
cli('calls-not-json', 0, 'CALLS file that is not JSON', 'exit 2, names the file and the parse error', { calls: '[{"id": ', exit: 2, check: (run) => assert.match(run.stderr, /is not valid JSON/) });
cli('calls-not-array', 0, 'CALLS is a JSON object, not an array', 'exit 2, "must be a JSON array"', { calls: { id: 'a' }, exit: 2, check: (run) => assert.match(run.stderr, /must be a JSON array/) });
cli('calls-missing-id', 0, 'a call without "id"', 'exit 2, names item 0 and the field', { calls: [{ name: 'ok' }], exit: 2, check: (run) => assert.match(run.stderr, /item 0: "id" must be a non-empty string/) });
cli('calls-duplicate-id', 0, 'two calls with the same id', 'exit 2, "duplicate id"', { calls: [call('a', 'ok'), call('a', 'ok')], exit: 2, extra: hostile, check: (run) => assert.match(run.stderr, /duplicate id "a"/) });
cli('calls-input-array', 0, 'input given as an array', 'exit 2, names the field', { calls: [{ id: 'a', name: 'ok', input: [1] }], exit: 2, check: (run) => assert.match(run.stderr, /"input" must be an object/) });
cli('calls-missing-file', 0, 'CALLS path that does not exist', 'exit 2, "no such file"', { extra: [], exit: 2, check: (run) => assert.match(run.stderr, /no such file/) });
cli('calls-empty', 0, 'an empty batch', 'exit 0, summary with 0 calls', { calls: [], check: (run) => assert.equal(run.summary!.calls, 0) });
cli('unknown-tool', 0, 'a call to a tool that does not exist', '"unknown tool: NAME", invocation error', {
  calls: [call('a', 'NoSuchTool')],
  check: (run) => assert.equal(result(run, 'a').content, 'unknown tool: NoSuchTool'),
});
cli('raw-input-broken-json', 0, "the model's raw argument string is broken JSON", '<tool_use_error> naming the tool; not repaired', {
  calls: [{ id: 'a', name: 'Read', input: '{"file_path": ' }],
  check: (run) => assert.match(result(run, 'a').content, /^<tool_use_error>tool Read: invalid input: arguments are not valid JSON/),
});
cli('schema-missing-field', 0, 'input without a required field', 'invocation error naming the field', {
  calls: [call('a', 'Read', {})],
  check: (run) => assert.match(result(run, 'a').content, /^<tool_use_error>tool Read: invalid input: missing required field/),
});
cli('stop-turn', 0, 'a result asks the turn to stop', 'later groups get the synthetic cancelled result', {
  calls: [call('a', 'stopTurn'), call('b', 'ok')],
  extra: hostile,
  check: (run) => assert.match(result(run, 'b').content, /previous tool result requested a turn stop/),
});
cli('many-calls', 0, '300 calls in one batch', '300 results in order', {
  calls: Array.from({ length: 300 }, (_, index) => call(`c${index}`, 'ok', { ms: 1 })),
  extra: hostile,
});
cli('stream-bad-line', 0, '--stream with a bad third line', 'the first two run and are reported, then exit 2 naming line 3', {
  stdin: `${JSON.stringify(call('a', 'ok', { ms: 1 }))}\n${JSON.stringify(call('b', 'ok', { ms: 1 }))}\n{nope\n`,
  extra: [...hostile, '--stream'],
  exit: 2,
  ids: ['a', 'b'],
  check: (run) => assert.match(run.stderr, /line 3 is not valid JSON/),
});
cli('bad-flag', 0, 'an unknown command-line option', 'exit 2 with the option named', { calls: [], extra: ['--frobnicate'], exit: 2, check: (run) => assert.match(run.stderr, /frobnicate/) });
