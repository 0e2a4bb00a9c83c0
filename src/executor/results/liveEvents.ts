// Live progress and output of a running call (issue 10), coalesced so a chatty command cannot flood
// a listener: at most one output and one progress event per interval, output capped per event.
import type { CallEvent } from '../events';
import { detachedSlice } from '../text';

/** A UI repaints about ten times a second at most; more events only cost the listener. Ours. */
export const LIVE_EVENT_INTERVAL_MS = 100;
/** The newest output kept between two events; older output is counted in `skippedChars`. Ours. */
export const LIVE_OUTPUT_MAX_CHARS = 8192;

/**
 * One per call. Text given to it is already redacted. The first report goes out at once; later ones
 * wait for the rest of the interval and are merged (output appended and capped, progress: the latest).
 */
export class LiveCallEvents {
  private output = '';
  private skipped = 0;
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
    if (text.length >= LIVE_OUTPUT_MAX_CHARS) {
      // The piece alone fills the window: cut it, not the concatenation of everything pending with it.
      const cut = keepWholeChars(text, text.length - LIVE_OUTPUT_MAX_CHARS);
      this.skipped += this.output.length + cut;
      this.output = detachedSlice(text, cut);
      this.schedule();
      return;
    }
    this.output += text;
    if (this.output.length > LIVE_OUTPUT_MAX_CHARS) {
      const cut = keepWholeChars(this.output, this.output.length - LIVE_OUTPUT_MAX_CHARS);
      this.skipped += cut;
      this.output = this.output.slice(cut);
    }
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
    if (this.output.length > 0 || this.skipped > 0) {
      const event: CallEvent = { type: 'toolCallOutput', callId: this.callId, text: this.output, skippedChars: this.skipped };
      this.output = '';
      this.skipped = 0;
      this.emit(event);
    }
    this.lastEmitAt = performance.now();
  }
}

/** `cut`, moved forward past a low surrogate so a pair is never split. */
function keepWholeChars(text: string, cut: number): number {
  const code = text.charCodeAt(cut);
  return code >= 0xdc00 && code <= 0xdfff ? cut + 1 : cut;
}
