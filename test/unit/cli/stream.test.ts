// `tool-exec run --stream` offers each call as its line arrives, so a slow
// read-only call starts while the rest of the input has not been written yet.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';

const repo = path.resolve(__dirname, '../../../..');
const cli = path.join(repo, 'dist', 'cli.js');
const TOOLS = path.join(repo, 'test', 'fixtures', 'noop-tools.mjs');
/** The pause between the first line and the rest (the acceptance's 400 ms). */
const PAUSE_MS = 400;

interface Line {
  id?: string;
  isError?: boolean;
  errorKind?: string | null;
  content?: string;
  timing?: { startMs: number | null; endMs: number | null };
  summary?: { calls: number };
}

/** Past this, a result that should have been printed before more input is taken as not printed. */
const OUTPUT_WAIT_MS = 10_000;

/**
 * Runs the built CLI, writing `chunks` to its stdin with a pause before each but the first; with
 * `awaitOutput`, each later chunk also waits until the CLI printed something (`printedBeforeMore`).
 */
function runStreaming(
  args: string[],
  chunks: string[],
  pauseMs: number,
  awaitOutput = false,
): Promise<{ code: number | null; lines: Line[]; stderr: string; printedBeforeMore: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let printed!: () => void;
    const firstOutput = new Promise<void>((done) => (printed = done));
    let printedBeforeMore = false;
    child.stdout.on('data', (data: Buffer) => {
      printed();
      stdout += data.toString();
    });
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, lines: stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line), stderr, printedBeforeMore }));
    void (async () => {
      for (const [index, chunk] of chunks.entries()) {
        if (index > 0) await new Promise((done) => setTimeout(done, pauseMs));
        if (index > 0 && awaitOutput) {
          let timer: NodeJS.Timeout | undefined;
          const gaveUp = new Promise<boolean>((done) => (timer = setTimeout(() => done(false), OUTPUT_WAIT_MS)));
          printedBeforeMore = await Promise.race([firstOutput.then(() => true), gaveUp]);
          clearTimeout(timer);
        }
        child.stdin.write(chunk);
      }
      child.stdin.end();
    })();
  });
}

describe('tool-exec run --stream (built CLI)', () => {
  let workspace: string;
  before(() => {
    execFileSync(process.execPath, [path.join(repo, 'scripts', 'build.mjs')], { cwd: repo, stdio: 'pipe' });
    workspace = mkdtempSync(path.join(tmpdir(), 'tool-exec-stream-'));
  });
  after(() => rmSync(workspace, { recursive: true, force: true }));

  it('starts a slow read-only call before the rest of the input arrives, and prints results in order', async () => {
    const first = `${JSON.stringify({ id: 'slow', name: 'slow_read', input: { ms: 300 } })}\n`;
    const rest = [
      { id: 'w', name: 'touch', input: { name: 'after.txt' } },
      { id: 'e', name: 'echo', input: { text: 'hi' } },
    ].map((call) => `${JSON.stringify(call)}\n`).join('');
    const { code, lines, stderr } = await runStreaming(['run', '--workspace', workspace, '--tools', TOOLS, '--approve', 'allow', '--json', '--stream', '-'], [first, rest], PAUSE_MS);
    assert.equal(code, 0, stderr);
    assert.deepEqual(lines.map((line) => line.id ?? 'summary'), ['slow', 'w', 'e', 'summary']);
    const slow = lines[0]!;
    assert.equal(slow.content, 'waited 300 ms');
    assert.ok(slow.timing!.startMs !== null && slow.timing!.startMs < PAUSE_MS, `startMs ${slow.timing!.startMs}`);
    // The write was offered after the pause and, being serial, started after the early call ended.
    assert.ok(lines[1]!.timing!.startMs! >= slow.timing!.endMs!, JSON.stringify(lines.map((line) => line.timing)));
    assert.equal(lines[3]!.summary!.calls, 3);
  });

  it('prints each result as soon as it and every earlier one are done, before the input ends', async () => {
    const first = `${JSON.stringify({ id: 'a', name: 'echo', input: { text: 'early' } })}\n`;
    const later = `${JSON.stringify({ id: 'b', name: 'noop', input: {} })}\n`;
    const { code, lines, printedBeforeMore } = await runStreaming(['run', '--workspace', workspace, '--tools', TOOLS, '--json', '--stream', '-'], [first, later], 0, true);
    assert.equal(code, 0);
    assert.equal(printedBeforeMore, true, 'the first result was printed while the input was still open');
    assert.deepEqual(lines.map((line) => line.id ?? 'summary'), ['a', 'b', 'summary']);
  });

  it('a bad line is a misuse (exit 2, naming the line) after the calls before it got their results', async () => {
    const good = `${JSON.stringify({ id: 'a', name: 'echo', input: { text: 'kept' } })}\n`;
    const { code, lines, stderr } = await runStreaming(['run', '--workspace', workspace, '--tools', TOOLS, '--json', '--stream', '-'], [good, '\n{"id": "b", "name": \n'], 50);
    assert.equal(code, 2);
    assert.match(stderr, /CALLS stdin: line 3 is not valid JSON/);
    assert.deepEqual(lines.map((line) => line.id ?? 'summary'), ['a', 'summary']);
    assert.match(lines[0]!.content!, /^kept/);
  });
});
