// Child of the big-output row: the floor of a copy on Node's event loop. It runs `yes … | head -c N`
// as Bash does (a shell whose stdout and stderr are a FIFO, src/tools/process/outputPipe.ts, where one can be
// made; Node's socket pair where not), and only reads the pipe and writes each chunk to a file
// with Node's own stream plumbing (no decoding, redaction, counting or events); it prints its wall time
// and peak RSS.
// Usage: node out/bench/child/pipeCopy.js MiB
import { spawn } from 'node:child_process';
import { closeSync, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { FifoPool, fifoReader, openFifoWriter, runHereQuietly } from '../../src/tools/process/outputPipe';
import { bigOutputCommand, printOutputRun, runOutputChild } from './outputRun';


async function main(): Promise<void> {
  const mib = Number(process.argv[2] ?? 256);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-copy-'));
  const started = performance.now();
  // Its FIFO is made as the executor's first command's is, within the time.
  const fifos = new FifoPool(runHereQuietly);
  const fifo = await fifos.take();
  const command = ['-c', bigOutputCommand(mib)];
  let output: Readable;
  if (fifo) {
    const writeFd = openFifoWriter(fifo);
    spawn('/bin/bash', command, { stdio: ['ignore', writeFd, writeFd] });
    closeSync(writeFd);
    output = fifoReader(fifo);
  } else {
    output = spawn('/bin/bash', command, { stdio: ['ignore', 'pipe', 'pipe'] }).stdout;
  }
  await pipeline(output, createWriteStream(path.join(dir, 'out.txt'), { flags: 'wx' }));
  const ms = performance.now() - started;
  fifos.dispose();
  rmSync(dir, { recursive: true, force: true });
  printOutputRun(ms);
}

runOutputChild(main);
