import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApprovalAnswer, ApprovalRequest } from '../../../../src/executor/ports/approvalClient';
import type { PermissionPolicy, PermissionRequest } from '../../../../src/executor/ports/permissionPolicy';
import { makeExecutor, tool } from '../fixtures';

/** A policy that asks (forced or not) and records what it was asked to remember. */
function askingPolicy(forced: boolean, withWorkspace = true) {
  const remembered: string[] = [];
  const policy: PermissionPolicy = {
    evaluate: () => ({ behavior: 'ask', by: 'mode', reason: 'asks', forced }),
    rememberSessionApproval: (request: PermissionRequest) => void remembered.push(`session:${request.callId}`),
    ...(withWorkspace ? { rememberWorkspaceApproval: async (request: PermissionRequest) => void remembered.push(`workspace:${request.callId}`) } : {}),
  };
  return { policy, remembered };
}

function answering(answer: ApprovalAnswer, asked: ApprovalRequest[]) {
  return { requestApproval: (request: ApprovalRequest) => (asked.push(request), Promise.resolve(answer)) };
}

describe('approval: answers that last', () => {
  it('"Allow in this workspace" is offered when the policy can keep it, and keeps it', async () => {
    const { policy, remembered } = askingPolicy(false);
    const asked: ApprovalRequest[] = [];
    const { executor } = makeExecutor([tool('Write', { readOnly: false })], { permissionPolicy: policy, approvalClient: answering({ kind: 'allowWorkspace' }, asked) });
    const [result] = await executor.executeBatch([{ id: 'c1', name: 'Write', input: {} }]);
    assert.equal(result!.isError, false);
    assert.equal(asked[0]!.workspaceAllowed, true);
    assert.deepEqual(remembered, ['workspace:c1']);
  });

  it('is not offered by a policy that cannot keep it, and an answer of it then lasts the session only', async () => {
    const { policy, remembered } = askingPolicy(false, false);
    const asked: ApprovalRequest[] = [];
    const { executor } = makeExecutor([tool('Write', { readOnly: false })], { permissionPolicy: policy, approvalClient: answering({ kind: 'allowWorkspace' }, asked) });
    await executor.executeBatch([{ id: 'c2', name: 'Write', input: {} }]);
    assert.equal(asked[0]!.workspaceAllowed, false);
    assert.deepEqual(remembered, ['session:c2']);
  });

  it('a forced ask is never remembered, whatever the client answers', async () => {
    const { policy, remembered } = askingPolicy(true);
    const asked: ApprovalRequest[] = [];
    const { executor } = makeExecutor([tool('Write', { readOnly: false })], { permissionPolicy: policy, approvalClient: answering({ kind: 'allowWorkspace' }, asked) });
    const [result] = await executor.executeBatch([{ id: 'c3', name: 'Write', input: {} }]);
    assert.equal(result!.isError, false, 'the call itself was allowed once');
    assert.equal(asked[0]!.workspaceAllowed, false);
    assert.equal(asked[0]!.sessionAllowed, false);
    assert.deepEqual(remembered, []);
  });
});
