// Stage 6, before the race: prepareApproval may narrow an ask or add a preview; a throw still asks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApprovalAnswer, ApprovalRequest } from '../../../../src/executor/ports/approvalClient';
import { makeExecutor, tool } from '../fixtures';

function recordingClient() {
  const requests: ApprovalRequest[] = [];
  return { requests, client: { requestApproval: (request: ApprovalRequest): Promise<ApprovalAnswer> => (requests.push(request), Promise.resolve({ kind: 'allowOnce' })) } };
}

const writer = (overrides = {}) => tool('Writer', { readOnly: false, sideEffectScope: 'workspace', ...overrides });

describe('prepareApproval', () => {
  it('may narrow an ordinary ask to allow: nobody is asked, the tool decided', async () => {
    const { requests, client } = recordingClient();
    const { executor } = makeExecutor([writer({ prepareApproval: () => ({ decision: 'allow' }) })], { approvalClient: client });
    const result = await executor.execute({ id: 'c', name: 'Writer', input: {} });
    assert.equal(requests.length, 0);
    assert.deepEqual(result.permission, { outcome: 'none', by: 'tool' });
  });

  it('cannot narrow an alwaysAsk; its preview is shown, escaped', async () => {
    const { requests, client } = recordingClient();
    const def = writer({ permission: { alwaysAsk: true }, prepareApproval: () => ({ decision: 'allow', preview: { title: 'Write \u001b[2Jx', detail: 'line\u202e' } }) });
    const { executor } = makeExecutor([def], { approvalClient: client });
    await executor.execute({ id: 'c', name: 'Writer', input: {} });
    assert.equal(requests.length, 1);
    assert.deepEqual(requests[0]!.preview, { title: 'Write \\e[2Jx', detail: 'line\\u202e' });
    assert.equal(requests[0]!.sessionAllowed, false);
  });

  it('a throw still asks, without the tool preview, and is logged; never a silent allow', async () => {
    const { requests, client } = recordingClient();
    const { executor, logger } = makeExecutor([writer({ prepareApproval: () => { throw new Error('no preview'); } })], { approvalClient: client });
    await executor.execute({ id: 'c', name: 'Writer', input: { text: 'hi' } });
    assert.equal(requests.length, 1);
    assert.equal(requests[0]!.preview?.detail, JSON.stringify({ text: 'hi' }, null, 2));
    assert.ok(logger.messages().includes('tool.approval.prepare_failed'));
  });
});
