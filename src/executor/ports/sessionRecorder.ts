// Port: the session record, one entry per call, enough to replay a session.
import type { SessionRecordEntry } from '../results/sessionRecord';

export interface SessionRecorder {
  /**
   * Appends one entry (already redacted), in the order the calls' results leave. The executor does not
   * wait for the returned promise: a result never waits for the disk, and the host flushes its recorder
   * before it reads the record or exits. A rejection is logged (`tool.record.failed`); it never fails a call.
   */
  record(entry: SessionRecordEntry): Promise<void>;
}
