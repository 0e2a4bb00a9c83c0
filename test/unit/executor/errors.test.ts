import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorClassOf, MAX_ERROR_MESSAGE_CHARS, projectErrorMessage, toolUseError } from '../../../src/executor/contract/errors';

describe('projectErrorMessage', () => {
  it('takes the first message in the cause chain that is not a wrapper', () => {
    const root = new Error('ECONNREFUSED 127.0.0.1:9');
    const wrapped = new Error('failed', { cause: new Error('', { cause: root }) });
    assert.equal(projectErrorMessage(wrapped), 'ECONNREFUSED 127.0.0.1:9');
  });

  it('follows the cause chain at most 12 levels', () => {
    let error: Error = new Error('deep reason');
    for (let level = 0; level < 13; level++) error = new Error('error', { cause: error });
    assert.equal(projectErrorMessage(error), 'error');
    let shallow: Error = new Error('reason at 12');
    for (let level = 0; level < 12; level++) shallow = new Error('error', { cause: shallow });
    assert.equal(projectErrorMessage(shallow), 'reason at 12');
  });

  it('collapses whitespace and keeps at most 500 characters without splitting a surrogate pair', () => {
    assert.equal(projectErrorMessage(new Error('a\n\n  b\tc ')), 'a b c');
    const long = projectErrorMessage(new Error('x'.repeat(498) + '😀😀'));
    assert.ok(long.length <= MAX_ERROR_MESSAGE_CHARS);
    assert.ok(!/[\ud800-\udbff]…$/.test(long));
  });

  it('projects any thrown value', () => {
    assert.equal(projectErrorMessage('plain string'), 'plain string');
    assert.equal(projectErrorMessage(null), 'null');
    assert.equal(projectErrorMessage(undefined), 'undefined');
    assert.equal(projectErrorMessage(42), '42');
    assert.equal(projectErrorMessage({ message: 'from object' }), 'from object');
    assert.equal(projectErrorMessage({ code: 7 }), '{"code":7}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.equal(projectErrorMessage(cyclic), '[object Object]');
  });

  it('names error classes for telemetry', () => {
    assert.equal(errorClassOf(new TypeError('x')), 'TypeError');
    assert.equal(errorClassOf('x'), 'string');
    assert.equal(errorClassOf(null), 'null');
    assert.equal(errorClassOf({}), 'Object');
  });

  it('wraps tool errors for the model', () => {
    assert.equal(toolUseError('bad'), '<tool_use_error>bad</tool_use_error>');
  });
});
