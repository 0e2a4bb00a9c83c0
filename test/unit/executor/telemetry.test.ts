import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeExecutor, tool } from './fixtures';

describe('telemetry and log lines', () => {
  it('records one ended span per call with outcome, bytes, failing stage and error class', async () => {
    const { executor, telemetry, logger } = makeExecutor([
      tool('Echo'),
      tool('Crash', { handler: () => { throw new RangeError('bad'); } }),
    ]);
    await executor.executeBatch([
      { id: '1', name: 'Echo', input: { text: 'hello' } },
      { id: '2', name: 'Crash', input: {} },
      { id: '3', name: 'invented_by_model', input: {} },
    ]);
    const [echo, crash, unknown] = telemetry.spans;
    assert.ok(telemetry.spans.every((span) => span.ended));
    assert.equal(echo!.attributes['tool.name'], 'Echo');
    assert.equal(echo!.attributes['permission.outcome'], 'none');
    assert.equal(echo!.attributes['output.bytes'], 5);
    assert.equal(echo!.attributes['truncated'], false);
    assert.equal(typeof echo!.attributes['total_ms'], 'number');
    assert.equal(typeof echo!.attributes['permission_wait_ms'], 'number');
    assert.equal(crash!.attributes['failure.stage'], 'handler');
    assert.equal(crash!.attributes['error.class'], 'RangeError');
    assert.equal(unknown!.attributes['tool.name'], 'unknown');
    assert.equal(unknown!.attributes['failure.stage'], 'lookup');
    const lines = logger.lines.filter((line) => line.message.startsWith('tool.call.'));
    assert.deepEqual(
      lines.map((line) => `${line.message}:${line.fields?.tool}`).sort(),
      ['tool.call.completed:Echo', 'tool.call.failed:Crash', 'tool.call.not_found:unknown', 'tool.call.started:Crash', 'tool.call.started:Echo', 'tool.call.started:unknown'],
    );
  });

  it('emits queued, started and result events in order for one call, with recomputed flags', async () => {
    const { executor, events } = makeExecutor([tool('Echo')]);
    await executor.executeBatch([{ id: '1', name: 'Echo', input: {} }]);
    assert.deepEqual(events.map((event) => event.type), ['turnStarted', 'batchGroupStarted', 'toolCallQueued', 'toolCallStarted', 'toolCallResult', 'batchGroupEnded', 'turnEnded']);
    const started = events.find((event) => event.type === 'toolCallStarted');
    assert.deepEqual(started && 'flags' in started ? started.flags : undefined, {
      readOnly: true,
      destructive: false,
      concurrentSafe: true,
      sideEffectScope: 'none',
      alwaysAsk: false,
    });
  });

  it('keeps running when an event listener throws', async () => {
    const { executor, logger } = makeExecutor([tool('Echo')]);
    executor.onEvent(() => {
      throw new Error('listener bug');
    });
    const result = await executor.execute({ id: '1', name: 'Echo', input: {} });
    assert.equal(result.isError, false);
    assert.ok(logger.messages().includes('executor.listener_failed'));
  });
});
