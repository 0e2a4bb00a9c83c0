// The setting's entries (src/vscode/models/modelSettings.ts) and the token estimate (tokenEstimate.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maskKey } from '../../../src/models/errors';
import { DEFAULT_MAX_INPUT_TOKENS, DEFAULT_MAX_OUTPUT_TOKENS, parseModelEntries } from '../../../src/vscode/models/modelSettings';
import { CHARS_PER_TOKEN, MAX_CORRECTION, TokenEstimate } from '../../../src/vscode/models/tokenEstimate';

describe('agentToolExecutor.models entries', () => {
  it('takes a full entry, fills defaults, and leaves out broken ones with a sentence each', () => {
    const { models, problems } = parseModelEntries([
      { name: 'Local qwen', format: 'openai', baseUrl: 'http://localhost:11434/v1/', model: 'qwen3:8b' },
      { name: 'Claude', format: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: 'claude-sonnet-4-5', maxInputTokens: 200000, maxOutputTokens: 16000, toolCalling: true, imageInput: true },
      { name: 'No format', baseUrl: 'http://x/v1', model: 'm' },
      { name: 'Bad URL', format: 'openai', baseUrl: 'file:///etc/passwd', model: 'm' },
      { name: 'Local qwen', format: 'openai', baseUrl: 'http://other/v1', model: 'm' },
    ]);
    assert.deepEqual(models, [
      { name: 'Local qwen', format: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'qwen3:8b', maxInputTokens: DEFAULT_MAX_INPUT_TOKENS, maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS, toolCalling: true, imageInput: false },
      { name: 'Claude', format: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: 'claude-sonnet-4-5', maxInputTokens: 200000, maxOutputTokens: 16000, toolCalling: true, imageInput: true },
    ]);
    assert.deepEqual(problems, [
      'agentToolExecutor.models[2] is left out: it needs format ("openai" or "anthropic").',
      'agentToolExecutor.models[3] ("Bad URL") is left out: baseUrl must be an http:// or https:// URL.',
      'agentToolExecutor.models[4] is left out: another entry is named "Local qwen".',
    ]);
    assert.deepEqual(parseModelEntries('nope').problems, ['agentToolExecutor.models is not a list; no model of it is offered.']);
  });
});

describe('token estimate', () => {
  it('is characters / 4 until the endpoint reports, then follows its real count, within bounds', () => {
    const estimate = new TokenEstimate();
    assert.equal(estimate.count('m', 400), 400 / CHARS_PER_TOKEN);
    estimate.calibrate('m', 400, 150);
    assert.equal(estimate.count('m', 400), 150);
    assert.equal(estimate.count('other', 400), 100, 'per model');
    estimate.calibrate('m', 400, 100_000);
    assert.equal(estimate.count('m', 400), 100 * MAX_CORRECTION);
  });
});

describe('the key in endpoint text', () => {
  it('is masked whole and where an endpoint echoes a run of it', () => {
    const key = 'sk-proj-abcdefghijklmnop';
    assert.equal(maskKey(`bad key ${key}`, key), 'bad key [API key]');
    assert.doesNotMatch(maskKey('Incorrect API key provided: sk-proj-abcd****mnop.', key), /sk-proj-abcd/);
    assert.equal(maskKey('nothing of it here', key), 'nothing of it here');
  });
});
