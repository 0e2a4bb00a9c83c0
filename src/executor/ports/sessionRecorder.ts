// Port: the session record, one entry per call, enough to replay a session (issue 5).
import type { SessionRecordEntry } from '../results/sessionRecord';

export interface SessionRecorder {
  /** Appends one entry (already redacted). Failures are the recorder's to report; they never fail a call. */
  record(entry: SessionRecordEntry): Promise<void>;
}
