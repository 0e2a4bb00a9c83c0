// What an ACP agent may get wrong about sessions and sizes, over real stdio pipes (harness.ts): terminals
// under sessions that were never opened, a message over the SDK's limit, a command too long for a shell.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { countProcesses, killMarked, uniqueSleep } from '../tools/processes';
import { acpTests, entries } from './harness';

const acp = acpTests();

describe('ACP sessions: unknown sessions, oversized messages, overlong commands', () => {
  it('terminal/create under a session that was never opened is refused and starts nothing', async () => {
    const marker = uniqueSleep();
    acp.cleanup(() => killMarked(marker));
    const harness = await acp.start({ mode: 'bypass' });
    await harness.prompt([{ run: `sleep ${marker}`, sessionId: 'made-up' }]);
    const [error] = entries(harness, 'error');
    assert.equal(error!.error.code, -32002);
    assert.match(error!.error.message, /session/);
    assert.equal(countProcesses(marker), 0);
  });

  it('a message over the SDK\'s limit fails that prompt with a message and stops the agent', async () => {
    const harness = await acp.start({ mode: 'bypass' });
    await assert.rejects(harness.prompt([{ huge: 50 * 1024 * 1024 }]), /32 MiB|over .* limit/);
    const code = await harness.connection.exited;
    assert.notEqual(code, undefined);
    // The connection is gone: the next prompt on it fails at once (the host starts the agent again).
    await assert.rejects(harness.prompt([{ say: 'hi' }]), /stopped|closed/);
  });

  it('a command longer than a shell takes says "command too long"', async () => {
    const harness = await acp.start({ mode: 'bypass' });
    await harness.prompt([{ run: `echo ${'x'.repeat(1024 * 1024)}` }]);
    const [error] = entries(harness, 'error');
    assert.match(error!.error.message, /command too long/i);
    assert.doesNotMatch(error!.error.message, /E2BIG/);
  });
});

describe('ACP session/load', () => {
  it('takes up a session by id where the agent offers it: the agent gets the folder, and prompts go on in that session', async () => {
    const harness = await acp.start({ agentArgs: ['--load'], loadSession: 'session-from-before' });
    assert.equal(harness.sessionId, 'session-from-before');
    assert.equal(harness.connection.agentInfo?.agentCapabilities?.loadSession, true);
    const [load] = entries(harness, 'session/load');
    assert.deepEqual(load!.params, { sessionId: 'session-from-before', cwd: acp.dir(), mcpServers: [] });
    assert.equal(await harness.prompt([{ say: 'again' }]), 'end_turn');
  });

  it('an agent that does not offer it is not asked: loadSession rejects and nothing is sent', async () => {
    await assert.rejects(acp.start({ loadSession: 'session-from-before' }), /does not offer session\/load/);
    const transcript = readFileSync(join(acp.dir(), '.transcript.jsonl'), 'utf8');
    assert.doesNotMatch(transcript, /session\/load/);
  });
});
