// Fuzzing the bridge's framing (fast-check, a fixed seed, a bounded number of runs): random requests mixed with
// random and cut headers and bodies, split into random chunks, fed to `serveConnection` on an in-memory stdin.
// It never hangs; every request framed before the first broken frame is answered exactly once; the server
// either goes on and answers every request, or ends with a framing error said to the agent and logged.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { serveConnection } from '../../../src/cli/serve';
import { ToolExecutor } from '../../../src/executor/executor';
import type { Logger } from '../../../src/executor/ports/logger';
import { FrameParser, frame, hangGuard, request } from './frames';

/** Runs and seed: bounded and repeatable. */
const RUNS = 300;
const SEED = 46;
/** Generous: a hang is what fails, not a slow machine. */
const HANG_GUARD_MS = 10_000;

let dir: string;
before(() => (dir = mkdtempSync(join(tmpdir(), 'tool-exec-fuzz-'))));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Piece {
  readonly bytes: Buffer;
  /** The framing is intact after it. */
  readonly clean: boolean;
  /** A request's id: it is owed an answer. */
  readonly id?: number;
}

const METHODS = ['executor/listTools', 'initialize', 'executor/nope', 'executor/endTurn', 'executor/cancelTurn'];

const body = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.uint8Array({ maxLength: 60 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.json({ maxDepth: 2 }),
);

const piece: fc.Arbitrary<(id: number) => Piece> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...METHODS).map((method) => (id: number) => ({ bytes: frame(request(id, method, method === 'initialize' ? { protocolVersion: 1 } : {})), clean: true, id })) },
  { weight: 2, arbitrary: fc.constant(() => ({ bytes: frame({ jsonrpc: '2.0', method: 'executor/whatever', params: {} }), clean: true })) },
  { weight: 2, arbitrary: body.map((text) => () => ({ bytes: frame(text), clean: true })) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.constant('Content-Type: application/json\r\n\r\n'),
        fc.integer({ min: -1_000_000, max: -1 }).map((length) => `Content-Length: ${length}\r\n\r\n`),
        fc.constant('Content-Length: 2147483648\r\n\r\n'),
        fc.string({ maxLength: 40 }).map((text) => `${text}\r\n\r\n`),
        fc.string({ maxLength: 20 }).map((text) => `Content-Length: ${text}\r\n\r\n`),
      )
      .map((header) => (id: number) => ({ bytes: frame(request(id), header), clean: false })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: -40, max: 40 }).filter((delta) => delta !== 0).map((delta) => (id: number) => {
      const text = JSON.stringify(request(id));
      return { bytes: frame(text, `Content-Length: ${Math.max(0, Buffer.byteLength(text) + delta)}\r\n\r\n`), clean: false };
    }),
  },
  {
    weight: 1,
    arbitrary: fc.nat().map((cut) => (id: number) => {
      const bytes = frame(request(id));
      return { bytes: bytes.subarray(0, cut % bytes.length), clean: false };
    }),
  },
);

async function run(makers: readonly ((id: number) => Piece)[], chunkSizes: readonly number[]): Promise<void> {
  const pieces = makers.map((make, index) => make(index + 1));
  const stream = Buffer.concat(pieces.map((item) => item.bytes));
  const stdin = new PassThrough();
  const parser = new FrameParser();
  const errors: string[] = [];
  const logger: Logger = { debug() {}, info() {}, warn() {}, error: (message, fields) => void errors.push(`${message} ${JSON.stringify(fields)}`) };
  const executor = new ToolExecutor({ workspaceFolders: [dir] });
  try {
    const served = serveConnection(executor, { stdin, stdout: { write: (text) => parser.push(text) }, logger, signal: new AbortController().signal });
    let at = 0;
    for (let index = 0; at < stream.length; index++) {
      const size = chunkSizes.length === 0 ? stream.length : chunkSizes[index % chunkSizes.length]!;
      stdin.write(stream.subarray(at, at + size));
      at += size;
      if (index % 3 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    stdin.end();
    const ended = await hangGuard(served, HANG_GUARD_MS, 'serveConnection');
    const answers = parser.answers;
    const ids = answers.map((answer) => answer.id).filter((id) => id !== null);
    assert.equal(new Set(ids).size, ids.length, 'no request is answered twice');
    const sent = new Set(pieces.map((item, index) => index + 1));
    for (const id of ids) assert.ok(typeof id === 'number' && sent.has(id), `an answer to ${id}, never sent`);
    const firstBroken = pieces.findIndex((item) => !item.clean);
    const owed = (firstBroken < 0 ? pieces : pieces.slice(0, firstBroken)).filter((item) => item.id !== undefined);
    for (const item of owed) assert.ok(ids.includes(item.id!), `request ${item.id} (before any broken frame) is answered`);
    if (ended.framing === undefined) {
      for (const item of pieces) if (item.id !== undefined && item.clean) assert.ok(ids.includes(item.id), `request ${item.id} is answered`);
    } else {
      assert.ok(answers.some((answer) => answer.id === null && /framing error/.test(answer.error?.message ?? '')), 'the agent is told');
      assert.ok(errors.some((line) => line.startsWith('serve.framing_error')), 'the log says why');
    }
  } finally {
    await executor.dispose();
  }
}

describe('bridge framing (fuzz)', () => {
  it('random and cut headers and bodies never hang, and every request is answered or the framing error said', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 12 }), fc.array(fc.integer({ min: 1, max: 300 }), { maxLength: 5 }), run),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
