// Adapter: the SessionRecorder port as one JSONL file per session (`<dir>/<session>.jsonl`, 0600),
// appended one line per call, in order; the first line is the session header.
import { close, fchmod, open, write } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { SessionRecorder } from '../../executor';
import { safeName } from '../../executor';
import { SESSION_RECORD_VERSION, type SessionRecordEntry } from '../../executor';

/** Owner only, like artifacts. */
export const SESSION_RECORD_FILE_MODE = 0o600;
export const SESSION_RECORD_DIR_MODE = 0o700;
/**
 * How long a line waits for others to share its write: one timer tick. A batch of calls, or calls
 * one after another then costs one write, not one each: a thread-pool write per call cost more than a
 * small Read itself on a 2-core machine.
 */
export const SESSION_RECORD_COALESCE_MS = 1;

export interface JsonlSessionRecorderOptions {
  /** The folder of the session files (the CLI: `<artifacts>/sessions`). */
  readonly dir: string;
  readonly sessionId: string;
  readonly workspaceFolders?: readonly string[];
  /** How a batch waits `SESSION_RECORD_COALESCE_MS` for lines to share its write. @default a timer */
  readonly wait?: (ms: number) => Promise<unknown>;
}

/**
 * A line whose two large strings are escaped when it is written (see `pendingLine`); `head` is the
 * rest of the entry as JSON, open for more keys.
 */
type PendingLine = string | { readonly head: string; readonly modelContent: string; readonly text: string | undefined };

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The file is opened once (append mode) and kept open until `close`. Each entry is serialised when
 * `record` is called (as it is then), but for its model content and text: strings cannot change, so
 * they are escaped with the write, off the call's path. Lines are appended in order by one write at a
 * time, with every line that arrived while it waited. Nothing blocks on the disk; `flush` waits until all
 * is written.
 */
export class JsonlSessionRecorder implements SessionRecorder {
  readonly file: string;
  /** Lines not yet handed to a write, and the callers waiting for them. */
  private pending: PendingLine[] = [];
  private waiting: Waiter[] = [];
  /** The header's write, then each batch's; undefined before the first entry. */
  private writing: Promise<void> | undefined;
  private draining = false;
  private fd: number | undefined;

  private readonly wait: (ms: number) => Promise<unknown>;

  constructor(private readonly options: JsonlSessionRecorderOptions) {
    this.wait = options.wait ?? delay;
    this.file = path.join(path.resolve(options.dir), `${safeName(options.sessionId)}.jsonl`);
  }

  /** Queues the entry; resolves once it is on disk, rejects if its write failed. */
  record(entry: SessionRecordEntry): Promise<void> {
    const line = pendingLine(entry);
    return new Promise<void>((resolve, reject) => {
      this.pending.push(line);
      this.waiting.push({ resolve, reject });
      if (this.draining) return;
      this.draining = true;
      // One failed batch must not block the ones after it (each caller hears of its own failure).
      this.writing = (this.writing ?? this.start())
        .catch(() => undefined)
        .then(() => this.wait(SESSION_RECORD_COALESCE_MS))
        .then(() => this.drain());
    });
  }

  /** Resolves when every entry so far is on disk. */
  async flush(): Promise<void> {
    await this.writing?.catch(() => undefined);
  }

  /** Flushes, then closes the file; a later entry opens it again. */
  async close(): Promise<void> {
    await this.flush();
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) await new Promise<void>((resolve, reject) => close(fd, (error) => (error ? reject(error) : resolve())));
  }

  private async start(): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true, mode: SESSION_RECORD_DIR_MODE });
    const header: SessionRecordEntry = {
      type: 'session',
      version: SESSION_RECORD_VERSION,
      sessionId: this.options.sessionId,
      startedAt: new Date().toISOString(),
      workspaceFolders: this.options.workspaceFolders ?? [],
    };
    await this.append(`${JSON.stringify(header)}\n`);
  }

  /**
   * Writes what is pending, batch after batch, until nothing is. Lines that arrived during a write wait
   * the same tick for others before the next: without it, calls one after another each had a write of
   * their own once the first had started (docs/MEASUREMENTS.md, "Session record").
   */
  private async drain(): Promise<void> {
    for (let first = true; this.pending.length > 0; first = false) {
      if (!first) await this.wait(SESSION_RECORD_COALESCE_MS);
      const lines = this.pending;
      const waiting = this.waiting;
      this.pending = [];
      this.waiting = [];
      try {
        await this.append(lines.length === 1 ? lineText(lines[0]!) : lines.map(lineText).join(''));
        for (const waiter of waiting) waiter.resolve();
      } catch (error) {
        for (const waiter of waiting) waiter.reject(error);
      }
    }
    this.draining = false;
  }

  /** Appends `text` whole (a short write is continued). The callback API costs less than the promise API's. */
  private async append(text: string): Promise<void> {
    const fd = this.fd ?? (await this.openFile());
    const written = await new Promise<number>((resolve, reject) => write(fd, text, null, 'utf8', (error, bytes) => (error ? reject(error) : resolve(bytes))));
    if (written === Buffer.byteLength(text)) return;
    const bytes = Buffer.from(text);
    for (let offset = written; offset < bytes.length; ) {
      offset += await new Promise<number>((resolve, reject) => write(fd, bytes, offset, bytes.length - offset, null, (error, count) => (error ? reject(error) : resolve(count))));
    }
  }

  /** Opens for appending, owner only (also a file that was there with wider modes). */
  private async openFile(): Promise<number> {
    const fd = await new Promise<number>((resolve, reject) => open(this.file, 'a', SESSION_RECORD_FILE_MODE, (error, opened) => (error ? reject(error) : resolve(opened))));
    try {
      await new Promise<void>((resolve, reject) => fchmod(fd, SESSION_RECORD_FILE_MODE, (error) => (error ? reject(error) : resolve())));
    } catch (error) {
      close(fd, () => {});
      throw error;
    }
    this.fd = fd;
    return fd;
  }
}

/** The entry as a JSON line, but for a call's model content and text, which `lineText` adds last. */
function pendingLine(entry: SessionRecordEntry): PendingLine {
  if (entry.type !== 'call') return `${JSON.stringify(entry)}\n`;
  const { modelContent, text, ...rest } = entry;
  const head = JSON.stringify(rest);
  return { head: head === '{}' ? '{' : `${head.slice(0, -1)},`, modelContent, text };
}

/** A call's `text` is most often its `modelContent` (a result within its budget): escaped once, written twice. */
function lineText(line: PendingLine): string {
  if (typeof line === 'string') return line;
  const modelContent = JSON.stringify(line.modelContent);
  const text = line.text === undefined ? '' : `,"text":${line.text === line.modelContent ? modelContent : JSON.stringify(line.text)}`;
  return `${line.head}"modelContent":${modelContent}${text}}\n`;
}
