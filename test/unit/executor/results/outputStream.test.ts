import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { MAX_ENVELOPE_BYTES } from '../../../../src/executor/results/budget';
import type { ToolContext, ToolDefinition } from '../../../../src/executor/contract/contract';
import type { ArtifactStore } from '../../../../src/executor/ports/workspace/artifactStore';
import { BASH_OUTPUT_MAX_BYTES } from '../../../../src/executor/results/displays/commandOutput';
import { createRedactor } from '../../../../src/executor/results/redaction/patternRedactor';
import { ARTIFACT_MIN_WRITE_BYTES, OutputCollector } from '../../../../src/executor/results/stream/outputStream';
import { TailBuffer } from '../../../../src/executor/results/stream/tailBuffer';
import { NodeArtifactStore } from '../../../../src/node/artifacts/nodeArtifactStore';
import { ModePolicy } from '../../../../src/executor/policy/modePolicy';
import { makeExecutor as makeBaseExecutor, tool } from '../fixtures';

const makeExecutor: typeof makeBaseExecutor = (tools, options = {}) =>
  makeBaseExecutor(tools, { permissionPolicy: new ModePolicy('bypass'), ...options });
import { plantedText, PLANTED } from './secrets';
import { random } from '../random';

const roots: string[] = [];
function artifactStore(): NodeArtifactStore {
  const root = mkdtempSync(path.join(tmpdir(), 'stream-'));
  roots.push(root);
  return new NodeArtifactStore({ root });
}
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A Bash-like tool: streams `lines` numbered lines in chunks of `chunkLines`, then returns `trailer`. */
function streamer(name: string, lines: number, options: { chunkLines?: number; trailer?: string; secretEvery?: number; budget?: number } = {}): ToolDefinition {
  return tool(name, {
    readOnly: false,
    sideEffectScope: 'workspace',
    resultBudget: { maxModelBytes: options.budget ?? 30_000, strategy: 'artifact' },
    handler: async (_input: unknown, ctx: ToolContext) => {
      const stream = ctx.openOutputStream({ display: 'bash_output' });
      const chunkLines = options.chunkLines ?? 1000;
      for (let start = 0; start < lines; start += chunkLines) {
        let chunk = '';
        for (let line = start; line < Math.min(lines, start + chunkLines); line++) {
          chunk += options.secretEvery && line % options.secretEvery === 0 ? `${plantedText()}\n` : `line ${line} of the build\n`;
        }
        // Bytes, cut in the middle of the chunk, to split lines and secrets across writes.
        const bytes = Buffer.from(chunk);
        await stream.write(bytes.subarray(0, bytes.length >> 1));
        await stream.write(bytes.subarray(bytes.length >> 1));
      }
      stream.close({ exitCode: 0 });
      return { content: options.trailer ?? '' };
    },
  });
}

describe('streamed output', () => {
  it('is persisted whole (redacted) when past the spill size, and the model gets the envelope', async () => {
    const store = artifactStore();
    const { executor } = makeExecutor([streamer('Bash', 200_000, { secretEvery: 5000, trailer: 'Exit code: 0' })], {
      artifactStore: store,
      redactor: createRedactor(),
    });
    const result = await executor.execute({ id: 'b1', name: 'Bash', input: {} });
    assert.equal(result.isError, false);
    assert.equal(result.strategy, 'artifact');
    assert.ok(result.artifact);
    const saved = readFileSync(result.artifact.path, 'utf8');
    assert.ok(saved.startsWith('line 0 of the build\n') === false); // line 0 carries the planted secrets
    assert.ok(saved.endsWith('line 199999 of the build\nExit code: 0'), saved.slice(-80));
    for (const { secret } of PLANTED) {
      assert.ok(!saved.includes(secret), `artifact leaks ${secret}`);
      assert.ok(!result.modelContent.includes(secret), `model content leaks ${secret}`);
      assert.ok(!JSON.stringify(result.display).includes(secret), `display leaks ${secret}`);
    }
    assert.equal(result.originalBytes, Buffer.byteLength(saved));
    assert.match(result.modelContent, /^<persisted-output>\nResult too large \(\d+ chars, [\d.]+ MB\)\. Full output was saved to: /);
    assert.ok(result.modelBytes <= 30_000 + MAX_ENVELOPE_BYTES);
    assert.equal(result.display?.kind, 'bash_output');
    if (result.display?.kind === 'bash_output') {
      assert.ok(Buffer.byteLength(result.display.output) <= BASH_OUTPUT_MAX_BYTES);
      assert.equal(result.display.truncated, true);
      assert.equal(result.display.exitCode, 0);
      assert.ok(result.display.output.endsWith('Exit code: 0'));
    }
  });

  it('persists long chunks (redacted in pieces, joined only at a seam) as whole-text redaction redacts the output', async () => {
    // Chunks of 40-100 Ki chars, each with planted secrets around 16 Ki chars in, where the redaction stream's seam ends.
    const chunks: string[] = [];
    const next = random(71);
    for (let index = 0; index < 12; index++) {
      const size = 40_000 + Math.floor(next() * 60_000);
      const around = 16_384 - 40 + Math.floor(next() * 80);
      const planted = `${plantedText()}\n`;
      const before = 'log line before\n'.repeat(Math.ceil(around / 16)).slice(0, around);
      chunks.push((before + planted + 'log line after\n'.repeat(Math.ceil(size / 15))).slice(0, size));
    }
    const output = chunks.join('');
    const pieces = tool('Bash', {
      readOnly: false,
      sideEffectScope: 'workspace',
      resultBudget: { maxModelBytes: 30_000, strategy: 'artifact' },
      handler: async (_input: unknown, ctx: ToolContext) => {
        const stream = ctx.openOutputStream({ display: 'bash_output' });
        for (const chunk of chunks) await stream.write(Buffer.from(chunk));
        stream.close({ exitCode: 0 });
        return { content: '' };
      },
    });
    const redactor = createRedactor();
    const { executor } = makeExecutor([pieces], { artifactStore: artifactStore(), redactor });
    const result = await executor.execute({ id: 'b-seam', name: 'Bash', input: {} });
    assert.ok(result.artifact);
    assert.equal(readFileSync(result.artifact.path, 'utf8'), redactor.redact(output));
  });

  it('keeps small streams whole and inline, with no display', async () => {
    const { executor } = makeExecutor([streamer('Bash', 10, { trailer: 'Exit code: 0' })], { artifactStore: artifactStore() });
    const result = await executor.execute({ id: 'b2', name: 'Bash', input: {} });
    assert.equal(result.strategy, 'inline');
    assert.equal(result.modelContent, `${Array.from({ length: 10 }, (_, i) => `line ${i} of the build`).join('\n')}\nExit code: 0`);
    assert.equal(result.display, undefined);
  });

  it('truncates from head, tail and counts when there is no artifact store, with exact line numbers', async () => {
    const { executor } = makeExecutor([streamer('Bash', 100_000, { budget: 3000 })]);
    const result = await executor.execute({ id: 'b3', name: 'Bash', input: {} });
    assert.equal(result.strategy, 'truncate');
    const marker = /\.\.\.\[truncated (\d+) chars; showing lines 1-(\d+) and (\d+)-(\d+) of (\d+) total; use read with offset=(\d+) to see middle\]\.\.\./.exec(result.modelContent);
    assert.ok(marker, result.modelContent);
    assert.equal(marker[5], '100001');
    assert.equal(Number(marker[6]), Number(marker[2]) + 1);
    const lines = result.modelContent.split('\n');
    assert.equal(lines[Number(marker[2]) - 1], `line ${Number(marker[2]) - 1} of the build`);
    assert.equal(lines.at(-2), 'line 99999 of the build');
    // The line after the marker is line number marker[3] of the output.
    const afterMarker = lines[lines.findIndex((line) => line.startsWith('...[truncated')) + 1];
    assert.equal(afterMarker, `line ${Number(marker[3]) - 1} of the build`);
    assert.ok(result.modelBytes <= 3000 + MAX_ENVELOPE_BYTES);
  });

  it('falls back to truncation with a note when the artifact write fails, and the call still succeeds', async () => {
    const failing: ArtifactStore = {
      write: () => Promise.reject(new Error('disk full')),
      openWriter: async () => {
        let written = 0;
        return {
          write: async (text) => {
            written += text.length;
            if (written > 100_000) throw new Error('disk full');
          },
          close: () => Promise.reject(new Error('not reached')),
          abort: async () => undefined,
        };
      },
      resolve: () => undefined,
    };
    const { executor } = makeExecutor([streamer('Bash', 100_000)], { artifactStore: failing });
    const result = await executor.execute({ id: 'b4', name: 'Bash', input: {} });
    assert.equal(result.isError, false);
    assert.equal(result.strategy, 'truncate');
    assert.match(result.modelContent, /\[The full output could not be saved: disk full\]$/);
  });

  it('writes the artifact in batches of at least ARTIFACT_MIN_WRITE_BYTES, the rest when the stream ends', async () => {
    const writes: Buffer[] = [];
    const identity = { push: (chunk: string) => chunk, end: () => '' };
    const collector = new OutputCollector({
      redaction: identity,
      spillAtChars: 20_000,
      headChars: 2000,
      tailChars: 2000,
      openArtifact: async () => ({
        write: async (bytes) => {
          writes.push(Buffer.from(bytes));
        },
        close: async () => ({ uri: 'executor-artifact://s/a', path: '/nowhere' }),
        abort: async () => undefined,
      }),
    });
    const next = random(17);
    let sent = '';
    while (sent.length < 5 * ARTIFACT_MIN_WRITE_BYTES + 12_345) {
      const chunk = `line ${sent.length} é\n`.repeat(1 + Math.floor(next() * 5000));
      sent += chunk;
      await collector.write(Buffer.from(chunk));
    }
    const collected = await collector.finish('');
    assert.equal(collected.kind, 'spilled');
    assert.equal(Buffer.concat(writes).toString(), sent);
    for (const write of writes.slice(0, -1)) assert.ok(write.length >= ARTIFACT_MIN_WRITE_BYTES, `a write of ${write.length} bytes`);
    assert.ok(writes.length <= Buffer.byteLength(sent) / ARTIFACT_MIN_WRITE_BYTES + 1, `${writes.length} writes`);
  });

  it('deletes the partial artifact of a call that failed', async () => {
    const store = artifactStore();
    const def = tool('Bash', {
      readOnly: false,
      handler: async (_input: unknown, ctx: ToolContext) => {
        const stream = ctx.openOutputStream();
        for (let index = 0; index < 100; index++) await stream.write('x'.repeat(10_000) + '\n');
        throw new Error('boom');
      },
    });
    const { executor } = makeExecutor([def], { artifactStore: store });
    const result = await executor.execute({ id: 'b5', name: 'Bash', input: {} });
    assert.equal(result.isError, true);
    assert.equal(result.modelContent, 'tool Bash crashed: boom');
    const sessionDir = path.join(store.artifactsDir, 'test-session');
    assert.deepEqual(existsSync(sessionDir) ? readdirSync(sessionDir).filter((name) => name.startsWith('b5-')) : [], []);
  });

  it('counts bytes and keeps characters whole across byte chunks', async () => {
    const def = tool('Emoji', {
      handler: async (_input: unknown, ctx: ToolContext) => {
        const stream = ctx.openOutputStream();
        const bytes = Buffer.from('héllo 😀 wörld\n'.repeat(3));
        for (let index = 0; index < bytes.length; index++) await stream.write(bytes.subarray(index, index + 1));
        assert.equal(stream.bytesWritten, bytes.length);
        return { content: '' };
      },
    });
    const { executor } = makeExecutor([def]);
    const result = await executor.execute({ id: 'e', name: 'Emoji', input: {} });
    assert.equal(result.modelContent, 'héllo 😀 wörld\n'.repeat(3));
  });

  it('returns the same stream when opened twice and drops writes after close', async () => {
    const def = tool('Twice', {
      handler: async (_input: unknown, ctx: ToolContext) => {
        const first = ctx.openOutputStream();
        assert.equal(ctx.openOutputStream(), first);
        await first.write('kept');
        first.close();
        await first.write(' dropped');
        return { content: '' };
      },
    });
    const { executor } = makeExecutor([def]);
    assert.equal((await executor.execute({ id: 't', name: 'Twice', input: {} })).modelContent, 'kept');
  });

  it('stays within budget + envelope and never splits a character, whatever the chunks (property)', async () => {
    const next = random(7);
    const alphabet = ['a', 'é', '中', '😀', '\n', ' ', 'Z', '\n\n'];
    for (let run = 0; run < 60; run++) {
      const maxModelBytes = 50 + Math.floor(next() * 5000);
      const readOnly = next() < 0.5;
      let text = '';
      const length = Math.floor(next() * (next() < 0.3 ? 200_000 : 5000));
      for (let index = 0; index < length; index++) text += alphabet[Math.floor(next() * alphabet.length)];
      const bytes = Buffer.from(text);
      const def = tool('Gen', {
        readOnly,
        sideEffectScope: readOnly ? 'none' : 'workspace',
        resultBudget: { maxModelBytes, strategy: next() < 0.5 ? 'artifact' : 'truncate', previewDirection: next() < 0.2 ? 'tail' : undefined },
        handler: async (_input: unknown, ctx: ToolContext) => {
          const stream = ctx.openOutputStream();
          for (let at = 0; at < bytes.length; ) {
            const size = 1 + Math.floor(next() * 20_000);
            await stream.write(bytes.subarray(at, at + size));
            at += size;
          }
          return { content: '' };
        },
      });
      const { executor } = makeExecutor([def], next() < 0.5 ? { artifactStore: artifactStore() } : {});
      const result = await executor.execute({ id: `p${run}`, name: 'Gen', input: {} });
      const limit = maxModelBytes * (readOnly ? 3 : 1);
      assert.ok(result.modelBytes <= limit + MAX_ENVELOPE_BYTES, `run ${run}: ${result.modelBytes} > ${limit} + envelope`);
      assert.equal(Buffer.from(result.modelContent).toString(), result.modelContent, `run ${run} split a character`);
      if (text.trim() !== '' && Buffer.byteLength(text) <= limit && !text.split('\n').some((line) => line.length > 10_000)) {
        assert.equal(result.modelContent, text, `run ${run}: a small stream is kept whole`);
      }
      if (result.artifact) assert.equal(readFileSync(result.artifact.path, 'utf8'), text);
    }
  });
});

describe('streamed output: decoding', () => {
  const identity = { push: (chunk: string) => chunk, end: () => '' };
  const pieces = [
    Buffer.from('a'),
    Buffer.from('\n'),
    Buffer.from('xyz'),
    Buffer.from('é'),
    Buffer.from('€'),
    Buffer.from('😀'),
    Buffer.from([0xef, 0xbb, 0xbf]), // a BOM: removed only at the very start
    Buffer.from([0x80]), // a stray continuation byte
    Buffer.from([0xf0]), // a lead byte with nothing after it
    Buffer.from([0xe2, 0x82]), // half of a 3-byte char
  ];

  it('reads bytes as one TextDecoder over the whole stream does, however they are cut (ASCII chunks bypass the decoder)', async () => {
    const next = random(13);
    for (let trial = 0; trial < 3000; trial++) {
      const bytes = Buffer.concat(Array.from({ length: 1 + Math.floor(next() * 12) }, () => pieces[Math.floor(next() * pieces.length)]!));
      const collector = new OutputCollector({ redaction: identity, spillAtChars: 1e9, headChars: 1e9, tailChars: 1e9 });
      for (let at = 0; at < bytes.length; ) {
        const length = Math.floor(next() * 5);
        await collector.write(bytes.subarray(at, at + length));
        at += length;
      }
      const collected = await collector.finish('');
      assert.equal(collected.kind, 'whole');
      if (collected.kind === 'whole') assert.equal(collected.text, new TextDecoder().decode(bytes), `bytes ${bytes.toString('hex')}`);
    }
  });
});

describe('streamed output: byte counts', () => {
  it('counts UTF-8 bytes and writes the artifact exactly, whether the chunks, the masks or the trailer are ASCII or not (property)', async () => {
    const next = random(41);
    const ascii = ['plain line\n', 'token=ZX81spectrum48k\n', 'x'.repeat(300)];
    const mixed = [...ascii, 'héllo — wörld\n', '😀 done\n'];
    for (let trial = 0; trial < 400; trial++) {
      const pieces = next() < 0.5 ? ascii : mixed;
      // Strings, bytes, or both (a handler may write either).
      const asString = [0, 0.5, 1][Math.floor(next() * 3)]!;
      // A mask named in ASCII, or not: a redactor whose masks are not ASCII must not be trusted to keep ASCII.
      const name = next() < 0.5 ? 'spectrum' : 'спектр';
      const redactor = createRedactor({ builtinRules: false, patterns: [{ name, pattern: 'ZX81spectrum48k' }] });
      const writes: Buffer[] = [];
      const collector = new OutputCollector({
        redaction: redactor.createStream!(),
        spillAtChars: Math.floor(next() * 2000),
        headChars: 100,
        tailChars: 100,
        openArtifact: async () => ({
          write: async (bytes) => {
            writes.push(Buffer.from(bytes));
          },
          close: async () => ({ uri: 'executor-artifact://s/a', path: '/nowhere' }),
          abort: async () => undefined,
        }),
      });
      let sent = '';
      for (let write = Math.floor(next() * 40); write > 0; write--) {
        const piece = pieces[Math.floor(next() * pieces.length)]!;
        sent += piece;
        await collector.write(next() < asString ? piece : Buffer.from(piece));
      }
      const trailer = next() < 0.5 ? '[Exit code 0 — done]' : '[Exit code 0]';
      const collected = await collector.finish(trailer);
      const expected = redactor.redact(sent) + (sent.length > 0 && !sent.endsWith('\n') ? '\n' : '') + trailer;
      if (collected.kind === 'whole') {
        assert.equal(collected.text, expected, `trial ${trial}`);
        continue;
      }
      assert.equal(collected.totalBytes, Buffer.byteLength(expected), `trial ${trial}`);
      assert.equal(collected.totalChars, expected.length, `trial ${trial}`);
      assert.equal(Buffer.concat(writes).toString(), expected, `trial ${trial}`);
    }
  });
});

describe('OutputCollector tail', () => {
  it('after a spill holds the last tailChars of everything written, chunks before the spill included', async () => {
    const identity = { push: (chunk: string) => chunk, end: () => '' };
    const next = random(29);
    for (let trial = 0; trial < 200; trial++) {
      const tailChars = 1 + Math.floor(next() * 3000);
      const spillAtChars = Math.floor(next() * 4000);
      const collector = new OutputCollector({ redaction: identity, spillAtChars, headChars: 100, tailChars });
      let all = '';
      for (let write = Math.floor(next() * 60); write > 0; write--) {
        const piece = `line ${all.length} ${'x'.repeat(Math.floor(next() * (next() < 0.1 ? 2000 : 60)))}\n`;
        await collector.write(piece);
        all += piece;
      }
      const collected = await collector.finish('');
      if (all.length <= spillAtChars) {
        assert.equal(collected.kind, 'whole');
        continue;
      }
      assert.equal(collected.kind, 'spilled');
      if (collected.kind === 'spilled') assert.equal(collected.tail, all.slice(Math.max(0, all.length - tailChars)), `trial ${trial}`);
    }
  });
});

describe('TailBuffer', () => {
  it('keeps the last N chars of whatever was pushed, in pieces of any size', () => {
    const next = random(7);
    for (let trial = 0; trial < 300; trial++) {
      const capacity = 1 + Math.floor(next() * (next() < 0.5 ? 50 : 9000));
      const tail = new TailBuffer(capacity);
      let all = '';
      for (let push = Math.floor(next() * 3000); push > 0; push--) {
        const piece = 'abcdefghij'.repeat(100).slice(0, Math.floor(next() * (next() < 0.1 ? (next() < 0.1 ? 1000 : 80) : 4)));
        tail.push(piece);
        all += piece;
        if (next() < 0.02) assert.equal(tail.text(), all.slice(Math.max(0, all.length - capacity)));
      }
      assert.equal(tail.text(), all.slice(Math.max(0, all.length - capacity)));
    }
  });
});
