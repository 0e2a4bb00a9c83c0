// Sessions over real stdio pipes with the scripted agent (harness.ts): modes and config options set and
// followed, session/list and session/resume, session/close when the connection closes, forms answered.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { currentModeName } from '../../../../src/acp/session/settings';
import { acpTests, entries } from '../harness';
import { alive } from '../../tools/processes';

const acp = acpTests();

describe('ACP modes and config options', () => {
  it("keeps session/new's modes, sends set_mode and set_config_option, and follows current_mode_update", async () => {
    const harness = await acp.start({ agentArgs: ['--modes'] });
    const settings = () => harness.connection.settings.get(harness.sessionId);
    assert.equal(currentModeName(settings()), 'Ask');
    await harness.connection.setMode(harness.sessionId, 'code');
    assert.equal(currentModeName(settings()), 'Code');
    await harness.connection.setConfigOption(harness.sessionId, 'model', 'large');
    await harness.connection.setConfigOption(harness.sessionId, 'thinking', true);
    assert.deepEqual(settings().configOptions.map((option) => option.currentValue), ['large', true]);
    assert.deepEqual(entries(harness, 'session/set_mode').map((entry) => entry.params), [{ sessionId: harness.sessionId, modeId: 'code' }]);
    assert.deepEqual(entries(harness, 'session/set_config_option').map((entry) => entry.params), [
      { sessionId: harness.sessionId, configId: 'model', value: 'large' },
      { sessionId: harness.sessionId, configId: 'thinking', type: 'boolean', value: true },
    ]);
    await harness.prompt([{ mode: 'architect' }]);
    assert.equal(currentModeName(settings()), 'Architect');
  });

  it('a mode the agent refuses leaves the mode as it was', async () => {
    const harness = await acp.start({ agentArgs: ['--modes'] });
    await assert.rejects(harness.connection.setMode(harness.sessionId, 'nonsense'), /no mode/);
    assert.equal(currentModeName(harness.connection.settings.get(harness.sessionId)), 'Ask');
  });
});

describe('ACP session/list, session/resume and session/close', () => {
  it('lists the sessions and resumes one; prompts then go to it', async () => {
    const harness = await acp.start({ agentArgs: ['--list', '--resume'] });
    const listed = await harness.connection.listSessions(acp.dir());
    assert.deepEqual(listed.map((session) => session.sessionId), [harness.sessionId, 'session-earlier']);
    await harness.connection.resumeSession('session-earlier', acp.dir());
    assert.equal((await harness.connection.prompt('session-earlier', [{ type: 'text', text: JSON.stringify([{ say: 'on' }]) }])).stopReason, 'end_turn');
    assert.deepEqual(entries(harness, 'session/resume').map((entry) => entry.params.sessionId), ['session-earlier']);
    assert.equal(entries(harness, 'session/prompt').at(-1)!.sessionId, 'session-earlier');
  });

  it('an agent that offers neither is not asked', async () => {
    const harness = await acp.start();
    await assert.rejects(harness.connection.listSessions(), /does not offer session\/list/);
    await assert.rejects(harness.connection.resumeSession('x'), /does not offer session\/resume/);
    await harness.connection.close();
    assert.equal(entries(harness, 'session/close').length, 0);
  });

  it('close() sends session/close for each open session where offered, and the agent process ends', async () => {
    const harness = await acp.start({ agentArgs: ['--close'] });
    const pid = entries(harness, 'initialize')[0]!.pid as number;
    assert.equal(alive(pid), true);
    await harness.connection.close();
    assert.deepEqual(entries(harness, 'session/close').map((entry) => entry.params), [{ sessionId: harness.sessionId }]);
    await harness.connection.exited;
    assert.equal(alive(pid), false);
  });
});

describe('ACP elicitation', () => {
  it('a form goes to the host and its answer back to the agent; without a host, elicitation is not offered', async () => {
    const asked: unknown[] = [];
    const harness = await acp.start({ elicit: async (request) => (asked.push(request.message), { action: 'accept', content: { name: 'Ada' } }) });
    assert.deepEqual(entries(harness, 'initialize')[0]!.params.clientCapabilities.elicitation, { form: {} });
    await harness.prompt([{ elicit: 'Who are you?', schema: { type: 'object', properties: { name: { type: 'string' } } } }]);
    assert.deepEqual(asked, ['Who are you?']);
    assert.deepEqual(entries(harness, 'elicitation')[0]!.answer, { action: 'accept', content: { name: 'Ada' } });
  });
});
