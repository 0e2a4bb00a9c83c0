// Streaming tool output in constant memory: chunks are decoded, redacted as a stream,
// counted, and kept whole only while they are small. Past the spill size the pipeline keeps a
// head, a tail ring buffer and counts, and writes the redacted stream to an artifact as it arrives.
// For speed, ASCII chunks skip the UTF-8 decoder; artifact writes are batched (what arrives while one
// write is in flight goes out as one), and backpressure waits only until the backlog is below the mark.
import { isAscii } from 'node:buffer';
import type { SpilledText } from '../budget';
import type { OutputStreamEnd, OutputStreamOptions, ToolOutputStream } from '../../contract/contract';
import type { ArtifactWriter } from '../../ports/workspace/artifactStore';
import type { RedactionStream } from '../../ports/redactor';
import type { ArtifactRef } from '../../contract/result';
import { projectErrorMessage } from '../../contract/errors';
import { countNewlines } from '../../format/text';
import { TailBuffer } from './tailBuffer';

/** Redacted text waiting for the artifact file past this many chars makes `write` wait (backpressure). */
export const STREAM_HIGH_WATER_CHARS = 1024 * 1024;
/** The artifact's write buffers start at this size and grow to the largest batch. */
const ARTIFACT_BUFFER_MIN_BYTES = 256 * 1024;
/**
 * A write to the artifact starts once this much gathered (or the stream ends). Each write costs the
 * event loop the same whatever its size (a promise and a hand-off to the thread pool), so small writes
 * add up (docs/MEASUREMENTS.md, "Output stream"). Half the high-water mark, so one batch can fill while one is written.
 */
export const ARTIFACT_MIN_WRITE_BYTES = STREAM_HIGH_WATER_CHARS / 2;

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
  // The BOM is removed here, at the start of the stream only (chunks may bypass the decoder). Made at
  // the first chunk that is not ASCII: most output is ASCII, and a decoder never used has nothing to flush.
  private decoder: InstanceType<typeof TextDecoder> | undefined;
  /** No partial UTF-8 char is pending in the decoder: an ASCII chunk may bypass it. */
  private decoderClean = true;
  private decodedAny = false;
  /**
   * Every chunk so far was ASCII, and the redaction keeps ASCII ASCII: what it emits has as many UTF-8
   * bytes as chars, and is not counted again (`Buffer.byteLength` of each piece is a pass over it).
   * Once false it stays false: held-back text may still be emitted later.
   */
  private asciiSoFar: boolean;
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
  /**
   * Redacted text waiting for the artifact, encoded as it arrives (so no string of it lives on) into
   * one of two buffers: one fills while the other is written, and all that gathered goes as one write.
   */
  private filling: Buffer | undefined;
  private filled = 0;
  private filledChars = 0;
  private spare: Buffer | undefined;
  private flushing = false;
  private unwrittenChars = 0;
  private belowHighWater: Array<() => void> = [];
  private artifactError: string | undefined;

  private readonly acceptLive = (text: string): void => this.accept(text);

  constructor(private readonly config: OutputCollectorOptions) {
    this.tail = new TailBuffer(config.tailChars);
    this.asciiSoFar = config.redaction.keepsAscii === true;
  }

  write(chunk: string | Uint8Array): Promise<void> {
    if (this.closed) return Promise.resolve();
    let text: string;
    if (typeof chunk === 'string') {
      text = chunk;
      const bytes = Buffer.byteLength(chunk);
      if (bytes !== chunk.length) this.asciiSoFar = false;
      this.bytesWritten += bytes;
    } else {
      text = this.decode(chunk);
      this.bytesWritten += chunk.byteLength;
    }
    const redaction = this.config.redaction;
    if (redaction.pushEach) redaction.pushEach(text, this.acceptLive);
    else this.accept(redaction.push(text));
    if (this.unwrittenChars <= STREAM_HIGH_WATER_CHARS) return Promise.resolve();
    return new Promise((resolve) => this.belowHighWater.push(resolve));
  }

  /** UTF-8 bytes to text, as `TextDecoder` (stream mode, BOM removed at the start) decodes them. */
  private decode(chunk: Uint8Array): string {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let text: string;
    if (this.decoderClean && isAscii(bytes)) {
      // ASCII reads the same as latin1 and as UTF-8; latin1 is a copy, several times faster than the decoder.
      text = bytes.toString('latin1');
    } else {
      this.asciiSoFar = false;
      this.decoder ??= new TextDecoder('utf-8', { ignoreBOM: true });
      text = this.decoder.decode(bytes, { stream: true });
      const inside = endsInsideChar(bytes);
      if (inside !== undefined) this.decoderClean = !inside;
    }
    if (!this.decodedAny && text.length > 0) {
      this.decodedAny = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    return text;
  }

  close(end?: OutputStreamEnd): void {
    if (end) this.endInfo = end;
    if (this.closed) return;
    this.closed = true;
    let rest = this.decoder?.decode() ?? '';
    if (!this.decodedAny && rest.charCodeAt(0) === 0xfeff) rest = rest.slice(1);
    this.accept(this.config.redaction.push(rest));
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
      await this.flushRest();
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
    // The trailer is the executor's own text, not the redaction's.
    const ascii = live && this.asciiSoFar;
    const bytes = ascii ? text.length : Buffer.byteLength(text);
    this.totalChars += text.length;
    this.totalBytes += bytes;
    this.newlines += countNewlines(text);
    this.endsWithNewline = text.endsWith('\n');
    if (this.head.length < this.config.headChars) this.head += text.slice(0, this.config.headChars - this.head.length);
    // The tail is kept from the spill on: until then the whole text holds it (most calls never spill,
    // and need no ring).
    if (this.whole) {
      this.whole.push(text);
      if (this.totalChars <= this.config.spillAtChars) return;
      const soFar = this.whole.join('');
      this.whole = undefined;
      this.tail.push(soFar);
      this.spill(soFar, ascii);
      return;
    }
    this.tail.push(text);
    if (this.writer) this.enqueue(text, bytes);
  }

  /** Past the spill size: open the artifact and send it everything so far. */
  private spill(soFar: string, ascii: boolean): void {
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
    this.enqueue(soFar, ascii ? soFar.length : Buffer.byteLength(soFar));
  }

  /** `bytes`: the text's UTF-8 length. */
  private enqueue(text: string, bytes: number): void {
    if (this.artifactError !== undefined) return;
    if (!this.filling || this.filling.length - this.filled < bytes) {
      const grown = Buffer.allocUnsafe(Math.max(ARTIFACT_BUFFER_MIN_BYTES, 2 * (this.filled + bytes)));
      if (this.filling) this.filling.copy(grown, 0, 0, this.filled);
      this.filling = grown;
    }
    // As many UTF-8 bytes as chars: every char is ASCII, which latin1 writes as the same bytes, a plain
    // copy, faster than the UTF-8 encoder.
    this.filled += this.filling.write(text, this.filled, bytes, bytes === text.length ? 'latin1' : 'utf8');
    this.filledChars += text.length;
    this.unwrittenChars += text.length;
    if (!this.flushing && this.filled >= ARTIFACT_MIN_WRITE_BYTES) this.writing = this.flush();
  }

  /** Writes what gathered, however little: the stream ended. */
  private flushRest(): Promise<void> {
    if (!this.flushing && this.filled > 0) this.writing = this.flush(true);
    return this.writing;
  }

  /** Writes what gathered, and what gathers while it is written, while a batch is full (`rest`: until none is left). */
  private async flush(rest = false): Promise<void> {
    this.flushing = true;
    try {
      const writer = await this.writer!;
      while ((rest ? this.filled > 0 : this.filled >= ARTIFACT_MIN_WRITE_BYTES) && this.artifactError === undefined) {
        const buffer = this.filling!;
        const length = this.filled;
        const chars = this.filledChars;
        this.filling = this.spare;
        this.spare = undefined;
        this.filled = 0;
        this.filledChars = 0;
        try {
          await writer.write(buffer.subarray(0, length));
        } finally {
          this.spare = buffer;
          this.unwrittenChars -= chars;
          this.release();
        }
      }
    } catch (error) {
      this.artifactError ??= projectErrorMessage(error);
    } finally {
      if (this.artifactError !== undefined) {
        // Nothing more goes to the artifact: drop what waits and let writers go on.
        this.filling = this.spare = undefined;
        this.filled = this.filledChars = this.unwrittenChars = 0;
        this.release();
      }
      this.flushing = false;
    }
  }

  private release(): void {
    if (this.unwrittenChars > STREAM_HIGH_WATER_CHARS) return;
    const waiting = this.belowHighWater;
    this.belowHighWater = [];
    for (const resolve of waiting) resolve();
  }
}

/**
 * Whether the decoder may hold a partial char after `bytes`: a lead byte (0xC0 and up) among the last
 * three (cautious: a complete char there only sends the next chunk through the decoder too). An ASCII
 * byte, or three continuation bytes, at the end: nothing pending. Fewer bytes than that, all
 * continuations: undefined (it depends on what came before).
 */
function endsInsideChar(bytes: Uint8Array): boolean | undefined {
  for (let index = bytes.length - 1; index >= 0 && index >= bytes.length - 3; index--) {
    const byte = bytes[index]!;
    if (byte < 0x80) return false;
    if (byte >= 0xc0) return true;
  }
  return bytes.length >= 3 ? false : undefined;
}

