// A session's modes and config options: what session/new answered, changed by our requests and the agent's updates.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { currentModeName, findChoice, SessionSettingsStore, settingChoices } from '../../../../src/acp/session/settings';
import { SCRIPTED_CONFIG_OPTIONS, SCRIPTED_MODES } from '../../../acp/scriptedAgent';

const opened = () => {
  const store = new SessionSettingsStore();
  store.opened('s', { modes: SCRIPTED_MODES, configOptions: [...SCRIPTED_CONFIG_OPTIONS] });
  return store;
};

describe('SessionSettingsStore', () => {
  it('keeps what session/new answered, per session', () => {
    const store = opened();
    assert.equal(currentModeName(store.get('s')), 'Ask');
    assert.equal(store.get('other').configOptions.length, 0);
    assert.equal(currentModeName(store.get('other')), undefined);
  });

  it('honours current_mode_update and config_option_update, and ignores other updates', () => {
    const store = opened();
    assert.equal(store.apply('s', { sessionUpdate: 'current_mode_update', currentModeId: 'architect' }), true);
    assert.equal(currentModeName(store.get('s')), 'Architect');
    const changed = SCRIPTED_CONFIG_OPTIONS.map((option) => (option.id === 'model' ? { ...option, currentValue: 'large' } : option)) as typeof SCRIPTED_CONFIG_OPTIONS;
    assert.equal(store.apply('s', { sessionUpdate: 'config_option_update', configOptions: [...changed] }), true);
    assert.equal(settingChoices(store.get('s')).find((choice) => choice.current && choice.group === 'Model')?.label, 'Large model');
    assert.equal(store.apply('s', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } }), false);
  });

  it('an agent without modes names its mode by a config option of the mode category', () => {
    const store = new SessionSettingsStore();
    store.opened('s', { configOptions: [{ id: 'm', name: 'Mode', category: 'mode', type: 'select', currentValue: 'plan', options: [{ group: 'g', name: 'G', options: [{ value: 'plan', name: 'Plan' }] }] }] });
    assert.equal(currentModeName(store.get('s')), 'Plan');
  });
});

describe('settingChoices and findChoice', () => {
  it('lists modes first, then each option value, the current ones marked', () => {
    const choices = settingChoices(opened().get('s'));
    assert.deepEqual(choices.map((choice) => [choice.group, choice.label, choice.current]), [
      ['Mode', 'Ask', true],
      ['Mode', 'Code', false],
      ['Mode', 'Architect', false],
      ['Model', 'Small model', true],
      ['Model', 'Large model', false],
      ['Think first', 'Think first: on', false],
      ['Think first', 'Think first: off', true],
    ]);
  });

  it('finds a mode by id or name, an option by id or name and its value, whatever the case', () => {
    const settings = opened().get('s');
    assert.deepEqual(findChoice(settings, 'code')?.change, { kind: 'mode', modeId: 'code' });
    assert.deepEqual(findChoice(settings, ' ARCHITECT ')?.change, { kind: 'mode', modeId: 'architect' });
    assert.deepEqual(findChoice(settings, 'model large')?.change, { kind: 'config', configId: 'model', value: 'large' });
    assert.deepEqual(findChoice(settings, 'Model=Large model')?.change, { kind: 'config', configId: 'model', value: 'large' });
    assert.deepEqual(findChoice(settings, 'think first on')?.change, { kind: 'config', configId: 'thinking', value: true });
    assert.deepEqual(findChoice(settings, 'thinking off')?.change, { kind: 'config', configId: 'thinking', value: false });
    assert.equal(findChoice(settings, 'acceptEdits'), undefined);
    assert.equal(findChoice(settings, 'model huge'), undefined);
  });
});
