// Child of the big-output row: the floor for any Node implementation. It runs `yes … | head -c N`
// as Bash does (a shell with piped stdout), and only reads the pipe and writes each chunk to a file
// with Node's own stream plumbing (no decoding, redaction, counting or events); it prints its wall time
// and peak RSS.
// Usage: node out/bench/child/pipeCopy.js MiB
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const MIB = 1024 * 1024;
const YES_LINE = 'npm WARN deprecated some-package@1.0.0: this line is a typical build log line';

async function main(): Promise<void> {
  const mib = Number(process.argv[2] ?? 256);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-copy-'));
  const started = performance.now();
  const child = spawn('/bin/bash', ['-c', `yes '${YES_LINE}' | head -c ${mib * MIB}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  await pipeline(child.stdout, createWriteStream(path.join(dir, 'out.txt'), { flags: 'wx' }));
  const ms = performance.now() - started;
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify({ ms, rssMiB: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
