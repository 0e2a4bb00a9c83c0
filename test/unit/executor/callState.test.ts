import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decide, openCall, type CallState } from '../../../src/executor/call/callState';
import { NEVER_ABORTED } from '../../../src/executor/contract/neverAborted';
import { InMemoryTelemetry } from '../../../src/executor/inMemoryTelemetry';

/**
 * Never called: it only has to compile. Each `@ts-expect-error` fails the build (`tsc -p .`) the day
 * that write becomes legal, so a stage can change only the record the runner hands it.
 */
export function stagesCannotWriteWhatTheyRead(state: CallState): void {
  // @ts-expect-error the admission is written by stages 1-3 only
  state.admission.input = {};
  // @ts-expect-error the permission record is written by stages 4-6 only
  state.permission.record = { outcome: 'approved' };
  // @ts-expect-error the hook context grows only in the stages that run those hooks
  state.permission.hookContext.push('more');
  // @ts-expect-error the run record is written by stages 7-10 only
  state.run.output = { content: '' };
  // @ts-expect-error the result record is written by stages 11-13 and the runner only
  state.result.text = '';
  // @ts-expect-error nor is the result record handed over whole
  state.result = state.result;
}

describe('CallState', () => {
  it('shows each stage the records the runner writes, as they change', () => {
    const span = new InMemoryTelemetry().startSpan('tool.call', {});
    const { state, own } = openCall({ id: 'c1', name: 'Read', input: '{"path":"a"}' }, {}, NEVER_ABORTED, span);
    assert.equal(state.input, '{"path":"a"}');
    own.admission.input = { path: 'a' };
    decide(own.permission, 'denied', 'hook', 'careful');
    own.result.text = 'denied';
    assert.deepEqual(state.input, { path: 'a' });
    assert.deepEqual(state.permission.record, { outcome: 'denied', by: 'hook', detail: 'careful' });
    assert.equal(state.result.text, 'denied');
  });
});
