// Fault catalogue, class 5: Processes that escape.
import assert from 'node:assert/strict';
import { allow, call, cli, processesRunning, result } from '../define';

// ── 5. Processes that escape ────────────────────────────────────────────────────────────────────────────
cli('setsid-daemon-holds-pipe', 5, 'a command starts a setsid daemon that holds the output pipe', 'the call ends when the shell does; the daemon is found by its marker and killed', {
  calls: [call('c', 'Bash', { command: 'setsid sleep 41 & echo started' })],
  extra: allow,
  check: (run) => {
    assert.equal(result(run, 'c').isError, false, result(run, 'c').content);
    assert.match(result(run, 'c').content, /was stopped/);
  },
});
cli('env-i-setsid', 5, 'a daemon started with `env -i setsid` (no marker) that holds the output', 'found as the holder of the output pipe and stopped', {
  calls: [call('c', 'Bash', { command: 'env -i setsid sleep 53.5 & echo started; sleep 0.3' })],
  extra: allow,
  check: async (run) => {
    assert.match(result(run, 'c').content, /1 process the command left running was stopped/);
    assert.equal(processesRunning('sleep 53.5'), 0);
  },
});
cli('dev-stdout-stderr', 5, 'a command writes to /dev/stdout, to /dev/stderr and through `tee /dev/stderr`', 'all of it in the result, in the order written (one pipe, not a socket: no ENXIO)', {
  calls: [call('c', 'Bash', { command: 'echo one > /dev/stdout; echo two > /dev/stderr; echo three | tee /dev/stderr; echo four >&2' })],
  extra: allow,
  check: (run) => {
    assert.equal(result(run, 'c').isError, false, result(run, 'c').content);
    assert.match(result(run, 'c').content, /^one\ntwo\nthree\nthree\nfour\n/);
  },
});
cli('double-fork', 5, 'a double fork `(sleep 42 &)` leaves the group', 'stopped after the command exits', { calls: [call('c', 'Bash', { command: '( sleep 42 & ) ; echo forked' })], extra: allow });
cli('nohup-disown', 5, '`nohup sleep 43 & disown`', 'stopped after the command exits', { calls: [call('c', 'Bash', { command: 'nohup sleep 43 >/dev/null 2>&1 & disown; echo ok' })], extra: allow });
cli('setsid-on-timeout', 5, 'a setsid daemon in a command that times out', 'timeout result; the daemon killed too', {
  calls: [call('c', 'Bash', { command: 'setsid sleep 44 & sleep 45', timeout: 300 })],
  extra: allow,
  check: (run) => assert.equal(result(run, 'c').errorKind, 'timeout'),
});
cli('ignores-sigterm', 5, 'a command that ignores SIGTERM runs past its timeout', 'errorKind timeout (not execution); killed with SIGKILL', {
  calls: [call('c', 'Bash', { command: 'trap "" TERM; sleep 46', timeout: 300 })],
  extra: allow,
  check: (run) => {
    assert.equal(result(run, 'c').errorKind, 'timeout');
    assert.match(result(run, 'c').content, /timed out after 300ms and its process tree was killed/);
  },
});
cli('background-at-exit', 5, 'a background command still running when the batch ends', 'named in the summary (backgroundStopped) and stopped', {
  calls: [call('bg', 'Bash', { command: 'sleep 47', run_in_background: true })],
  extra: allow,
  check: (run) => {
    const stopped = run.summary!.backgroundStopped as { id: string; command: string }[];
    assert.equal(stopped.length, 1);
    assert.match(stopped[0]!.command, /sleep 47/);
  },
});
cli('background-human', 5, 'the same in the human listing', 'a line names the stopped background command', {
  calls: [call('bg', 'Bash', { command: 'sleep 48', run_in_background: true })],
  extra: allow,
  human: true,
  check: (run) => assert.match(run.stdout, /stopped background .* sleep 48/),
});
cli('many-children', 5, 'a command that starts 20 sleeping children and exits', 'all stopped, counted in the result', {
  calls: [call('c', 'Bash', { command: 'for i in $(seq 20); do sleep 49 & done; echo spawned' })],
  extra: allow,
  check: (run) => assert.match(result(run, 'c').content, /20 processes the command left running were stopped/),
});
cli('killbash', 5, 'KillBash of a running background command', 'stopped; its tree gone', {
  calls: [call('bg', 'Bash', { command: 'setsid sleep 50 & sleep 51', run_in_background: true }), call('k', 'KillBash', { task_id: 'task-1' })],
  extra: allow,
});
