// Fault catalogue, class 6: Errors misreported.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { errorClassOf, projectErrorMessage } from '../../../src/executor/contract/errors';
import { FIXTURES } from '../harness';
import { allow, call, cli, core, hostile, neighboursFine, result, withNeighbours } from '../define';

// ── 6. Errors misreported ───────────────────────────────────────────────────────────────────────────────
const crash = (id: string, tool: string, fault: string, expected: string, pattern: RegExp, kind = 'execution') =>
  cli(id, 6, fault, expected, { calls: withNeighbours(tool), extra: hostile, check: (run) => {
    neighboursFine(pattern)(run);
    assert.equal(result(run, 'bad').errorKind, kind);
  } });
crash('error-message-getter', 'throwingMessage', 'an error whose message getter throws', 'a crash (execution), not a user cancel', /^tool throwingMessage crashed: Error$/);
crash('error-proxy', 'throwingProxy', 'a thrown Proxy whose every trap throws', 'a crash with "could not be described"', /could not be described/);
crash('error-hostile-result', 'hostileResult', 'a result whose content getter throws', 'an execution error, "cannot be read"', /returned a result that cannot be read/);
crash('error-null', 'throwNull', 'a handler throws null', '"crashed: null"', /crashed: null/);
crash('error-string', 'throwString', 'a handler throws a string', 'the string is the reason', /crashed: just a string/);
crash('error-no-result', 'returnsNothing', 'a handler returns undefined', '"returned no result"', /returned no result/);
crash('error-number-result', 'returnsNumber', 'a handler returns 42', '"returned no result"', /returned no result/);
crash('error-content-object', 'contentNotText', 'content is an object', '"content is not text"', /content is not text/);
crash('error-cyclic-cause', 'cyclicError', 'an error whose cause is itself', 'one message, no loop', /crashed: Error/);
crash('error-deep-cause', 'deepCause', 'a 100-deep cause chain of wrappers', 'the first real message within 12 levels, or the wrapper', /crashed: wrapped error/);
crash('error-sync-block', 'syncBlock', 'a synchronous handler blocks past its deadline', 'a timeout, not a success', /timed out after 100ms/, 'timeout');
crash('error-reject-late', 'rejectLate', 'a handler rejects after its call timed out', 'a timeout; the late rejection is no crash', /timed out after 50ms/, 'timeout');
crash('error-ignores-abort', 'ignoresAbort', 'a handler never settles and ignores its signal', 'a timeout at its deadline', /timed out after 100ms/, 'timeout');
const nul = (id: string, fault: string, tool: string, input: unknown, field: string) =>
  cli(id, 6, fault, `invalid input naming ${field}, not a crash`, {
    calls: [call('n', tool, input)],
    extra: allow,
    check: (run) => {
      assert.equal(result(run, 'n').errorKind, 'invocation');
      assert.match(result(run, 'n').content, new RegExp(`field ${field} contains a NUL byte`));
    },
  });
nul('nul-read', 'a NUL byte in a Read path', 'Read', { file_path: 'a\u0000b' }, 'file_path');
nul('nul-write', 'a NUL byte in a Write path', 'Write', { file_path: 'x\u0000y', content: '1' }, 'file_path');
nul('nul-grep', 'a NUL byte in a Grep path', 'Grep', { pattern: 'x', path: 'a\u0000' }, 'path');
nul('nul-grep-pattern', 'a NUL byte in a Grep pattern', 'Grep', { pattern: 'x\u0000y' }, 'pattern');
nul('nul-bash', 'a NUL byte in a command', 'Bash', { command: 'echo a\u0000b' }, 'command');
nul('nul-glob', 'a NUL byte in a Glob pattern', 'Glob', { pattern: '*\u0000' }, 'pattern');
const badModule = (id: string, fault: string, file: string, pattern: RegExp) =>
  cli(id, 6, fault, 'exit 2 with a message, no stack trace', { calls: [], extra: ['--tools', file], exit: 2, check: (run) => assert.match(run.stderr, pattern) });
badModule('module-bad-schema', 'a --tools module with an invalid JSON Schema', path.join(FIXTURES, 'bad-schema-tools.mjs'), /tool "broken" cannot be registered/);
badModule('module-bad-name', 'a --tools module with an invalid tool name', path.join(FIXTURES, 'bad-name-tools.mjs'), /cannot be registered: invalid tool name/);
badModule('module-missing', 'a --tools module that does not exist', '{base}/nope.mjs', /cannot load --tools/);
badModule('module-not-array', 'a --tools module whose default export is not an array', path.join(FIXTURES, 'not-array-tools.mjs'), /default export must be an array/);
badModule('module-duplicate', 'a --tools module redefining a built-in tool', path.join(FIXTURES, 'duplicate-tools.mjs'), /already registered/);
core('errors-getter-class', 6, 'core: errorClassOf and projectErrorMessage on hostile values', 'never throw; a message for each', () => {
  const hostileValues: unknown[] = [
    new Proxy({}, { get: () => { throw new Error('x'); }, getPrototypeOf: () => { throw new Error('x'); } }),
    Object.create(null),
    Symbol('s'),
    (() => { const error = new Error('m'); Object.defineProperty(error, 'name', { get: () => { throw new Error('n'); } }); return error; })(),
  ];
  for (const value of hostileValues) {
    assert.equal(typeof projectErrorMessage(value), 'string');
    assert.equal(typeof errorClassOf(value), 'string');
  }
});
