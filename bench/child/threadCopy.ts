// Child of the big-output row: the other floor, the copy off the event loop. A worker thread reads the
// same command's FIFO with blocking reads, as `cat` does, and writes the file with blocking writes
// (no decoding, redaction, counting or events); the main thread only waits. The worker is started
// before the clock (a reader thread would be kept, not made per command); its isolate is in the
// process's peak RSS. Prints the wall time and peak RSS. Linux only (a FIFO).
// Usage: node out/bench/child/threadCopy.js MiB
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { FifoPool, openFifoWriter, runHereQuietly, unlinkFifo } from '../../src/tools/process/outputPipe';
import { bigOutputCommand, MIB, printOutputRun, runOutputChild } from './outputRun';

/** The worker: opens the FIFO's read end blocking (a writer is there), copies it to the file in writes of at least half its buffer. */
const COPIER = `
const { workerData: { fifo, file }, parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const input = fs.openSync(fifo, 'r');
parentPort.postMessage('opened');
const output = fs.openSync(file, 'wx');
const buffer = Buffer.allocUnsafe(${MIB});
let filled = 0;
for (;;) {
  const read = fs.readSync(input, buffer, filled, buffer.length - filled, null);
  if (read > 0) filled += read;
  if (filled >= buffer.length / 2 || (read === 0 && filled > 0)) {
    fs.writeSync(output, buffer, 0, filled);
    filled = 0;
  }
  if (read === 0) break;
}
fs.closeSync(output);
fs.closeSync(input);
parentPort.postMessage('done');
`;

async function main(): Promise<void> {
  if (process.platform !== 'linux') throw new Error('threadCopy reads a FIFO: Linux only');
  const mib = Number(process.argv[2] ?? 256);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-thread-copy-'));
  const fifos = new FifoPool(runHereQuietly);
  const fifo = await fifos.take();
  if (!fifo) throw new Error(`no FIFO: ${fifos.unavailableReason}`);
  const writeFd = openFifoWriter(fifo);
  const worker = new Worker(COPIER, { eval: true, workerData: { fifo: fifo.path, file: path.join(dir, 'out.txt') } });
  /** The worker's next message, which must be `expected`; its error listener goes with it. */
  const message = (expected: string) =>
    new Promise<void>((resolve, reject) => {
      const failed = (error: Error) => reject(error);
      worker.once('error', failed);
      worker.once('message', (value) => {
        worker.off('error', failed);
        if (value === expected) resolve();
        else reject(new Error(`worker said ${String(value)}`));
      });
    });
  await message('opened');
  const started = performance.now();
  spawn('/bin/bash', ['-c', bigOutputCommand(mib)], { stdio: ['ignore', writeFd, writeFd] });
  closeSync(writeFd);
  closeSync(fifo.readFd);
  unlinkFifo(fifo);
  await message('done');
  const ms = performance.now() - started;
  await worker.terminate();
  fifos.dispose();
  rmSync(dir, { recursive: true, force: true });
  printOutputRun(ms);
}

runOutputChild(main);
