// Adapter: the SessionRecorder port as one JSONL file per session (`<dir>/<session>.jsonl`, 0600),
// appended one line per call, in order; the first line is the session header.
import { appendFile, chmod, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import type { SessionRecorder } from '../../executor/ports/sessionRecorder';
import { safeName } from '../../executor/results/artifactLayout';
import { SESSION_RECORD_VERSION, type SessionRecordEntry } from '../../executor/results/sessionRecord';

/** Owner only, like artifacts. */
export const SESSION_RECORD_FILE_MODE = 0o600;
export const SESSION_RECORD_DIR_MODE = 0o700;

export interface JsonlSessionRecorderOptions {
  /** The folder of the session files (the CLI: `<artifacts>/sessions`). */
  readonly dir: string;
  readonly sessionId: string;
  readonly workspaceFolders?: readonly string[];
}

export class JsonlSessionRecorder implements SessionRecorder {
  readonly file: string;
  private queue: Promise<void> | undefined;

  constructor(private readonly options: JsonlSessionRecorderOptions) {
    this.file = path.join(path.resolve(options.dir), `${safeName(options.sessionId)}.jsonl`);
  }

  record(entry: SessionRecordEntry): Promise<void> {
    // One failed append must not block the ones after it.
    const previous = this.queue ?? this.start();
    this.queue = previous.catch(() => undefined).then(() => this.append(entry));
    return this.queue;
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
    return appendFile(this.file, `${JSON.stringify(entry)}\n`, { mode: SESSION_RECORD_FILE_MODE });
  }
}
