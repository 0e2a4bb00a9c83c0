// Streaming tool output in constant memory (issue 5): chunks are decoded, redacted as a stream,
// counted, and kept whole only while they are small. Past the spill size the pipeline keeps a
// head, a tail ring buffer and counts, and writes the redacted stream to an artifact as it arrives.
import type { SpilledText } from '../budget';
import type { OutputStreamEnd, OutputStreamOptions, ToolOutputStream } from '../contract';
import type { ArtifactWriter } from '../ports/artifactStore';
import type { RedactionStream } from '../ports/redactor';
import type { ArtifactRef } from '../result';
import { projectErrorMessage } from '../errors';
import { TailBuffer } from './tailBuffer';

/** Redacted text waiting for the artifact file past this many chars makes `write` wait (backpressure). */
export const STREAM_HIGH_WATER_CHARS = 1024 * 1024;

export interface OutputCollectorOptions {
  readonly redaction: RedactionStream;
  /** Past this many chars the text stops being kept whole (spec §7: max(20000 chars, 3 × budget)). */
  readonly spillAtChars: number;
  /** Chars kept from the start once spilled (the preview and the head third). */
  readonly headChars: number;
  /** Chars kept from the end once spilled (the tail third, the `bash_output` display). */
  readonly tailChars: number;
  /** Opens the artifact the full stream goes to; absent: truncate only. */
  readonly openArtifact?: () => Promise<ArtifactWriter>;
  readonly options?: OutputStreamOptions;
  /** Sees each piece of redacted text as it is released (live output events). */
  readonly onText?: (text: string) => void;
}

/** What a stream left behind: the whole text, or (spilled) its head, tail, counts and artifact. */
export type CollectedOutput =
  | { readonly kind: 'whole'; readonly text: string; readonly end?: OutputStreamEnd; readonly options?: OutputStreamOptions }
  | (SpilledText & {
      readonly kind: 'spilled';
      readonly end?: OutputStreamEnd;
      readonly options?: OutputStreamOptions;
    });

/** The `ToolOutputStream` a handler writes to. One per call; `finish` is called by the serialize stage. */
export class OutputCollector implements ToolOutputStream {
  bytesWritten = 0;
  private readonly decoder = new TextDecoder('utf-8');
  private closed = false;
  private endInfo: OutputStreamEnd | undefined;
  private whole: string[] | undefined = [];
  private head = '';
  private readonly tail: TailBuffer;
  private totalChars = 0;
  private totalBytes = 0;
  private newlines = 0;
  private endsWithNewline = false;
  private writer: Promise<ArtifactWriter> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private unwrittenChars = 0;
  private artifactError: string | undefined;

  constructor(private readonly config: OutputCollectorOptions) {
    this.tail = new TailBuffer(config.tailChars);
  }

  write(chunk: string | Uint8Array): Promise<void> {
    if (this.closed) return Promise.resolve();
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    this.bytesWritten += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    this.accept(this.config.redaction.push(text));
    return this.unwrittenChars > STREAM_HIGH_WATER_CHARS ? this.writing : Promise.resolve();
  }

  close(end?: OutputStreamEnd): void {
    if (end) this.endInfo = end;
    if (this.closed) return;
    this.closed = true;
    this.accept(this.config.redaction.push(this.decoder.decode()));
    this.accept(this.config.redaction.end());
  }

  /** Closes the stream, appends the (already redacted) trailer and settles the artifact. */
  async finish(trailer: string): Promise<CollectedOutput> {
    this.close();
    if (trailer) this.accept(this.totalChars > 0 && !this.endsWithNewline ? `\n${trailer}` : trailer, false);
    const options = this.config.options;
    if (this.whole) return { kind: 'whole', text: this.whole.join(''), end: this.endInfo, options };
    let artifact: ArtifactRef | undefined;
    if (this.writer) {
      await this.writing;
      const writer = await this.writer.catch(() => undefined);
      if (writer && this.artifactError === undefined) {
        try {
          artifact = await writer.close();
        } catch (error) {
          this.artifactError = projectErrorMessage(error);
        }
      }
      if (!artifact && writer) await writer.abort();
    }
    return {
      kind: 'spilled',
      head: this.head,
      tail: this.tail.text(),
      totalChars: this.totalChars,
      totalBytes: this.totalBytes,
      totalLines: this.newlines + 1,
      artifact,
      artifactError: this.artifactError,
      end: this.endInfo,
      options,
    };
  }

  /** Drops everything: the call failed, so no output goes anywhere. Deletes a partial artifact. */
  async discard(): Promise<void> {
    this.closed = true;
    this.whole = undefined;
    if (!this.writer) return;
    await this.writing;
    const writer = await this.writer.catch(() => undefined);
    await writer?.abort();
  }

  /** `live`: also shown as live output (the handler's text, not the executor's trailer). */
  private accept(text: string, live = true): void {
    if (text.length === 0) return;
    if (live) this.config.onText?.(text);
    this.totalChars += text.length;
    this.totalBytes += Buffer.byteLength(text);
    this.newlines += countNewlines(text);
    this.endsWithNewline = text.endsWith('\n');
    if (this.head.length < this.config.headChars) this.head += text.slice(0, this.config.headChars - this.head.length);
    this.tail.push(text);
    if (this.whole) {
      this.whole.push(text);
      if (this.totalChars <= this.config.spillAtChars) return;
      const soFar = this.whole.join('');
      this.whole = undefined;
      this.spill(soFar);
      return;
    }
    if (this.writer) this.enqueue(text);
  }

  /** Past the spill size: open the artifact and send it everything so far. */
  private spill(soFar: string): void {
    const open = this.config.openArtifact;
    if (!open) return;
    try {
      this.writer = open();
    } catch (error) {
      this.writer = Promise.reject(error);
    }
    this.writer.catch((error: unknown) => {
      this.artifactError ??= projectErrorMessage(error);
    });
    this.enqueue(soFar);
  }

  private enqueue(text: string): void {
    if (this.artifactError !== undefined) return;
    this.unwrittenChars += text.length;
    this.writing = this.writing.then(async () => {
      try {
        if (this.artifactError !== undefined) return;
        const writer = await this.writer!;
        await writer.write(text);
      } catch (error) {
        this.artifactError ??= projectErrorMessage(error);
      } finally {
        this.unwrittenChars -= text.length;
      }
    });
  }
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
  return count;
}
