// Live progress and output of a running call, coalesced so a chatty command cannot flood
// a listener: at most one output and one progress event per interval, output capped per event.
import type { CallEvent } from '../../contract/events';
import { withoutLeadingLowSurrogate } from '../../format/text';
import { TailBuffer } from './tailBuffer';

/** A UI repaints about ten times a second at most; more events only cost the listener. Ours. */
export const LIVE_EVENT_INTERVAL_MS = 100;
/** The newest output kept between two events; older output is counted in `skippedChars`. Ours. */
export const LIVE_OUTPUT_MAX_CHARS = 8192;

/**
 * One per call. Text given to it is already redacted. The first report goes out at once; later ones
 * wait for the rest of the interval and are merged (output appended and capped, progress: the latest).
 */
export class LiveCallEvents {
  /**
   * The newest output since the last event, copied into a ring: a string kept here (a slice of a
   * stream's 64 KiB piece, or a copy of its end) lived through young-generation collections, and that
   * survival, added up, makes V8 grow its young generation.
   */
  private readonly output = new TailBuffer(LIVE_OUTPUT_MAX_CHARS);
  /** Chars of output since the last event, kept or not. */
  private outputChars = 0;
  private progress: { message: string; percent?: number } | undefined;
  private lastEmitAt = Number.NEGATIVE_INFINITY;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    private readonly callId: string,
    private readonly emit: (event: CallEvent) => void,
  ) {}

  addOutput(text: string): void {
    if (this.disposed || text.length === 0) return;
    if (!this.timer && performance.now() >= this.lastEmitAt + LIVE_EVENT_INTERVAL_MS) {
      // Due at once and nothing pending (pending reports keep a timer): sent as it is, without the
      // ring (a Bash call's one line of output need not allocate the ring).
      this.emitOutput(newestChars(text, LIVE_OUTPUT_MAX_CHARS), text.length);
      this.lastEmitAt = performance.now();
      return;
    }
    this.output.push(text);
    this.outputChars += text.length;
    this.schedule();
  }

  setProgress(message: string, percent?: number): void {
    if (this.disposed) return;
    this.progress = percent === undefined ? { message } : { message, percent };
    this.schedule();
  }

  /** Sends what is pending and stops; later reports are dropped. */
  dispose(): void {
    if (this.disposed) return;
    this.flush();
    this.disposed = true;
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = this.lastEmitAt + LIVE_EVENT_INTERVAL_MS - performance.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    this.timer = setTimeout(() => this.flush(), wait);
    // A pending report never keeps a process alive.
    this.timer.unref?.();
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.progress) {
      const { message, percent } = this.progress;
      this.progress = undefined;
      this.emit({ type: 'toolCallProgress', callId: this.callId, message, ...(percent === undefined ? {} : { percent }) });
    }
    if (this.outputChars > 0) {
      // The newest chars, never starting inside a surrogate pair (its low half counts as skipped).
      const text = this.output.text();
      const chars = this.outputChars;
      this.output.clear();
      this.outputChars = 0;
      this.emitOutput(text, chars);
    }
    this.lastEmitAt = performance.now();
  }

  /** `chars`: all the output since the last event; those not in `text` are counted as skipped. */
  private emitOutput(text: string, chars: number): void {
    this.emit({ type: 'toolCallOutput', callId: this.callId, text, skippedChars: chars - text.length });
  }
}

/** The last `max` chars of `text`, never starting with the low half of a surrogate pair (as `TailBuffer.text`). */
function newestChars(text: string, max: number): string {
  return withoutLeadingLowSurrogate(text.length > max ? text.slice(text.length - max) : text);
}
