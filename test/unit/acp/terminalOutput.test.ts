// ACP terminal/output and wait_for_exit over real stdio pipes (harness.ts): the agent gets what the command
// printed up to its outputByteLimit, cut only from the front at a character boundary, `truncated` exactly
// when cut, redacted, and the real exit code, whether it polls or waits.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acpTests, entries } from './harness';

const acp = acpTests();

/** What `seq 1 n` prints. */
function seq(n: number): string {
  const lines: string[] = [];
  for (let i = 1; i <= n; i++) lines.push(String(i));
  return `${lines.join('\n')}\n`;
}

describe('ACP terminal output: whole up to the limit, cut only from the front, the real exit code', () => {
  const expected = seq(100_000);

  it('seq 1 100000 (under the default limit) arrives whole, not truncated, exit code 0', async () => {
    const harness = await acp.start({ mode: 'bypass' });
    await harness.prompt([{ run: 'seq 1 100000' }]);
    const [terminal] = entries(harness, 'terminal');
    assert.equal(terminal!.output.output.length, expected.length);
    assert.ok(terminal!.output.output === expected, 'the output is exactly what the command printed');
    assert.equal(terminal!.output.truncated, false);
    assert.deepEqual(terminal!.exit, { exitCode: 0, signal: null });
    assert.deepEqual(terminal!.output.exitStatus, { exitCode: 0, signal: null });
  });

  it('the same under polling', async () => {
    const harness = await acp.start({ mode: 'bypass' });
    await harness.prompt([{ run: 'seq 1 100000', poll: true }]);
    const [terminal] = entries(harness, 'terminal');
    assert.ok(terminal!.polls >= 1);
    assert.ok(terminal!.output.output === expected, `got ${terminal!.output.output.length} chars, starting ${JSON.stringify(terminal!.output.output.slice(0, 40))}`);
    assert.equal(terminal!.output.truncated, false);
    assert.deepEqual(terminal!.exit, { exitCode: 0, signal: null });
  });

  it('20 MB printed under polling: exactly the last outputByteLimit bytes, truncated', async () => {
    const lines = 2_900_000;
    const whole = seq(lines);
    assert.ok(whole.length > 20_000_000);
    const limit = 1024 * 1024;
    const harness = await acp.start({ mode: 'bypass' });
    await harness.prompt([{ run: `seq 1 ${lines}`, poll: true }]);
    const [terminal] = entries(harness, 'terminal');
    assert.equal(terminal!.output.truncated, true);
    assert.equal(terminal!.output.output.length, limit);
    assert.ok(terminal!.output.output === whole.slice(whole.length - limit), 'the newest bytes, in order');
    assert.deepEqual(terminal!.exit, { exitCode: 0, signal: null });
  });

  it('an exit code other than 0, and a limit cut at a character boundary, under polling', async () => {
    const harness = await acp.start({ mode: 'bypass' });
    await harness.prompt([{ run: "printf 'a€€'; exit 7", poll: true, outputByteLimit: 5 }]);
    const [terminal] = entries(harness, 'terminal');
    assert.equal(terminal!.output.output, '€');
    assert.equal(terminal!.output.truncated, true);
    assert.deepEqual(terminal!.exit, { exitCode: 7, signal: null });
  });

  it('a secret in the output is redacted, even split across the pipe\'s chunks', async () => {
    const secret = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`;
    const harness = await acp.start({ mode: 'bypass' });
    await harness.prompt([{ run: `head -c 65530 /dev/zero | tr '\\0' x; echo; printf 'token=${secret.slice(0, 10)}'; sleep 0.2; printf '${secret.slice(10)}\\n'`, poll: true }]);
    const [terminal] = entries(harness, 'terminal');
    assert.ok(!terminal!.output.output.includes(secret.slice(10)), terminal!.output.output.slice(-200));
    assert.match(terminal!.output.output, /token=\S*REDACTED/);
  });
});

