// Adapter: the SessionRecorder port as one JSONL file per session (`<dir>/<session>.jsonl`, 0600),
// appended one line per call, in order; the first line is the session header.
import { appendFileSync } from 'node:fs';
import { appendFile, chmod, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import type { SessionRecorder } from '../../executor/ports/sessionRecorder';
import { safeName } from '../../executor/results/artifactLayout';
import { SESSION_RECORD_VERSION, type SessionRecordEntry } from '../../executor/results/sessionRecord';

/** Owner only, like artifacts. */
export const SESSION_RECORD_FILE_MODE = 0o600;
export const SESSION_RECORD_DIR_MODE = 0o700;
/**
 * Entries up to this size are appended synchronously when no write is in flight: one short blocking
 * append costs less than the three thread-pool round trips of an async one (issue 13: it was a
 * large part of a small Read's cost). Larger entries, and any behind one, go through the queue.
 */
export const SESSION_RECORD_SYNC_MAX_CHARS = 64 * 1024;

export interface JsonlSessionRecorderOptions {
  /** The folder of the session files (the CLI: `<artifacts>/sessions`). */
  readonly dir: string;
  readonly sessionId: string;
  readonly workspaceFolders?: readonly string[];
}

export class JsonlSessionRecorder implements SessionRecorder {
  readonly file: string;
  private queue: Promise<void> | undefined;
  /** The header is written and nothing is in flight: a small entry may be appended at once. */
  private idle = false;
  private inFlight = 0;

  constructor(private readonly options: JsonlSessionRecorderOptions) {
    this.file = path.join(path.resolve(options.dir), `${safeName(options.sessionId)}.jsonl`);
  }

  record(entry: SessionRecordEntry): Promise<void> {
    const line = `${JSON.stringify(entry)}\n`;
    if (this.idle && line.length <= SESSION_RECORD_SYNC_MAX_CHARS) {
      try {
        appendFileSync(this.file, line, { mode: SESSION_RECORD_FILE_MODE });
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    }
    // One failed append must not block the ones after it.
    const previous = this.queue ?? this.start();
    this.inFlight++;
    this.idle = false;
    const written = previous.catch(() => undefined).then(() => this.appendLine(line));
    const settle = () => {
      if (--this.inFlight === 0) this.idle = true;
    };
    // The queue itself never rejects: the caller of `record` hears of its own failure.
    this.queue = written.then(settle, settle);
    return written;
  }

  /** Resolves when every entry so far is on disk. */
  async flush(): Promise<void> {
    await this.queue?.catch(() => undefined);
  }

  private async start(): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true, mode: SESSION_RECORD_DIR_MODE });
    await this.append({
      type: 'session',
      version: SESSION_RECORD_VERSION,
      sessionId: this.options.sessionId,
      startedAt: new Date().toISOString(),
      workspaceFolders: this.options.workspaceFolders ?? [],
    });
    await chmod(this.file, SESSION_RECORD_FILE_MODE);
  }

  private append(entry: SessionRecordEntry): Promise<void> {
    return this.appendLine(`${JSON.stringify(entry)}\n`);
  }

  private appendLine(line: string): Promise<void> {
    return appendFile(this.file, line, { mode: SESSION_RECORD_FILE_MODE });
  }
}
