import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it, mock } from 'node:test';
// The module itself, whose methods the recorder calls through (`import *` gives a copy of it).
import nodeFs = require('node:fs');
import type { CallRecordEntry, SessionRecordEntry } from '../../../../src/executor/results/sessionRecord';
import { NodeArtifactStore } from '../../../../src/node/artifacts/nodeArtifactStore';
import { JsonlSessionRecorder } from '../../../../src/node/sessionRecord/jsonlSessionRecorder';
import { makeExecutor, tool } from '../../executor/fixtures';

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('JsonlSessionRecorder', () => {
  it('writes one 0600 JSONL file per session: a header, then one entry per call, enough to replay', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'record-'));
    roots.push(root);
    const recorder = new JsonlSessionRecorder({ dir: root, sessionId: 'test-session', workspaceFolders: ['/w'] });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const { executor } = makeExecutor(
      [
        tool('Echo'),
        tool('Fails', { handler: () => ({ content: 'nope', isError: true }) }),
        tool('Shot', { handler: () => ({ content: 'see image', media: [{ kind: 'image', mimeType: 'image/png', data: png }] }) }),
      ],
      { sessionRecorder: recorder, artifactStore: new NodeArtifactStore({ root: path.join(root, 'store') }) },
    );
    const results = await executor.executeBatch([
      { id: '1', name: 'Echo', input: { text: 'hello' } },
      { id: '2', name: 'Fails', input: {} },
      { id: '3', name: 'Missing', input: {} },
      { id: '4', name: 'Shot', input: {} },
    ]);
    await recorder.flush();
    assert.equal(statSync(recorder.file).mode & 0o777, 0o600);
    assert.equal(path.basename(recorder.file), 'test-session.jsonl');
    const entries = readFileSync(recorder.file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as SessionRecordEntry);
    assert.equal(entries[0]!.type, 'session');
    const calls = entries.slice(1) as CallRecordEntry[];
    assert.deepEqual(calls.map((entry) => entry.callId).sort(), ['1', '2', '3', '4']);
    for (const entry of calls) {
      const result = results.find((r) => r.callId === entry.callId)!;
      assert.equal(entry.modelContent, result.modelContent, 'the exact model content, for replay');
      assert.equal(entry.isError, result.isError);
    }
    const echo = calls.find((entry) => entry.callId === '1')!;
    assert.deepEqual(echo.input, { text: 'hello' });
    assert.equal(echo.text, 'hello');
    assert.equal(echo.metadata.strategy, 'inline');
    const missing = calls.find((entry) => entry.callId === '3')!;
    assert.equal(missing.modelContent, 'unknown tool: Missing');
    assert.equal(missing.errorKind, 'invocation');
    const shot = calls.find((entry) => entry.callId === '4')!;
    assert.equal(shot.media?.[0]?.mimeType, 'image/png');
    assert.match(shot.media![0]!.artifact!.uri, /^executor-artifact:\/\/test-session\/4-tool-result-.*\.png$/);
    assert.deepEqual([...readFileSync(shot.media![0]!.artifact!.path)], [...png]);
  });
});

describe('JsonlSessionRecorder: writing', () => {
  const entry = (callId: string, text: string | undefined, modelContent = text ?? ''): CallRecordEntry => ({
    type: 'call',
    version: 1,
    sessionId: 's',
    at: '2026-01-01T00:00:00.000Z',
    callId,
    name: 'Read',
    input: { path: `"${callId}"\t\u2028` },
    isError: false,
    errorKind: null,
    modelContent,
    ...(text === undefined ? {} : { text }),
    metadata: {
      truncated: false,
      strategy: 'inline',
      originalBytes: 0,
      modelBytes: 0,
      artifact: undefined,
      changes: [],
      stopTurn: false,
      permission: { outcome: 'none' },
      timing: { totalMs: 0, permissionWaitMs: 0, queuedMs: 0, startMs: null, endMs: null },
      failure: undefined,
    },
  });

  it('appends entries recorded at once in order, each as it was recorded; flush waits for them; close ends the file, a later entry opens it again', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'record-'));
    roots.push(root);
    const recorder = new JsonlSessionRecorder({ dir: root, sessionId: 'burst' });
    const recorded = Array.from({ length: 200 }, (_, i) =>
      i % 3 === 0 ? entry(`c${i}`, `line "${i}"\n\ttab ☃`) : i % 3 === 1 ? entry(`c${i}`, undefined, 'only the model content') : entry(`c${i}`, 'text', 'other model content'),
    );
    const written = recorded.map((one) => recorder.record(one));
    await recorder.flush();
    await Promise.all(written);
    await recorder.close();
    await recorder.record(entry('after', 'after close'));
    await recorder.close();
    const lines = readFileSync(recorder.file, 'utf8').split('\n');
    assert.equal(lines.pop(), '', 'every line ends');
    const entries = lines.map((line) => JSON.parse(line) as SessionRecordEntry);
    assert.equal(entries[0]!.type, 'session');
    assert.deepEqual(entries.slice(1), [...recorded, entry('after', 'after close')].map((one) => JSON.parse(JSON.stringify(one))));
  });

  it('lines recorded during a write wait for others before the next write, as the first line did', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'record-'));
    roots.push(root);
    // The waits and the writes are held until the test lets them go.
    const waits: Array<() => void> = [];
    const recorder = new JsonlSessionRecorder({ dir: root, sessionId: 'gated', wait: () => new Promise<void>((resolve) => waits.push(resolve)) });
    const held: Array<() => void> = [];
    const texts: string[] = [];
    const realWrite = nodeFs.write;
    mock.method(nodeFs, 'write', (...args: unknown[]) => {
      const done = args.pop() as (...result: unknown[]) => void;
      texts.push(String(args[1]));
      (realWrite as (...all: unknown[]) => void)(...args, (...result: unknown[]) => held.push(() => done(...result)));
    });
    const until = async (what: string, done: () => boolean) => {
      for (let turn = 0; !done(); turn++) {
        assert.ok(turn < 10_000, `waited for ${what}`);
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    try {
      const recorded = [recorder.record(entry('c1', 'one'))];
      await until('the header', () => held.length === 1);
      held.shift()!();
      await until('the first wait', () => waits.length === 1);
      waits.shift()!();
      await until("c1's write", () => held.length === 1);
      recorded.push(recorder.record(entry('c2', 'two')), recorder.record(entry('c3', 'three')));
      held.shift()!();
      await until('the second wait', () => waits.length === 1);
      assert.equal(texts.length, 2, 'nothing is written while the batch waits');
      recorded.push(recorder.record(entry('c4', 'four')));
      waits.shift()!();
      await until('the batch', () => held.length === 1);
      held.shift()!();
      await Promise.all(recorded);
    } finally {
      mock.restoreAll();
    }
    assert.deepEqual(
      texts.map((text) => text.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { callId?: string; type: string }).callId ?? 'header')),
      [['header'], ['c1'], ['c2', 'c3', 'c4']],
    );
  });

  it('records an entry as it was when recorded, whatever happens to its objects before the write', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'record-'));
    roots.push(root);
    const recorder = new JsonlSessionRecorder({ dir: root, sessionId: 'snapshot' });
    const one = entry('c1', 'the text');
    const written = recorder.record(one);
    (one.metadata.timing as { totalMs: number }).totalMs = 99;
    (one.input as { path: string }).path = 'changed';
    await written;
    await recorder.close();
    const [, line] = readFileSync(recorder.file, 'utf8').split('\n');
    const recorded = JSON.parse(line!) as CallRecordEntry;
    assert.equal(recorded.metadata.timing.totalMs, 0);
    assert.deepEqual(recorded.input, { path: '"c1"\t\u2028' });
    assert.equal(recorded.text, 'the text');
  });

  it('a session file found with a wider mode is made owner-only', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'record-'));
    roots.push(root);
    const recorder = new JsonlSessionRecorder({ dir: root, sessionId: 'wide' });
    writeFileSync(recorder.file, '', { mode: 0o644 });
    chmodSync(recorder.file, 0o644);
    await recorder.record(entry('c1', 'x'));
    await recorder.close();
    assert.equal(statSync(recorder.file).mode & 0o777, 0o600);
  });
});
