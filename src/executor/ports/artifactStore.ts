// Port: where large results and media are persisted (spec §8).
import type { ArtifactRetention } from '../contract';
import type { ArtifactRef } from '../result';

export interface ArtifactWrite {
  readonly sessionId: string;
  readonly callId: string;
  readonly retention: ArtifactRetention;
  /** Already redacted text, or bytes for media. */
  readonly content: string | Uint8Array;
  /** File extension without the dot; `txt` by default. */
  readonly extension?: string;
}

export interface ArtifactStore {
  write(request: ArtifactWrite, signal?: AbortSignal): Promise<ArtifactRef>;
  /** Resolves an `executor-artifact://` URI to a path, or undefined when unknown. */
  resolve(uri: string): string | undefined;
  /** Ends a session: deletes its `temporary` artifacts. */
  endSession?(sessionId: string): Promise<void>;
}
