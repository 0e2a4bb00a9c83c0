import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ToolDefinition } from '../../../src/executor/contract/contract';
import type { TurnEvent } from '../../../src/executor/contract/events';
import { STOP_TURN_MESSAGE } from '../../../src/executor/turn/batchRunner';
import type { SessionRecorder } from '../../../src/executor/ports/sessionRecorder';
import type { CallRecordEntry, SessionRecordEntry } from '../../../src/executor/results/sessionRecord';
import { createRedactor } from '../../../src/executor/results/redaction/patternRedactor';
import { LIVE_EVENT_INTERVAL_MS } from '../../../src/executor/results/stream/liveEvents';
import { deferred, makeExecutor, tick, tool } from './fixtures';

const allow = { requestApproval: () => Promise.resolve({ kind: 'allowOnce' as const }) };
/** A tool that needs approval and must run alone. */
const writer = (overrides: Partial<ToolDefinition> = {}) =>
  tool('Write', { readOnly: false, concurrentSafe: false, sideEffectScope: 'workspace', ...overrides });

class MemoryRecorder implements SessionRecorder {
  readonly entries: SessionRecordEntry[] = [];
  record(entry: SessionRecordEntry): Promise<void> {
    this.entries.push(entry);
    return Promise.resolve();
  }
  calls(): CallRecordEntry[] {
    return this.entries.filter((entry): entry is CallRecordEntry => entry.type === 'call');
  }
}

describe('turn: early dispatch while the model streams', () => {
  it('starts a qualifying call at once, before the reply is complete', async () => {
    const started = deferred<void>();
    const { executor } = makeExecutor([tool('Read', { handler: () => (started.resolve(), { content: 'read' }) })]);
    const turn = executor.beginTurn();
    turn.offer({ id: 'r1', name: 'Read', input: {} });
    await started.promise;
    turn.end();
    const [result] = await turn.results();
    assert.equal(result!.modelContent, 'read');
    assert.equal(result!.group, 0);
  });

  it('a read offered after a write waits for the write to end', async () => {
    const order: string[] = [];
    const writeGate = deferred<void>();
    const { executor } = makeExecutor(
      [
        tool('Read', { handler: (input: { text?: string }) => (order.push(`read ${input.text}`), { content: 'r' }) }),
        writer({ handler: async () => (order.push('write start'), await writeGate.promise, order.push('write end'), { content: 'w' }) }),
      ],
      { approvalClient: allow },
    );
    const turn = executor.beginTurn();
    turn.offer({ id: 'a', name: 'Read', input: { text: 'a' } });
    turn.offer({ id: 'w', name: 'Write', input: {} });
    turn.offer({ id: 'b', name: 'Read', input: { text: 'b' } });
    await tick(30);
    // The window closed at the write: only the first read started while streaming.
    assert.deepEqual(order, ['read a']);
    turn.end();
    await tick(20);
    assert.deepEqual(order, ['read a', 'write start']);
    writeGate.resolve();
    const results = await turn.results();
    assert.deepEqual(order, ['read a', 'write start', 'write end', 'read b']);
    assert.deepEqual(results.map((result) => result.callId), ['a', 'w', 'b']);
    assert.deepEqual(results.map((result) => result.group), [0, 1, 2]);
  });

  it('a call that needs approval is not started early, and nothing after it either', async () => {
    const ran: string[] = [];
    const { executor } = makeExecutor(
      [
        tool('Read', { handler: (input: { text?: string }) => (ran.push(input.text!), { content: 'r' }) }),
        tool('Asks', { permission: { alwaysAsk: true }, handler: () => (ran.push('asks'), { content: 'ok' }) }),
      ],
      { approvalClient: allow },
    );
    const turn = executor.beginTurn();
    turn.offer({ id: '1', name: 'Asks', input: {} });
    turn.offer({ id: '2', name: 'Read', input: { text: 'after' } });
    await tick(30);
    assert.deepEqual(ran, []);
    turn.end();
    const results = await turn.results();
    // After end() both run by the §2 rules (here: one parallel group, so in either order).
    assert.deepEqual([...ran].sort(), ['after', 'asks']);
    assert.equal(results.every((result) => !result.isError), true);
  });

  it('invalid input is not started early; it still gets its one error result in order', async () => {
    const { executor } = makeExecutor([tool('Read')]);
    const turn = executor.beginTurn();
    turn.offer({ id: '1', name: 'Read', input: '{"text": ' });
    turn.offer({ id: '2', name: 'Read', input: { text: 'x' } });
    turn.end();
    const results = await turn.results();
    assert.deepEqual(results.map((result) => [result.callId, result.errorKind]), [['1', 'invocation'], ['2', null]]);
  });

  it('reports startMs and endMs from the start of the turn, null when the handler never ran', async () => {
    const { executor } = makeExecutor([tool('Read', { handler: async () => (await tick(30), { content: 'r' }) })]);
    const turn = executor.beginTurn();
    turn.offer({ id: '1', name: 'Read', input: {} });
    turn.offer({ id: '2', name: 'Missing', input: {} });
    turn.end();
    const [read, missing] = await turn.results();
    // The start is the handler's, before its 30 ms wait, and the end after it: no bound on how long the machine takes.
    assert.ok(read!.timing.startMs !== null && read!.timing.startMs >= 0, `startMs ${read!.timing.startMs}`);
    assert.ok(read!.timing.endMs !== null && read!.timing.endMs >= read!.timing.startMs + 25, `endMs ${read!.timing.endMs}`);
    assert.equal(missing!.timing.startMs, null);
    assert.equal(missing!.timing.endMs, null);
  });

  it('refuses an offer after end(), and end() twice is harmless', async () => {
    const { executor } = makeExecutor([tool('Read')]);
    const turn = executor.beginTurn();
    turn.end();
    turn.end();
    assert.throws(() => turn.offer({ id: 'late', name: 'Read', input: {} }), /has ended/);
    assert.deepEqual(await turn.results(), []);
  });
});

describe('turn: one limiter for the whole executor', () => {
  it('never runs more than N handlers across early calls, groups and two turns at once', async () => {
    let running = 0;
    let peak = 0;
    const body = async () => {
      running++;
      peak = Math.max(peak, running);
      await tick(5);
      running--;
      return { content: 'ok' };
    };
    const { executor } = makeExecutor(
      [tool('Read', { handler: body }), tool('Grep', { concurrentSafe: true, readOnly: false, sideEffectScope: 'workspace', handler: body })],
      { maxConcurrency: 3, approvalClient: allow },
    );
    const turns = [executor.beginTurn(), executor.beginTurn()];
    for (let index = 0; index < 12; index++) {
      for (const turn of turns) turn.offer({ id: `c${index}`, name: index === 6 ? 'Grep' : 'Read', input: {} });
      if (index % 4 === 0) await tick(1);
    }
    for (const turn of turns) turn.end();
    const [first, second] = await Promise.all(turns.map((turn) => turn.results()));
    assert.equal(first!.length, 12);
    assert.equal(second!.length, 12);
    assert.ok(first!.some((result) => result.group === 0) && first!.some((result) => (result.group ?? 0) > 0), 'both early and scheduled calls ran');
    assert.equal(peak, 3);
  });

  it('emits queued before a call waits for its slot', async () => {
    const gate = deferred<void>();
    const { executor } = makeExecutor([tool('Read', { handler: async () => (await gate.promise, { content: 'ok' }) })], { maxConcurrency: 1 });
    const turn = executor.beginTurn();
    const events: TurnEvent[] = [];
    turn.onEvent((event) => events.push(event));
    turn.offer({ id: '1', name: 'Read', input: {} });
    turn.offer({ id: '2', name: 'Read', input: {} });
    await tick(20);
    assert.deepEqual(events.filter((event) => event.type === 'toolCallQueued').map((event) => 'callId' in event && event.callId), ['1', '2']);
    assert.equal(events.filter((event) => event.type === 'toolCallStarted').length, 1);
    gate.resolve();
    turn.end();
    await turn.results();
  });
});

describe('turn: cancellation', () => {
  it('cancel during the stream: the running early call ends at once, later offers are reported cancelled', async () => {
    const controller = new AbortController();
    const started = deferred<void>();
    const { executor } = makeExecutor([tool('Read', { handler: (_input, ctx) => (started.resolve(), new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted'))))) })]);
    const turn = executor.beginTurn({ signal: controller.signal });
    turn.offer({ id: '1', name: 'Read', input: {} });
    await started.promise;
    controller.abort();
    turn.offer({ id: '2', name: 'Read', input: {} });
    turn.end();
    const results = await turn.results();
    assert.deepEqual(results.map((result) => result.errorKind), ['cancelled', 'cancelled']);
    assert.equal(results[1]!.timing.startMs, null);
  });
});

describe('turn: events', () => {
  it('events of two turns never mix: each carries its turn id, and a turn hears only its own', async () => {
    const { executor, events } = makeExecutor([tool('Read'), writer()], { approvalClient: allow });
    const turns = [executor.beginTurn(), executor.beginTurn()];
    const heard = turns.map(() => [] as TurnEvent[]);
    turns.forEach((turn, index) => turn.onEvent((event) => heard[index]!.push(event)));
    for (const [index, turn] of turns.entries()) {
      turn.offer({ id: `r${index}`, name: 'Read', input: {} });
      turn.offer({ id: `w${index}`, name: 'Write', input: {} });
      turn.end();
    }
    await Promise.all(turns.map((turn) => turn.results()));
    turns.forEach((turn, index) => {
      assert.ok(heard[index]!.length >= 8);
      assert.ok(heard[index]!.every((event) => event.turnId === turn.id));
      const callIds = heard[index]!.flatMap((event) => ('callId' in event ? [event.callId] : 'result' in event ? [event.result.callId] : []));
      assert.ok(callIds.every((id) => id.endsWith(String(index))), callIds.join());
    });
    // The executor's listeners also hear `turnStarted`, emitted before a turn's own listeners can subscribe.
    const executorHeard = events.filter((event) => 'turnId' in event && event.turnId === turns[0]!.id);
    assert.equal(executorHeard[0]!.type, 'turnStarted');
    assert.equal(executorHeard.length, heard[0]!.length + 1);
    assert.equal(heard[0]!.at(-1)!.type, 'turnEnded');
    assert.notEqual(turns[0]!.id, turns[1]!.id);
  });

  it('uses the turn\'s approval client, and gives handlers the turn\'s context', async () => {
    let seen: unknown;
    const asked: string[] = [];
    const { executor } = makeExecutor([writer({ handler: (_input, ctx) => ((seen = ctx.turn), { content: 'w' }) })], {
      approvalClient: { requestApproval: () => (asked.push('executor'), Promise.resolve({ kind: 'deny' as const })) },
    });
    const turn = executor.beginTurn({ context: { token: 42 }, approvalClient: { requestApproval: () => (asked.push('turn'), Promise.resolve({ kind: 'allowOnce' as const })) } });
    turn.offer({ id: '1', name: 'Write', input: {} });
    turn.end();
    const [result] = await turn.results();
    assert.equal(result!.isError, false);
    assert.deepEqual(asked, ['turn']);
    assert.deepEqual(seen, { id: turn.id, context: { token: 42 } });
  });

  it('sends live output redacted and coalesced: a chatty command gives few events, and all of its text', async () => {
    const secret = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`;
    const { executor } = makeExecutor(
      [
        tool('Chatty', {
          handler: async (_input, ctx) => {
            const stream = ctx.openOutputStream({ display: 'bash_output' });
            for (let index = 0; index < 500; index++) {
              await stream.write(`line ${index}${index === 250 ? ` token ${secret}` : ''}\n`);
              if (index % 100 === 0) await tick(LIVE_EVENT_INTERVAL_MS / 4);
            }
            ctx.progress(`done with ${secret}`);
            stream.close();
            return { content: '' };
          },
        }),
      ],
      { redactor: createRedactor({ env: {} }) },
    );
    const turn = executor.beginTurn();
    const output: string[] = [];
    const progress: string[] = [];
    let skipped = 0;
    turn.onEvent((event) => {
      if (event.type === 'toolCallOutput') (output.push(event.text), (skipped += event.skippedChars));
      if (event.type === 'toolCallProgress') progress.push(event.message);
    });
    turn.offer({ id: '1', name: 'Chatty', input: {} });
    turn.end();
    await turn.results();
    const text = output.join('');
    assert.ok(output.length >= 1 && output.length <= 20, `${output.length} output events`);
    assert.ok(!text.includes(secret) && !progress.join().includes(secret), 'no secret in live events');
    assert.ok(text.includes('[REDACTED'), 'the secret shows as redacted');
    assert.equal(skipped + text.length, Array.from({ length: 500 }, (_, i) => `line ${i}${i === 250 ? ' token [REDACTED:github-token]' : ''}\n`).join('').length);
    assert.deepEqual(progress.length, 1);
  });
});

describe('turn: results are final before they leave', () => {
  it('with a total budget, the session record and the events hold exactly what the model received', async () => {
    const recorder = new MemoryRecorder();
    const big = (n: number) => Array.from({ length: n }, (_, i) => `row ${i} ${'x'.repeat(40)}`).join('\n');
    const { executor, events } = makeExecutor([tool('Big', { handler: (input: { text?: string }) => ({ content: big(Number(input.text)) }) })], {
      sessionRecorder: recorder,
      maxTotalResultBytes: 6000,
    });
    const results = await executor.executeBatch([
      { id: '1', name: 'Big', input: { text: '200' } },
      { id: '2', name: 'Big', input: { text: '3' } },
      { id: '3', name: 'Big', input: { text: '100' } },
    ]);
    assert.ok(results[0]!.truncated && results[2]!.truncated && !results[1]!.truncated);
    assert.ok(results.reduce((sum, result) => sum + result.modelBytes, 0) <= 6000);
    const recorded = new Map(recorder.calls().map((entry) => [entry.callId, entry]));
    const evented = new Map(events.flatMap((event) => (event.type === 'toolCallResult' ? [[event.result.callId, event.result] as const] : [])));
    for (const result of results) {
      assert.equal(Buffer.compare(Buffer.from(recorded.get(result.callId)!.modelContent), Buffer.from(result.modelContent)), 0, `record of ${result.callId}`);
      assert.equal(recorded.get(result.callId)!.metadata.modelBytes, result.modelBytes);
      assert.equal(evented.get(result.callId)!.modelContent, result.modelContent, `event of ${result.callId}`);
    }
  });

  it('a turn-stopped call goes through finish: failed log line, span, event and session record', async () => {
    const recorder = new MemoryRecorder();
    const { executor, logger, telemetry, events } = makeExecutor(
      [tool('Stop', { concurrentSafe: false, handler: () => ({ content: 'stopping', stopTurn: true }) }), tool('Read')],
      { sessionRecorder: recorder },
    );
    const turn = executor.beginTurn();
    turn.offer({ id: '1', name: 'Stop', input: {} });
    turn.offer({ id: '2', name: 'Read', input: {} });
    turn.end();
    const results = await turn.results();
    assert.equal(results[1]!.modelContent, STOP_TURN_MESSAGE);
    assert.ok(logger.lines.some((line) => line.message === 'tool.call.failed' && line.fields?.callId === '2'));
    assert.ok(telemetry.spans.some((span) => span.attributes['tool.call_id'] === '2' && span.attributes['error.class'] === 'TurnStopped'));
    assert.ok(events.some((event) => event.type === 'toolCallFailed' && event.result.callId === '2'));
    const entry = recorder.calls().find((call) => call.callId === '2');
    assert.equal(entry?.modelContent, STOP_TURN_MESSAGE);
  });
});
