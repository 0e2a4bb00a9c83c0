// Port: where large results and media are persisted (spec §8).
import type { ArtifactRetention } from '../../contract/contract';
import type { ArtifactRef } from '../../contract/result';

export interface ArtifactWrite {
  readonly sessionId: string;
  readonly callId: string;
  readonly retention: ArtifactRetention;
  /** Already redacted text, or bytes for media. */
  readonly content: string | Uint8Array;
  /** File extension without the dot; `txt` by default. */
  readonly extension?: string;
}

/** An artifact being written chunk by chunk (streamed tool output). */
export interface ArtifactWriter {
  /**
   * Resolves when the chunk is handed to the file; rejects when the write failed. Bytes are UTF-8 text;
   * the caller may reuse their buffer once the promise settled, so a writer must not keep it.
   */
  write(text: string | Uint8Array): Promise<void>;
  /** Flushes and closes the file. */
  close(): Promise<ArtifactRef>;
  /** Gives up: closes and deletes the partial file. Never rejects. */
  abort(): Promise<void>;
}

export interface ArtifactStore {
  write(request: ArtifactWrite, signal?: AbortSignal): Promise<ArtifactRef>;
  /** Opens an artifact for streamed, already redacted text. Absent: streamed output past the budget is truncated. */
  openWriter?(request: Omit<ArtifactWrite, 'content'>, signal?: AbortSignal): Promise<ArtifactWriter>;
  /** Resolves an `executor-artifact://` URI to a path, or undefined when unknown. */
  resolve(uri: string): string | undefined;
  /** Ends a session: deletes its `temporary` artifacts. */
  endSession?(sessionId: string): Promise<void>;
}
