/// <reference types="mocha" />
// The modal dialog itself is clicked by the end-to-end suite; here the test seam answers it.
import * as assert from 'node:assert/strict';
import type { ApprovalRequest } from '../../../src/executor/ports/approvalClient';
import { extensionApi, registerTool } from './helpers';

suite('Approvals', () => {
  let ran: string[] = [];
  let unregister: () => void = () => {};

  setup(async () => {
    ran = [];
    unregister = await registerTool({
      name: 'test_touch',
      description: 'Pretends to change the workspace.',
      jsonSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      sideEffectScope: 'workspace',
      handler: (input: { path: string }) => {
        ran.push(input.path);
        return { content: `touched ${input.path}` };
      },
    });
  });

  teardown(async () => {
    unregister();
    (await extensionApi()).testing.setApprovalResponder(undefined);
  });

  test('an allowed call runs, and the request shows exactly the input that runs', async () => {
    const api = await extensionApi();
    const requests: ApprovalRequest[] = [];
    api.testing.setApprovalResponder((request) => {
      requests.push(request);
      return { kind: 'allowOnce' };
    });
    const [result] = await api.executor.executeBatch([{ id: 'a1', name: 'test_touch', input: { path: 'x.txt' } }]);
    assert.equal(result?.isError, false);
    assert.deepEqual(ran, ['x.txt']);
    assert.equal(requests.length, 1);
    assert.equal(requests[0]?.toolName, 'test_touch');
    assert.deepEqual(requests[0]?.input, { path: 'x.txt' });
    assert.equal(result?.permission.outcome, 'approved');
  });

  test('a denied call does not run and the model is told it was denied', async () => {
    const api = await extensionApi();
    api.testing.setApprovalResponder(() => ({ kind: 'deny', reason: 'The user denied this tool call.' }));
    const [result] = await api.executor.executeBatch([{ id: 'd1', name: 'test_touch', input: { path: 'y.txt' } }]);
    assert.equal(result?.isError, true);
    assert.equal(result?.errorKind, 'permission');
    assert.equal(result?.permission.outcome, 'denied');
    assert.match(result?.modelContent ?? '', /denied/i);
    assert.deepEqual(ran, []);
  });

  test('"Allow for Session" lets the same call run again without asking; another target still asks', async () => {
    const api = await extensionApi();
    let asked = 0;
    api.testing.setApprovalResponder(() => {
      asked++;
      return { kind: 'allowSession' };
    });
    await api.executor.executeBatch([{ id: 's1', name: 'test_touch', input: { path: 'p.txt' } }]);
    await api.executor.executeBatch([{ id: 's2', name: 'test_touch', input: { path: 'p.txt' } }]);
    assert.equal(asked, 1);
    await api.executor.executeBatch([{ id: 's3', name: 'test_touch', input: { path: 'q.txt' } }]);
    assert.equal(asked, 2);
    assert.deepEqual(ran, ['p.txt', 'p.txt', 'q.txt']);
  });
});
