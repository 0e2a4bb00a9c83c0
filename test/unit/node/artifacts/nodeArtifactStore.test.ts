import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { NodeArtifactStore } from '../../../../src/node/artifacts/nodeArtifactStore';

const roots: string[] = [];
function store(options: { maxTotalBytes?: number; sessionMaxAgeMs?: number } = {}): NodeArtifactStore {
  const root = mkdtempSync(path.join(tmpdir(), 'artifacts-'));
  roots.push(root);
  return new NodeArtifactStore({ root, ...options });
}
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('NodeArtifactStore', () => {
  it('writes artifacts/<session>/<callId>-tool-result-<uuid>.txt and resolves its executor-artifact URI', async () => {
    const artifacts = store();
    const ref = await artifacts.write({ sessionId: 's1', callId: 'call_1', retention: 'session', content: 'hello' });
    assert.match(ref.path, new RegExp(`${artifacts.artifactsDir}/s1/call_1-tool-result-[0-9a-f-]{36}\\.txt$`));
    assert.match(ref.uri, /^executor-artifact:\/\/s1\/call_1-tool-result-[0-9a-f-]{36}\.txt$/);
    assert.equal(readFileSync(ref.path, 'utf8'), 'hello');
    assert.equal(artifacts.resolve(ref.uri), ref.path);
    assert.equal(artifacts.resolve('executor-artifact://s1/../../etc/passwd'), undefined);
    assert.equal(artifacts.resolve('file:///etc/passwd'), undefined);
  });

  it('makes folders 0700 and files 0600', async () => {
    const artifacts = store();
    const ref = await artifacts.write({ sessionId: 's', callId: 'c', retention: 'session', content: 'x' });
    assert.equal(statSync(ref.path).mode & 0o777, 0o600);
    assert.equal(statSync(path.dirname(ref.path)).mode & 0o777, 0o700);
    assert.equal(statSync(artifacts.artifactsDir).mode & 0o777, 0o700);
  });

  it('keeps model-chosen ids inside their folder', async () => {
    const artifacts = store();
    const ref = await artifacts.write({ sessionId: '../up', callId: '../../evil/x', retention: 'session', content: 'x' });
    assert.ok(ref.path.startsWith(artifacts.artifactsDir + path.sep));
    assert.equal(path.dirname(path.dirname(ref.path)), artifacts.artifactsDir);
  });

  it('streams through a writer, and an aborted writer leaves no file', async () => {
    const artifacts = store();
    const writer = await artifacts.openWriter({ sessionId: 's', callId: 'c', retention: 'session' });
    for (let index = 0; index < 100; index++) await writer.write(`line ${index}\n`);
    const ref = await writer.close();
    assert.equal(readFileSync(ref.path, 'utf8').split('\n').length, 101);
    const aborted = await artifacts.openWriter({ sessionId: 's', callId: 'd', retention: 'session' });
    await aborted.write('partial');
    await aborted.abort();
    assert.deepEqual(
      (await import('node:fs')).readdirSync(path.dirname(ref.path)).filter((name) => name.startsWith('d-')),
      [],
    );
  });

  it('deletes temporary artifacts when the session ends and keeps the others', async () => {
    const artifacts = store();
    const temporary = await artifacts.write({ sessionId: 's', callId: 't', retention: 'temporary', content: 'x' });
    const session = await artifacts.write({ sessionId: 's', callId: 'u', retention: 'session', content: 'x' });
    const project = await artifacts.write({ sessionId: 's', callId: 'p', retention: 'project', content: 'x' });
    await artifacts.endSession('s');
    assert.equal(existsSync(temporary.path), false);
    assert.equal(artifacts.resolve(temporary.uri), undefined);
    assert.equal(existsSync(session.path), true);
    assert.equal(existsSync(project.path), true);
  });

  it("prunes other sessions' session artifacts past the age and keeps project ones", async () => {
    const artifacts = store({ sessionMaxAgeMs: 60_000 });
    const old = await artifacts.write({ sessionId: 'old', callId: 'a', retention: 'session', content: 'x' });
    const kept = await artifacts.write({ sessionId: 'old', callId: 'b', retention: 'project', content: 'x' });
    const fresh = await artifacts.write({ sessionId: 'other', callId: 'c', retention: 'session', content: 'x' });
    const current = await artifacts.write({ sessionId: 'now', callId: 'd', retention: 'session', content: 'x' });
    const longAgo = new Date(Date.now() - 3_600_000);
    utimesSync(old.path, longAgo, longAgo);
    utimesSync(current.path, longAgo, longAgo);
    await artifacts.prune('now');
    assert.equal(existsSync(old.path), false);
    assert.equal(existsSync(kept.path), true);
    assert.equal(existsSync(fresh.path), true);
    assert.equal(existsSync(current.path), true);
  });

  it('evicts the oldest artifacts first past the total size cap', async () => {
    const artifacts = store({ maxTotalBytes: 250 });
    const first = await artifacts.write({ sessionId: 's', callId: 'a', retention: 'session', content: 'a'.repeat(100) });
    const second = await artifacts.write({ sessionId: 's', callId: 'b', retention: 'session', content: 'b'.repeat(100) });
    const third = await artifacts.write({ sessionId: 't', callId: 'c', retention: 'session', content: 'c'.repeat(100) });
    assert.equal(existsSync(first.path), false);
    assert.equal(existsSync(second.path), true);
    assert.equal(existsSync(third.path), true);
    assert.equal(await artifacts.totalBytes(), 200);
  });

  it('rejects a write into a root it cannot create (the executor then truncates)', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'artifacts-')), 'a-file');
    roots.push(path.dirname(file));
    (await import('node:fs')).writeFileSync(file, 'not a folder');
    const artifacts = new NodeArtifactStore({ root: file });
    await assert.rejects(artifacts.write({ sessionId: 's', callId: 'c', retention: 'session', content: 'x' }));
  });
});

describe('NodeArtifactStore with an artifacts folder of its own (the CLI)', () => {
  it('puts session folders directly under artifactsDir, and pruning leaves other files there alone', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cli-artifacts-'));
    roots.push(dir);
    const artifacts = new NodeArtifactStore({ artifactsDir: dir, sessionMaxAgeMs: 0 });
    const ref = await artifacts.write({ sessionId: 'old', callId: 'c', retention: 'session', content: 'x' });
    assert.equal(path.dirname(path.dirname(ref.path)), dir);
    const record = path.join(dir, 'old.jsonl');
    (await import('node:fs')).writeFileSync(record, '{}\n');
    await artifacts.prune('now', Date.now() + 1000);
    assert.equal(existsSync(ref.path), false);
    assert.equal(existsSync(record), true);
  });

  it('never evicts files that are not artifacts (the CLI keeps session records in a folder here)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cli-artifacts-'));
    roots.push(dir);
    const fs = await import('node:fs');
    fs.mkdirSync(path.join(dir, 'sessions'));
    const record = path.join(dir, 'sessions', 'old.jsonl');
    fs.writeFileSync(record, 'r'.repeat(500));
    const artifacts = new NodeArtifactStore({ artifactsDir: dir, maxTotalBytes: 100 });
    await artifacts.write({ sessionId: 's', callId: 'a', retention: 'session', content: 'a'.repeat(80) });
    await artifacts.write({ sessionId: 's', callId: 'b', retention: 'session', content: 'b'.repeat(80) });
    assert.equal(existsSync(record), true);
    assert.equal(await artifacts.totalBytes(), 80);
  });

  it('resolves artifacts only: not the session records, manifests or other files kept beside them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cli-artifacts-'));
    roots.push(dir);
    const fs = await import('node:fs');
    const artifacts = new NodeArtifactStore({ artifactsDir: dir });
    const ref = await artifacts.write({ sessionId: 's', callId: 'c', retention: 'project', content: 'mine' });
    fs.mkdirSync(path.join(dir, 'sessions'));
    fs.writeFileSync(path.join(dir, 'sessions', 'other-run.jsonl'), '{"secret":"another run"}\n');
    fs.writeFileSync(path.join(dir, 's', 'notes.txt'), 'not an artifact');
    assert.ok(existsSync(path.join(dir, 's', 'retention.json')), 'the store kept its manifest');
    for (const uri of ['executor-artifact://sessions/other-run.jsonl', 'executor-artifact://s/retention.json', 'executor-artifact://s/notes.txt', 'executor-artifact://s/c-tool-result-.txt', 'executor-artifact://s/c-tool-result-x.txt']) {
      assert.equal(artifacts.resolve(uri), undefined, uri);
    }
    assert.equal(artifacts.resolve(ref.uri), ref.path);
  });
});
