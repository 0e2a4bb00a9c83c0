// Fault catalogue, class 3: A custom tool takes the batch down.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { FIXTURES } from '../harness';
import { call, cli, hostile, neighboursFine, result, withNeighbours, type Run } from '../define';

// ── 3. A custom tool takes the batch down ───────────────────────────────────────────────────────────────
cli('tool-timer-throw', 3, 'a handler throws in a timer', 'that call: "crashed: an uncaught exception…"; the others keep their results', { calls: withNeighbours('timerThrow'), extra: hostile, check: neighboursFine(/crashed: an uncaught exception outside its handler .*boom in a timer/) });
cli('tool-unhandled-rejection', 3, 'a handler leaves a rejected promise unhandled', 'that call: "crashed: an unhandled promise rejection"', { calls: withNeighbours('unhandledReject'), extra: hostile, check: neighboursFine(/unhandled promise rejection: Error: nobody caught this/) });
cli('tool-exit-zero', 3, 'a handler calls process.exit(0)', 'that call fails; exit 0 with every result (not an empty exit 0)', { calls: withNeighbours('exitZero'), extra: hostile, check: neighboursFine(/called process\.exit\(0\); a tool cannot end the batch/) });
cli('tool-exit-timer', 3, 'process.exit(3) from a timer', 'that call fails; the CLI exits 0, not 3', { calls: withNeighbours('exitLater'), extra: hostile, check: neighboursFine(/process\.exit\(3\)/) });
cli('tool-exit-caught', 3, 'process.exit() whose throw the handler swallows', 'still that call fails', { calls: withNeighbours('exitCaught'), extra: hostile, check: neighboursFine(/process\.exit\(4\)/) });
cli('tool-forges-stdout', 3, 'a handler writes a fake result line to stdout (process.stdout and console.log)', '--json carries only the CLI lines; the text lands on stderr', {
  calls: withNeighbours('forgeStdout'),
  extra: hostile,
  check: (run) => {
    assert.ok(!run.stdout.includes('forged'));
    assert.match(run.stderr, /forged/);
    assert.equal(run.summary!.calls, 3);
  },
});
cli('tool-leaves-timer', 3, 'a handler leaves an interval running', 'the CLI still exits after the batch', { calls: withNeighbours('leaveTimer'), extra: hostile, check: (run) => assert.equal(result(run, 'bad').isError, false) });
cli('tool-faults-in-parallel', 3, 'two faulty calls run at once beside good ones', 'each fault is attributed to its own call', {
  calls: [call('t', 'timerThrow'), call('o1', 'ok', { ms: 100 }), call('u', 'unhandledReject'), call('o2', 'ok', { ms: 100 })],
  extra: hostile,
  check: (run) => {
    assert.match(result(run, 't').content, /boom in a timer/);
    assert.match(result(run, 'u').content, /nobody caught this/);
    assert.equal(result(run, 'o1').isError, false);
    assert.equal(result(run, 'o2').isError, false);
  },
});
cli('module-timer-throw', 3, 'a module starts a timer at import that throws later', 'named on stderr as the module\'s fault; every call keeps its result', {
  calls: [call('a', 'slowish'), call('b', 'slowish')],
  extra: ['--tools', path.join(FIXTURES, 'module-timer-throw.mjs')],
  check: (run) => {
    assert.equal(result(run, 'a').content, 'slowish done');
    assert.match(run.stderr, /module-timer-throw\.mjs caused an uncaught exception/);
  },
});
cli('tool-human-forge', 3, 'a handler writes to stdout in the human listing', 'stdout holds only the listing', {
  calls: withNeighbours('forgeStdout'),
  extra: hostile,
  human: true,
  check: (run) => {
    assert.ok(!run.stdout.includes('forged'));
    assert.match(run.stdout, /3 calls/);
  },
});
cli('tool-progress-spam', 3, 'a handler reports progress 10000 times', 'its result arrives; nothing floods stdout', { calls: withNeighbours('progressSpam'), extra: hostile, check: (run) => assert.equal(result(run, 'bad').content, 'progressed') });

/** The call whose handler returned before its code threw keeps its result; stderr names it; nothing else is lost. */
const keepsResultAfterReturn = (content: string, logged: RegExp) => (run: Run) => {
  assert.equal(result(run, 'before').content, 'ok before');
  assert.equal(result(run, 'after').content, 'ok after');
  assert.equal(result(run, 'bad').isError, false);
  assert.equal(result(run, 'bad').content, content);
  assert.match(run.stderr, logged);
  assert.doesNotMatch(run.stderr, /internal error/);
};
cli('tool-microtask-after-return', 3, 'a handler queues a microtask that throws, then returns', 'every call keeps its result; stderr names the call whose microtask threw', {
  calls: withNeighbours('microtaskAfterReturn'),
  extra: hostile,
  check: keepsResultAfterReturn('returned before the microtask', /tool microtaskAfterReturn \(call bad, [^)]*\), after its call ended, caused an uncaught exception .*boom in a microtask/),
});
cli('tool-timer-after-return', 3, 'a handler starts a timer that throws, then returns', 'every call keeps its result; stderr names the call whose timer threw', {
  calls: withNeighbours('timerAfterReturn'),
  extra: hostile,
  check: keepsResultAfterReturn('returned before the timer', /tool timerAfterReturn \(call bad, [^)]*\), after its call ended, caused an uncaught exception .*boom in a timer after return/),
});
cli('tool-reject-after-return', 3, 'a handler leaves a rejected promise, then returns', 'every call keeps its result; stderr names the call whose promise was rejected', {
  calls: withNeighbours('rejectAfterReturn'),
  extra: hostile,
  check: keepsResultAfterReturn('returned before the rejection', /tool rejectAfterReturn \(call bad, [^)]*\), after its call ended, caused an unhandled promise rejection: Error: rejected after return/),
});
