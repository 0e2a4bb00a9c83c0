// A turn's size is bounded (MAX_TURN_CALLS): a batch or offers beyond it are refused with a clear error, before
// any call of a too-large batch runs; the limit itself is served.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResponseError } from 'vscode-jsonrpc';
import { MAX_TURN_CALLS } from '../../../src/bridge/params';
import { BridgeErrorCodes, type EventParams, type TurnResultsResponse } from '../../../src/bridge/protocol';
import { BridgeService } from '../../../src/bridge/service';
import { ToolExecutor } from '../../../src/executor/executor';

function service() {
  const executor = new ToolExecutor({ workspaceFolders: ['/'] });
  executor.registry.register({ name: 'noop', description: 'Does nothing', inputSchema: { type: 'object' }, readOnly: true, concurrentSafe: true, sideEffectScope: 'none', handler: () => ({ content: '' }) } as never);
  const events: EventParams[] = [];
  return { executor, events, bridge: new BridgeService({ executor, notify: (params) => void events.push(params), executorInfo: { name: 'test', version: '0' }, approvals: 'settings' }) };
}

const calls = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `c${index}`, name: 'noop', input: {} }));

describe('bridge: calls per turn', () => {
  it(`executeBatch of ${MAX_TURN_CALLS + 1} calls is refused before any runs, saying the limit`, async () => {
    const { bridge, events, executor } = service();
    const answer = await bridge.executeBatch({ turnId: 'big', calls: calls(MAX_TURN_CALLS + 1) });
    assert.ok(answer instanceof ResponseError, 'refused');
    assert.equal(answer.code, BridgeErrorCodes.TooManyCalls);
    assert.match(answer.message, new RegExp(`at most ${MAX_TURN_CALLS} calls \\(got ${MAX_TURN_CALLS + 1}\\): split them`));
    assert.equal(events.length, 0, 'no turn began');
    assert.equal(bridge.openTurns, 0);
    await executor.dispose();
  });

  it(`offers beyond ${MAX_TURN_CALLS} in one turn are refused; the turn's ${MAX_TURN_CALLS} calls all get results`, async () => {
    const { bridge, executor } = service();
    bridge.beginTurn({ turnId: 't' });
    for (const call of calls(MAX_TURN_CALLS)) assert.ok(!(bridge.offer({ turnId: 't', call }) instanceof ResponseError));
    const over = bridge.offer({ turnId: 't', call: { id: 'one-more', name: 'noop', input: {} } });
    assert.ok(over instanceof ResponseError);
    assert.equal(over.code, BridgeErrorCodes.TooManyCalls);
    const answer = (await bridge.endTurn({ turnId: 't' })) as TurnResultsResponse;
    assert.equal(answer.results.length, MAX_TURN_CALLS);
    assert.ok(answer.results.every((result) => !result.isError));
    await executor.dispose();
  });
});
