// Fault catalogue, class 2: Results lost on termination.
import assert from 'node:assert/strict';
import { allow, call, cli, hostile, result, type Run } from '../define';

// ── 2. Results lost on termination ─────────────────────────────────────────────────────────────────────
const longCommand = [call('ok1', 'ok', { ms: 1 }), call('sleep', 'Bash', { command: 'sleep 37; echo never' }), call('after', 'ok', { ms: 1 })];
const allCancelled = (run: Run) => {
  assert.equal(result(run, 'sleep').errorKind, 'cancelled');
  assert.equal(result(run, 'after').errorKind, 'cancelled');
};
for (const [signal, exit] of [['SIGTERM', 143], ['SIGHUP', 129], ['SIGINT', 130]] as const) {
  cli(`signal-${signal.toLowerCase()}`, 2, `${signal} while a command runs`, `every call reported (the running and later ones cancelled), tree killed, exit ${exit}`, {
    calls: longCommand,
    extra: [...allow, ...hostile],
    exit,
    during: async (child, io) => {
      await io.process(/sleep 37/);
      child.kill(signal);
    },
    check: allCancelled,
  });
}
cli('signal-twice', 2, 'SIGTERM twice', 'exits at once with 143; the exit hook still kills the tree', {
  calls: longCommand,
  extra: [...allow, ...hostile],
  exit: 143,
  prefix: true,
  during: async (child, io) => {
    await io.process(/sleep 37/);
    child.kill('SIGTERM');
    child.kill('SIGTERM');
  },
});
cli('signal-background', 2, 'SIGTERM while a background command runs', 'results printed, the background command stopped, exit 143', {
  calls: [call('bg', 'Bash', { command: 'sleep 38', run_in_background: true }), call('wait', 'ok', { ms: 60_000 })],
  extra: [...allow, ...hostile],
  exit: 143,
  during: async (child, io) => {
    await io.process(/sleep 38/);
    await io.lines(1);
    child.kill('SIGTERM');
  },
  check: (run) => assert.equal(result(run, 'wait').errorKind, 'cancelled'),
});
cli('stdout-closed', 2, 'the reader of stdout goes away (`| head -1`)', 'no EPIPE stack trace; running calls cancelled, processes stopped, exit 141', {
  calls: [call('bg', 'Bash', { command: 'sleep 39', run_in_background: true }), call('first', 'ok', { ms: 1 }), call('slow', 'serialSlow', { ms: 300 }), call('later', 'ok', { ms: 1 })],
  extra: [...allow, ...hostile],
  exit: 141,
  prefix: true,
  during: async (child, io) => {
    await io.lines(1);
    child.stdout!.destroy();
  },
});
cli('stdin-stream-cut', 2, '--stream input that ends mid-line', 'the complete lines run; the cut line is a misuse (exit 2)', {
  stdin: `${JSON.stringify(call('a', 'ok', { ms: 1 }))}\n{"id":"b","na`,
  extra: [...hostile, '--stream'],
  exit: 2,
  ids: ['a'],
});
