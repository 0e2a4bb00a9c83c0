// Fault catalogue, class 7: Unbounded sizes.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildFileDiffDisplay } from '../../../src/executor/results/displays/fileDiff';
import { allow, call, cli, core, hostile, result } from '../define';

// ── 7. Unbounded sizes ──────────────────────────────────────────────────────────────────────────────────
const BIG = 'a'.repeat(20 * 1024 * 1024);
cli('write-20mb-display', 7, 'a 20 MB single-line Write', 'file_diff within 8 hunks and 160 lines of capped length; the --json line stays small', {
  calls: [call('w', 'Write', { file_path: 'big.txt', content: BIG })],
  extra: allow,
  check: (run) => {
    const display = result(run, 'w').display as { diff: string; truncated: boolean };
    assert.ok(display.diff.length < 200_000, `diff is ${display.diff.length} chars`);
    assert.equal(display.truncated, true);
    assert.ok(run.stdout.length < 3 * 1024 * 1024, `stdout is ${run.stdout.length} chars`);
  },
});
cli('write-20mb-record', 7, 'the same write in the session record', 'the recorded input is cut with a note; the record stays small', {
  calls: [call('w', 'Write', { file_path: 'big.txt', content: BIG })],
  extra: allow,
  check: (run) => {
    const dir = path.join(run.artifacts, 'sessions');
    const size = fs.readdirSync(dir).reduce((sum, file) => sum + fs.statSync(path.join(dir, file)).size, 0);
    assert.ok(size < 4 * 1024 * 1024, `the session record is ${size} bytes`);
    assert.match(fs.readFileSync(path.join(dir, fs.readdirSync(dir)[0]!), 'utf8'), /not recorded: \d+ more chars/);
  },
});
cli('long-line-custom', 7, 'a custom tool returns one 600000-char line', 'saved as an artifact, with a preview of the line', {
  calls: [call('l', 'longLine', { ms: 600_000 })],
  extra: hostile,
  check: (run) => {
    const line = result(run, 'l');
    assert.ok(line.artifactPath && fs.statSync(line.artifactPath).size === 600_000);
    assert.match(line.content, /Preview[^\n]*\n+x{100}/);
  },
});
cli('long-line-small', 7, 'a custom tool returns one 30000-char line (under the spill size)', 'still saved whole, so nothing is lost', {
  calls: [call('l', 'longLine', { ms: 30_000 })],
  extra: hostile,
  check: (run) => assert.ok(result(run, 'l').artifactPath),
});
cli('huge-output', 7, 'a custom tool returns 5 MB', 'an artifact and a 2000-char preview', { calls: [call('h', 'hugeOutput')], extra: hostile, check: (run) => assert.ok(result(run, 'h').artifactPath && result(run, 'h').content.length < 12_000) });
cli('bash-huge-output', 7, 'a command prints 20 MB', 'streamed to an artifact; bash_output display within 150000 bytes', {
  calls: [call('c', 'Bash', { command: 'head -c 20000000 /dev/zero | tr "\\0" "y"' })],
  extra: allow,
  check: (run) => {
    const line = result(run, 'c');
    assert.ok(line.artifactPath);
    assert.ok(Buffer.byteLength(String((line.display as { output: string }).output)) <= 150_000);
  },
});
cli('ansi-from-command', 7, 'a command prints colours, an OSC title and a hyperlink', 'the model gets the text without escape sequences', {
  calls: [call('c', 'Bash', { command: "printf '\\033[31mred\\033[0m \\033]0;title\\007 \\033]8;;https://x\\033\\\\link\\033]8;;\\033\\\\ end\\n'" })],
  extra: allow,
  check: (run) => {
    assert.ok(!result(run, 'c').content.includes('\u001b'), JSON.stringify(result(run, 'c').content));
    assert.match(result(run, 'c').content, /red  link end/);
  },
});
cli('ansi-human', 7, 'escape sequences in a result shown in the human listing', 'shown escaped (\\x1b), never sent to the terminal', {
  calls: [call('a', 'ansiOutput')],
  extra: hostile,
  human: true,
  check: (run) => {
    assert.ok(!run.stdout.includes('\u001b'));
    assert.match(run.stdout, /\\x1b\[31mred/);
  },
});
cli('calls-bom', 7, 'a CALLS file with a UTF-8 byte-order mark', 'accepted, as settings files are', { calls: `\uFEFF${JSON.stringify([call('a', 'ok', { ms: 1 })])}`, extra: hostile, ids: ['a'] });
cli('stream-bom', 7, '--stream input starting with a byte-order mark', 'accepted', { stdin: `\uFEFF${JSON.stringify(call('a', 'ok', { ms: 1 }))}\n`, extra: [...hostile, '--stream'], ids: ['a'] });
cli('empty-output', 7, 'a custom tool returns empty content', '"(NAME completed with no output)"', { calls: [call('e', 'emptyOutput')], extra: hostile, check: (run) => assert.equal(result(run, 'e').content, '(emptyOutput completed with no output)') });
core('diff-line-cap', 7, 'core: a file_diff of a 1 MB minified line', 'each diff line cut to FILE_DIFF_MAX_LINE_CHARS with a marker', () => {
  const display = buildFileDiffDisplay('min.js', 'x'.repeat(1_000_000), 'y'.repeat(1_000_000));
  assert.ok(display.diff.length < 5_000);
  assert.match(display.diff, /more chars on this line/);
});
