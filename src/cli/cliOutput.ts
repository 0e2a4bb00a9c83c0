// The CLI's own output channel. Results are written straight to file descriptor 1 with synchronous
// writes, and `process.stdout` is pointed at stderr for everything else in the process (tool modules,
// `console.log`), so nothing but the CLI's own lines can reach stdout by accident and a `--json`
// reader never sees a forged result line. A reader that goes away (`| head`) closes the channel once:
// the batch is told (`onClosed`) instead of dying on EPIPE.
import * as fs from 'node:fs';

/** Where the CLI writes its results; the batch only needs `write`. */
export interface CliWriter {
  write(text: string): void;
}

/** How long one write waits when the descriptor is non-blocking and its buffer is full. */
const WRITE_RETRY_MS = 5;

export class CliOutput implements CliWriter {
  private closedBy: NodeJS.ErrnoException | undefined;
  private readonly listeners: ((error: NodeJS.ErrnoException) => void)[] = [];
  private readonly sleeper = new Int32Array(new SharedArrayBuffer(4));

  constructor(private readonly fd = 1) {}

  /** True once a write failed because nobody reads any more (EPIPE and kin). */
  get closed(): boolean {
    return this.closedBy !== undefined;
  }

  /** Called once, when the reader is gone. */
  onClosed(listener: (error: NodeJS.ErrnoException) => void): void {
    this.listeners.push(listener);
  }

  write(text: string): void {
    if (this.closedBy) return;
    const bytes = Buffer.from(text, 'utf8');
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += fs.writeSync(this.fd, bytes, offset, bytes.length - offset);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') {
          Atomics.wait(this.sleeper, 0, 0, WRITE_RETRY_MS);
          continue;
        }
        this.close(error as NodeJS.ErrnoException);
        return;
      }
    }
  }

  private close(error: NodeJS.ErrnoException): void {
    this.closedBy = error;
    for (const listener of this.listeners.splice(0)) listener(error);
  }
}

/**
 * From now on `process.stdout` (and so `console.log`) writes to stderr. Call it before any tool module
 * is loaded and before anything touched `process.stdout`, so descriptor 1 is the CLI's alone.
 */
export function divertProcessStdout(): void {
  Object.defineProperty(process, 'stdout', { configurable: true, enumerable: true, get: () => process.stderr });
}
