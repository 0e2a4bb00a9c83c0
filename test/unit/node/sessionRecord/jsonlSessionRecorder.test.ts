import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
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
