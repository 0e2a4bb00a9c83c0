import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { makeWorkspace, type Workspace } from './helpers';
import { until } from './processes';

/** A 1×1 transparent PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

describe('WebFetch (against a real server on 127.0.0.1)', () => {
  let server: http.Server;
  let base: string;
  let port: number;
  const hits: string[] = [];
  let hangingClosed = 0;
  let ws: Workspace;

  before(async () => {
    server = http.createServer((req, res) => {
      hits.push(`${req.headers.host}${req.url}`);
      switch (req.url) {
        case '/page':
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(
            '<html><head><title>Test  Page</title><style>body{}</style></head><body><h1>Hello</h1>' +
              '<p>Some <b>bold</b> text and <a href="/docs/x">a link</a>.</p><script>alert(1)</script></body></html>',
          );
          return;
        case '/data.json':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"ok":true}');
          return;
        case '/same-host':
          res.writeHead(302, { location: '/data.json' });
          res.end();
          return;
        case '/other-host':
          res.writeHead(301, { location: `http://localhost:${port}/data.json` });
          res.end();
          return;
        case '/loop':
          res.writeHead(302, { location: '/loop' });
          res.end();
          return;
        case '/big':
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('z'.repeat(100_000));
          return;
        case '/missing':
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('no such page');
          return;
        case '/blob':
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          res.end(Buffer.from([0, 1, 2, 3]));
          return;
        case '/dot.png':
          res.writeHead(200, { 'content-type': 'image/png' });
          res.end(PNG);
          return;
        case '/latin1':
          res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' });
          res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
          return;
        case '/hang':
          // Never answers; the connection is closed when the server stops.
          req.socket.once('close', () => hangingClosed++);
          return;
      }
      res.writeHead(500);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    hits.length = 0;
    ws = makeWorkspace();
  });
  afterEach(() => ws.dispose());

  it('converts HTML to Markdown: title kept, scripts and styles dropped, links made absolute', async () => {
    const result = await ws.run('WebFetch', { url: `${base}/page` });
    assert.equal(result.isError, false);
    assert.equal(
      result.modelContent,
      `URL: ${base}/page\nStatus: 200 OK\nContent-Type: text/html; charset=utf-8\nTitle: Test Page\n\n` +
        `# Hello\n\nSome **bold** text and [a link](${base}/docs/x).`,
    );
  });

  it('returns JSON and other text as it is', async () => {
    const result = await ws.run('WebFetch', { url: `${base}/data.json` });
    assert.match(result.modelContent, /Content-Type: application\/json\n\n\{"ok":true\}$/);
  });

  it('decodes the charset the server names', async () => {
    const result = await ws.run('WebFetch', { url: `${base}/latin1` });
    assert.match(result.modelContent, /\n\ncafé$/);
  });

  it('follows a redirect on the same host', async () => {
    const result = await ws.run('WebFetch', { url: `${base}/same-host` });
    assert.match(result.modelContent, new RegExp(`^URL: ${base}/data.json\nStatus: 200`));
  });

  it('reports a redirect to another host instead of following it', async () => {
    const result = await ws.run('WebFetch', { url: `${base}/other-host` });
    assert.equal(result.isError, false);
    assert.equal(
      result.modelContent,
      `REDIRECT: ${base}/other-host redirects (HTTP 301) to another host: http://localhost:${port}/data.json\n` +
        'It was not followed. To fetch it, call WebFetch again with that URL.',
    );
    assert.deepEqual(hits, [`127.0.0.1:${port}/other-host`]);
  });

  it('gives up on a redirect loop', async () => {
    const result = await ws.run('WebFetch', { url: `${base}/loop` });
    assert.match(result.modelContent, /redirected more than 5 times; giving up/);
  });

  it('reads at most max_bytes and says how to read more', async () => {
    const result = await ws.run('WebFetch', { url: `${base}/big`, max_bytes: 1000 });
    assert.match(result.modelContent, /\n\nz{1000}\n\n\[Content cut at 1000 B; ask for a larger max_bytes \(up to 10\.0 MB\) to read more\.\]$/);
  });

  it('marks HTTP errors as errors and shows the body', async () => {
    const result = await ws.run('WebFetch', { url: `${base}/missing` });
    assert.equal(result.isError, true);
    assert.match(result.modelContent, /Status: 404 Not Found[\s\S]*no such page/);
  });

  it('describes binary content and returns images as media', async () => {
    const blob = await ws.run('WebFetch', { url: `${base}/blob` });
    assert.match(blob.modelContent, /\(4 B of application\/octet-stream content, not shown\.\)$/);
    const image = await ws.run('WebFetch', { url: `${base}/dot.png` });
    assert.equal(image.media?.[0]?.mimeType, 'image/png');
    assert.deepEqual(Buffer.from(image.media![0]!.data), PNG);
  });

  it('times out on a server that never answers, with its own message', async () => {
    // A short timeout here alone: the other fetches answer, however loaded the machine.
    await ws.dispose();
    ws = makeWorkspace({ tools: { fetch: { timeoutMs: 300 } } });
    const result = await ws.run('WebFetch', { url: `${base}/hang` });
    assert.equal(result.isError, true);
    assert.equal(result.modelContent, `<tool_use_error>WebFetch timed out after 300ms fetching ${base}/hang.</tool_use_error>`);
  });

  it('closes the connection when the call is cancelled while it waits', async () => {
    const before = hangingClosed;
    const controller = new AbortController();
    await ws.dispose();
    ws = makeWorkspace();
    const running = ws.run('WebFetch', { url: `${base}/hang` }, controller.signal);
    await until(() => hits.includes(`127.0.0.1:${port}/hang`));
    controller.abort();
    assert.equal((await running).errorKind, 'cancelled');
    await until(() => hangingClosed === before + 1);
  });

  it('refuses other schemes and invalid URLs, and reports a refused connection', async () => {
    const file = await ws.run('WebFetch', { url: 'file:///etc/passwd' });
    assert.match(file.modelContent, /WebFetch fetches http and https URLs only, not file\./);
    const invalid = await ws.run('WebFetch', { url: 'not a url' });
    assert.match(invalid.modelContent, /"not a url" is not a valid URL/);
    const closed = new http.Server();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await ws.run('WebFetch', { url: `http://127.0.0.1:${closedPort}/` });
    assert.match(refused.modelContent, /cannot fetch http:\/\/127\.0\.0\.1:\d+\/: .*ECONNREFUSED/);
  });
});
