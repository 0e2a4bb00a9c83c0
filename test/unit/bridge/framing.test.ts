// `tool-exec serve --stdio` with broken framing, over real pipes: a frame it cannot read is answered, or the
// server exits with a message; it never goes on out of step, and never buffers an announced body it refuses.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { FrameParser, frame, hangGuard, request } from './frames';

const ROOT = join(__dirname, '..', '..', '..', '..');
const CLI = join(ROOT, 'out', 'src', 'cli', 'main.js');
/** Generous: a hang is what fails, not a slow machine. */
const HANG_GUARD_MS = 20_000;

let dir: string;
before(() => (dir = mkdtempSync(join(tmpdir(), 'tool-exec-framing-'))));
after(() => rmSync(dir, { recursive: true, force: true }));

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function serve() {
  const child = spawn(process.execPath, [CLI, 'serve', '--stdio', '--workspace', dir], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  const parser = new FrameParser();
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => parser.push(chunk));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin!.on('error', () => {});
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const initialize = frame(request(0, 'initialize', { protocolVersion: 1 }));
  child.stdin!.write(initialize);
  return {
    child,
    parser,
    exited,
    stderr: () => stderr,
    send: (...bytes: Buffer[]) => child.stdin!.write(Buffer.concat(bytes)),
    answered: (id: number | null) => parser.answers.find((answer) => answer.id === id),
  };
}

async function answerOf(server: ReturnType<typeof serve>, id: number | null) {
  await hangGuard(
    (async () => {
      while (!server.answered(id)) await new Promise((resolve) => setTimeout(resolve, 10));
    })(),
    HANG_GUARD_MS,
    `an answer to ${id}`,
  );
  return server.answered(id)!;
}

describe('tool-exec serve: framing it cannot read', () => {
  const fatal: Array<[string, Buffer, RegExp]> = [
    ['a frame without Content-Length', frame(request(1), 'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n'), /without a Content-Length/],
    ['a negative Content-Length', frame(request(1), 'Content-Length: -5\r\n\r\n'), /whole number/],
    ['a Content-Length that is not a number', frame(request(1), 'Content-Length: 12abc\r\n\r\n'), /whole number/],
  ];
  for (const [name, bytes, why] of fatal) {
    it(`${name}: a framing error is answered, said on stderr, and the server exits`, async () => {
      const server = serve();
      server.send(bytes, frame(request(2)));
      const code = await hangGuard(server.exited, HANG_GUARD_MS, 'the server\'s exit');
      assert.equal(code, 2);
      assert.match(server.stderr(), why);
      const error = server.answered(null);
      assert.match(error?.error?.message ?? '', /framing error/);
      assert.ok(server.answered(0)?.result, 'initialize, read before, was answered');
    });
  }

  it('a Content-Length 10 bytes short: the cut body is answered as a parse error, then the server exits with a message', async () => {
    const server = serve();
    const whole = frame(request(1));
    const length = whole.length - whole.indexOf('\r\n\r\n') - 4;
    server.send(frame(JSON.stringify(request(1)), `Content-Length: ${length - 10}\r\n\r\n`), frame(request(2)));
    const code = await hangGuard(server.exited, HANG_GUARD_MS, 'the server\'s exit');
    assert.equal(code, 2);
    assert.ok(server.parser.answers.some((answer) => answer.error?.code === -32700 && /not JSON/.test(answer.error.message)));
    assert.match(server.stderr(), /framing/);
  });

  it('a 2 GB Content-Length is refused at its header: the body is not read, the server exits with a message', async () => {
    const server = serve();
    server.send(Buffer.from('Content-Length: 2147483648\r\n\r\n'), Buffer.alloc(1024 * 1024, 'x'));
    // stdin stays open: the refusal comes from the header, not from the end of the stream.
    const code = await hangGuard(server.exited, HANG_GUARD_MS, 'the server\'s exit');
    assert.equal(code, 2);
    assert.match(server.stderr(), /over the limit of 33554432 bytes/);
  });

  it('a body that is not JSON, a batch, or an id that is not one: each answered, and the next request still is', async () => {
    const server = serve();
    server.send(frame('{not json'), frame([request(5)]), frame({ jsonrpc: '2.0', id: null, method: 'executor/listTools' }), frame({ jsonrpc: '2.0', method: '$/cancelRequest' }), frame(request(2)));
    const answer = await answerOf(server, 2);
    assert.ok(answer.result, JSON.stringify(answer));
    const errors = server.parser.answers.filter((message) => message.id === null).map((message) => message.error?.code);
    assert.deepEqual(errors, [-32700, -32600, -32600, -32600]);
    assert.equal(server.child.exitCode, null, 'still serving');
    server.child.stdin!.end();
    assert.equal(await hangGuard(server.exited, HANG_GUARD_MS, 'the server\'s exit'), 0);
  });
});
