// Stage 6: the user's answer races the PermissionRequest hook chain; the first answer wins and the
// loser is cancelled (its signal aborted), never left hanging.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApprovalAnswer, ApprovalClient, ApprovalRequest } from '../../../../src/executor/ports/approvalClient';
import type { HookOutcome } from '../../../../src/executor/ports/hooks';
import { deferred, makeExecutor, tick, tool } from '../fixtures';

/** A client whose answer the test gives; it records the signal it was handed. */
class ControlledClient implements ApprovalClient {
  readonly asked = deferred<ApprovalRequest>();
  readonly answer = deferred<ApprovalAnswer>();
  signal: AbortSignal | undefined;
  requestApproval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    this.signal = signal;
    this.asked.resolve(request);
    return new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      void this.answer.promise.then(resolve);
    });
  }
}

/** A PermissionRequest hook whose outcome the test gives. */
function controlledHook() {
  const started = deferred<AbortSignal>();
  const outcome = deferred<HookOutcome>();
  return {
    started,
    outcome,
    hook: {
      name: 'gate',
      event: 'PermissionRequest' as const,
      run: (_input: unknown, signal: AbortSignal) => {
        started.resolve(signal);
        return outcome.promise;
      },
    },
  };
}

const writer = () => tool('Writer', { readOnly: false, sideEffectScope: 'workspace', concurrentSafe: false });

describe('approval race', () => {
  it('hook first: the hook decides, the dialog is cancelled', async () => {
    const client = new ControlledClient();
    const gate = controlledHook();
    const { executor, events } = makeExecutor([writer()], { approvalClient: client });
    executor.hooks.register(gate.hook);
    const running = executor.execute({ id: 'c', name: 'Writer', input: {} });
    await client.asked.promise;
    gate.outcome.resolve({ decision: 'deny', reason: 'not on Fridays' });
    const result = await running;
    assert.equal(result.modelContent, 'Permission to use Writer was denied by PermissionRequest hook gate: not on Fridays');
    assert.deepEqual(result.permission, { outcome: 'denied', by: 'hook', detail: 'gate' });
    assert.equal(client.signal?.aborted, true, 'the losing dialog is cancelled');
    assert.equal(events.filter((event) => event.type === 'permissionResolved').length, 1);
  });

  it('user first: the answer wins, the hook is cancelled', async () => {
    const client = new ControlledClient();
    const gate = controlledHook();
    const { executor } = makeExecutor([writer()], { approvalClient: client });
    executor.hooks.register(gate.hook);
    const running = executor.execute({ id: 'c', name: 'Writer', input: {} });
    const hookSignal = await gate.started.promise;
    client.answer.resolve({ kind: 'allowOnce' });
    const result = await running;
    assert.equal(result.isError, false);
    assert.deepEqual(result.permission, { outcome: 'approved', by: 'user' });
    assert.equal(hookSignal.aborted, true, 'the losing hook is cancelled');
  });

  it('both at once: exactly one answer counts, and the call is consistent with it', async () => {
    const client = new ControlledClient();
    const gate = controlledHook();
    const { executor, events } = makeExecutor([writer()], { approvalClient: client });
    executor.hooks.register(gate.hook);
    const running = executor.execute({ id: 'c', name: 'Writer', input: {} });
    await Promise.all([client.asked.promise, gate.started.promise]);
    client.answer.resolve({ kind: 'deny', reason: 'user says no' });
    gate.outcome.resolve({ decision: 'allow' });
    const result = await running;
    const resolved = events.filter((event) => event.type === 'permissionResolved');
    assert.equal(resolved.length, 1);
    const by = resolved[0]!.type === 'permissionResolved' ? resolved[0]!.by : undefined;
    assert.equal(result.isError, by === 'user', `the winner (${by}) decided the result`);
    assert.equal(result.permission.by, by);
  });

  it('approval timeout: nobody answers, the call is denied with a clear message and both sides are cancelled', async () => {
    const client = new ControlledClient();
    const gate = controlledHook();
    const { executor } = makeExecutor([writer()], { approvalClient: client, approvalTimeoutMs: 20 });
    executor.hooks.register(gate.hook);
    const result = await executor.execute({ id: 'c', name: 'Writer', input: {} });
    assert.equal(result.modelContent, 'Permission to use Writer was denied: no answer within 20ms. The call was not run.');
    assert.deepEqual(result.permission, { outcome: 'denied', by: 'executor' });
    assert.equal(client.signal?.aborted, true);
    assert.equal((await gate.started.promise).aborted, true);
  });

  it('a hook that gives no decision leaves the answer to the user', async () => {
    const client = new ControlledClient();
    const { executor } = makeExecutor([writer()], { approvalClient: client });
    const hookDone = deferred();
    executor.hooks.register({ name: 'silent', event: 'PermissionRequest', run: () => (hookDone.resolve(), { additionalContext: 'seen by gate' }) });
    const running = executor.execute({ id: 'c', name: 'Writer', input: {} });
    await Promise.all([client.asked.promise, hookDone.promise]);
    await tick(); // let the chain hand its (empty) verdict over before the user answers
    client.answer.resolve({ kind: 'allowOnce' });
    const result = await running;
    assert.deepEqual(result.permission, { outcome: 'approved', by: 'user' });
    assert.match(result.modelContent, /\[Hook additional context\]\n1\. seen by gate$/);
  });

  it('the turn is aborted while waiting: cancelled, nobody left hanging', async () => {
    const client = new ControlledClient();
    const gate = controlledHook();
    const { executor } = makeExecutor([writer()], { approvalClient: client });
    executor.hooks.register(gate.hook);
    const turn = new AbortController();
    const running = executor.execute({ id: 'c', name: 'Writer', input: {} }, { signal: turn.signal });
    await Promise.all([client.asked.promise, gate.started.promise]);
    turn.abort();
    const result = await running;
    assert.equal(result.errorKind, 'cancelled');
    assert.equal(client.signal?.aborted, true);
    assert.equal((await gate.started.promise).aborted, true);
  });

  it('"allow for this session" is offered only for ordinary asks and adds a session rule', async () => {
    const requests: ApprovalRequest[] = [];
    const client: ApprovalClient = {
      requestApproval: (request) => {
        requests.push(request);
        return Promise.resolve({ kind: 'allowSession' });
      },
    };
    const { executor } = makeExecutor([writer(), tool('Always', { readOnly: false, sideEffectScope: 'workspace', permission: { alwaysAsk: true } })], { approvalClient: client });
    await executor.execute({ id: 'a', name: 'Writer', input: {} });
    await executor.execute({ id: 'b', name: 'Writer', input: {} });
    assert.equal(requests.length, 1, 'the second call is allowed by the session rule');
    await executor.execute({ id: 'c', name: 'Always', input: {} });
    await executor.execute({ id: 'd', name: 'Always', input: {} });
    assert.equal(requests.length, 3, 'alwaysAsk asks every time');
    assert.deepEqual(requests.map((request) => request.sessionAllowed), [true, false, false]);
  });
});
