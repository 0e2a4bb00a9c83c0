import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
// The module itself, whose methods the tools call through (`import *` gives a copy of it).
import nodeFs = require('node:fs');
import type { LocalFileSystems } from '../../../src/node/runtime/localMounts';
import type { ArtifactStore } from '../../../src/executor/ports/workspace/artifactStore';
import { NodeArtifactStore } from '../../../src/node/artifacts/nodeArtifactStore';
import { READ_DEFAULT_LIMIT_LINES, READ_MAX_LINE_CHARS, READ_MAX_OUTPUT_BYTES, READ_WHOLE_FILE_MAX_BYTES } from '../../../src/tools/file/read';
import { makeWorkspace, type Workspace } from './helpers';

/** A 1×1 transparent PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** Every path local: small files are read synchronously. */
const EVERYTHING_LOCAL: LocalFileSystems = { isLocal: () => true, noRemoteMounts: () => true };
/** No path local: every file through the thread pool. */
const NOTHING_LOCAL: LocalFileSystems = { isLocal: () => false, noRemoteMounts: () => false };

// Every case both ways: what a Read returns must not depend on which way it read.
for (const [way, localFiles] of [['synchronous where local', EVERYTHING_LOCAL], ['thread pool', NOTHING_LOCAL]] as const) describe(`Read (${way})`, () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = makeWorkspace({ tools: { localFiles } });
  });
  afterEach(() => ws.dispose());

  it('reads a file through a symlink, and refuses a FIFO without opening it', async () => {
    ws.write('a.txt', 'alpha\n');
    fs.symlinkSync(ws.file('a.txt'), ws.file('link.txt'));
    assert.equal((await ws.run('Read', { path: 'link.txt' })).modelContent, '     1\talpha');
    execFileSync('mkfifo', [ws.file('pipe')]);
    // Opened, a FIFO with no writer would hold the open (or the read) for good.
    const result = await ws.run('Read', { path: 'pipe' });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /pipe is not a regular file\./);
  });

  it('numbers lines cat -n style and takes workspace-relative paths', async () => {
    ws.write('a.txt', 'alpha\nbeta\n');
    const result = await ws.run('Read', { path: 'a.txt' });
    assert.equal(result.isError, false);
    assert.equal(result.modelContent, '     1\talpha\n     2\tbeta');
  });

  it('reads the first 2000 lines by default and says where to continue', async () => {
    ws.write('long.txt', Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n'));
    const result = await ws.run('Read', { path: ws.file('long.txt') });
    const lines = result.modelContent.split('\n');
    assert.equal(lines[READ_DEFAULT_LIMIT_LINES - 1], `  2000\tline 2000`);
    assert.match(result.modelContent, /\[Showing lines 1-2000 of 2500; continue with offset=2001\.\]$/);
  });

  it('pages with offset and limit in lines', async () => {
    ws.write('long.txt', Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n'));
    const result = await ws.run('Read', { path: 'long.txt', offset: 10, limit: 3 });
    assert.equal(result.modelContent.split('\n').slice(0, 3).join('\n'), '    10\tline 10\n    11\tline 11\n    12\tline 12');
    assert.match(result.modelContent, /lines 10-12 of 50; continue with offset=13/);
  });

  it('reports an offset past the end as an error', async () => {
    ws.write('short.txt', 'one\ntwo\n');
    const result = await ws.run('Read', { path: 'short.txt', offset: 9 });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /has 2 lines; offset 9 is past the end/);
  });

  it('cuts lines longer than 2000 chars and marks them', async () => {
    ws.write('wide.txt', `${'x'.repeat(5000)}\nshort`);
    const result = await ws.run('Read', { path: 'wide.txt' });
    const first = result.modelContent.split('\n')[0]!;
    assert.equal(first, `     1\t${'x'.repeat(READ_MAX_LINE_CHARS)}… [line cut: 5000 chars]`);
  });

  it('stops at its byte cap on a line boundary and says where to continue', async () => {
    ws.write('big.txt', Array.from({ length: 1900 }, () => 'y'.repeat(199)).join('\n'));
    const result = await ws.run('Read', { path: 'big.txt' });
    assert.ok(Buffer.byteLength(result.modelContent) <= READ_MAX_OUTPUT_BYTES + 200);
    assert.match(result.modelContent, /\[Output stopped at 100\.0 KB after line (\d+) of 1900; continue with offset=\d+\.\]$/);
  });

  it('shows CRLF files without carriage returns and drops a BOM', async () => {
    ws.write('crlf.txt', '\uFEFFone\r\ntwo\r\n');
    const result = await ws.run('Read', { path: 'crlf.txt' });
    assert.equal(result.modelContent, '     1\tone\n     2\ttwo');
  });

  it('shows a Latin-1 file as Latin-1, not as replacement characters', async () => {
    ws.write('latin.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const result = await ws.run('Read', { path: 'latin.txt' });
    assert.equal(result.modelContent, '     1\tcafé');
  });

  it('normalises file_path to path in resolveInput, so the handler and events see path', async () => {
    ws.write('a.txt', 'alpha');
    const started: unknown[] = [];
    ws.executor.onEvent((event) => {
      if (event.type === 'toolCallStarted') started.push(event.input);
    });
    const result = await ws.run('Read', { file_path: 'a.txt' });
    assert.equal(result.modelContent, '     1\talpha');
    assert.deepEqual(started, [{ path: 'a.txt' }]);
  });

  it('fails with the field name when neither path nor file_path is given', async () => {
    const result = await ws.run('Read', {});
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /tool Read: invalid input: missing required field path/);
  });

  it('records mtime and size in the read-before-write ledger', async () => {
    const file = ws.write('a.txt', 'alpha');
    await ws.run('Read', { path: 'a.txt' });
    const stats = fs.statSync(file);
    assert.deepEqual(ws.executor.files.get(file), { mtimeMs: stats.mtimeMs, size: stats.size });
  });

  it('describes binary files instead of dumping them', async () => {
    ws.write('blob.bin', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
    const result = await ws.run('Read', { path: 'blob.bin' });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /blob\.bin is a binary file \(ELF executable, 8 B\); Read shows text and images only\./);
  });

  it('returns images as a media part', async () => {
    ws.write('dot.png', PNG);
    const result = await ws.run('Read', { path: 'dot.png' });
    assert.equal(result.isError, false);
    assert.equal(result.media?.length, 1);
    assert.equal(result.media![0]!.mimeType, 'image/png');
    assert.deepEqual(Buffer.from(result.media![0]!.data), PNG);
  });

  it('tells the model about a missing file and offers similar names', async () => {
    ws.write('config.json', '{}');
    const result = await ws.run('Read', { path: 'config.yaml' });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /File does not exist: .*config\.yaml\. Did you mean .*config\.json\?/);
  });

  it('refuses a directory and points to Glob', async () => {
    fs.mkdirSync(ws.file('sub'));
    const result = await ws.run('Read', { path: 'sub' });
    assert.match(result.modelContent, /is a directory, not a file\. Use Glob to list its files\./);
  });

  it('reports an empty file', async () => {
    ws.write('empty.txt', '');
    const result = await ws.run('Read', { path: 'empty.txt' });
    assert.equal(result.isError, false);
    assert.match(result.modelContent, /is empty: 0 lines/);
  });

  it('reads executor-artifact:// URIs through the artifact store', async () => {
    await ws.dispose();
    const saved = { path: '' };
    const store: ArtifactStore = {
      write: async () => ({ uri: 'executor-artifact://s/a1', path: saved.path }),
      resolve: (uri) => (uri === 'executor-artifact://s/a1' ? saved.path : undefined),
    };
    ws = makeWorkspace({ executor: { artifactStore: store } });
    saved.path = ws.write('spill/out.txt', 'persisted 1\npersisted 2\n');
    const result = await ws.run('Read', { path: 'executor-artifact://s/a1', offset: 2 });
    assert.equal(result.modelContent, '     2\tpersisted 2');
    const unknown = await ws.run('Read', { path: 'executor-artifact://s/nope' });
    assert.match(unknown.modelContent, /unknown artifact executor-artifact:\/\/s\/nope/);
  });

  it('pages through a result that Bash persisted, by URI and by saved path', async () => {
    await ws.dispose();
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-artifacts-'));
    ws = makeWorkspace({ executor: { artifactStore: new NodeArtifactStore({ root }) } });
    try {
      const bash = await ws.run('Bash', { command: 'seq 1 200000' });
      assert.equal(bash.strategy, 'artifact');
      const uri = bash.artifact!.uri;
      assert.ok(bash.modelContent.includes(bash.artifact!.path));
      const byUri = await ws.run('Read', { path: uri, offset: 150000, limit: 2 });
      assert.equal(byUri.modelContent.split('\n').slice(0, 2).join('\n'), '150000\t150000\n150001\t150001');
      const byPath = await ws.run('Read', { path: bash.artifact!.path, offset: 200000 });
      assert.match(byPath.modelContent, /^200000\t200000/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('is cancelled before it starts when the turn is already aborted', async () => {
    ws.write('a.txt', 'alpha');
    const controller = new AbortController();
    controller.abort();
    const result = await ws.run('Read', { path: 'a.txt' }, controller.signal);
    assert.equal(result.errorKind, 'cancelled');
  });
});

describe('Read of a small local file', () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = makeWorkspace({ tools: { localFiles: EVERYTHING_LOCAL } });
  });
  afterEach(() => {
    mock.restoreAll();
    return ws.dispose();
  });

  /** The paths `fs.openSync` and `fs.open` were given while `run` ran. */
  async function opened(run: () => Promise<unknown>): Promise<{ sync: string[]; pool: string[] }> {
    const sync = mock.method(nodeFs, 'openSync');
    const pool = mock.method(nodeFs, 'open');
    try {
      await run();
    } finally {
      sync.mock.restore();
      pool.mock.restore();
    }
    return { sync: sync.mock.calls.map((call) => String(call.arguments[0])), pool: pool.mock.calls.map((call) => String(call.arguments[0])) };
  }

  it('is read synchronously at its real location, not through the thread pool', async () => {
    const target = ws.write('sub/a.txt', 'alpha\n');
    fs.symlinkSync(target, ws.file('link.txt'));
    const calls = await opened(async () => assert.equal((await ws.run('Read', { path: 'link.txt' })).modelContent, '     1\talpha'));
    assert.deepEqual(calls.sync, [target]);
    assert.deepEqual(calls.pool.filter((file) => file.startsWith(ws.dir)), []);
  });

  it('goes through the thread pool when the table does not call it local, and for an image; a large local file is opened at once and streamed', async () => {
    const notLocal = makeWorkspace({ tools: { localFiles: NOTHING_LOCAL } });
    try {
      const small = notLocal.write('a.txt', 'alpha\n');
      const calls = await opened(() => notLocal.run('Read', { path: 'a.txt' }));
      assert.deepEqual(calls, { sync: [], pool: [small] });
    } finally {
      await notLocal.dispose();
    }
    const large = ws.write('large.txt', 'x'.repeat(READ_WHOLE_FILE_MAX_BYTES + 1));
    const image = ws.write('dot.png', PNG);
    const calls = await opened(async () => {
      assert.equal((await ws.run('Read', { path: 'large.txt' })).isError, false);
      assert.equal((await ws.run('Read', { path: 'dot.png' })).media?.length, 1);
    });
    assert.deepEqual(calls, { sync: [large], pool: [image] });
  });

  it('refuses, and says why, when the descriptor opened is not on the file the policy judged', async () => {
    ws.write('a.txt', 'alpha\n');
    const readlink = nodeFs.readlinkSync;
    mock.method(nodeFs, 'readlinkSync', (file: string, ...rest: []) => (String(file).startsWith('/proc/self/fd/') ? '/somewhere/else' : readlink(file, ...rest)));
    const result = await ws.run('Read', { path: 'a.txt' });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /cannot read a\.txt: .*a\.txt changed between its permission check and its open \(it is now \/somewhere\/else\)/);
  });
});
