// A call's abort controller, made only when someone asks for its signal: most handlers
// finish without looking, and a controller, its event dispatch and an abort reason with a stack
// trace cost more than a no-op call itself.

/** Aborts a call once: for the turn, its deadline, or because it is over. */
export class CallAbort {
  private controller: AbortController | undefined;
  private abortedWith: { readonly reason: unknown } | undefined;
  private listener: ((reason: unknown) => void) | undefined;
  /** Set when the call ended without an abort: the reason is made only if someone asks for it. */
  private endedWith: (() => unknown) | undefined;
  /** The handler's own listeners (`ToolContext.onAbort`), told as the signal's would be. */
  private handlerListeners: Set<(reason: unknown) => void> | undefined;

  /** The handler's signal; made on first use, already aborted if the call was or has ended. */
  get signal(): AbortSignal {
    if (this.endedWith && !this.abortedWith) this.abortedWith = { reason: this.endedWith() };
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortedWith) this.controller.abort(this.abortedWith.reason);
    } else if (this.endedWith) {
      this.abortHandedOut();
    }
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.abortedWith !== undefined || this.endedWith !== undefined;
  }

  get reason(): unknown {
    if (this.endedWith && !this.abortedWith) this.abortedWith = { reason: this.endedWith() };
    return this.abortedWith?.reason;
  }

  /**
   * The call is over: a signal taken later is born aborted with `reason()`; one handed out aborts at
   * the next turn of the event loop, after the result went on, so the abort's event and reason do not
   * delay the result. Read through `signal` it is aborted at once.
   */
  end(reason: () => unknown): void {
    if (this.aborted) return;
    this.listener = undefined;
    this.endedWith = reason;
    if (this.controller || this.handlerListeners?.size) setImmediate(() => this.abortHandedOut());
  }

  /**
   * `ToolContext.onAbort`: `listener` hears the first abort, or the call's end (at the next turn of the
   * event loop, as a handed-out signal does), once; at once if either came already. No signal is made
   * (docs/MEASUREMENTS.md, "Call abort"). A listener that throws is not let stop the abort of the call.
   */
  listen(listener: (reason: unknown) => void): () => void {
    if (this.aborted) {
      callQuietly(listener, this.reason);
      return () => {};
    }
    const listeners = (this.handlerListeners ??= new Set());
    // Each listening is its own entry: the same function listening twice is stopped once per stop.
    const entry = (reason: unknown) => listener(reason);
    listeners.add(entry);
    return () => {
      listeners.delete(entry);
    };
  }

  /** The one listener of the executor itself, told at the first abort (before nothing, after the signal's own). */
  onAbort(listener: (reason: unknown) => void): void {
    this.listener = listener;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.abortedWith = { reason };
    this.controller?.abort(reason);
    this.tellHandlerListeners(reason);
    const listener = this.listener;
    this.listener = undefined;
    listener?.(reason);
  }

  /** The signal handed out and the handler's listeners, aborted with the end's reason (once). */
  private abortHandedOut(): void {
    if (this.controller && !this.controller.signal.aborted) this.controller.abort(this.reason);
    if (this.handlerListeners?.size) this.tellHandlerListeners(this.reason);
  }

  private tellHandlerListeners(reason: unknown): void {
    const listeners = this.handlerListeners;
    this.handlerListeners = undefined;
    if (listeners) for (const listener of listeners) callQuietly(listener, reason);
  }

  /** Throws what the signal would give as its reason, once aborted or ended; makes no signal. */
  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }
}

/** A handler's listener that throws is its own failure: the abort goes on to the other listeners. */
function callQuietly(listener: (reason: unknown) => void, reason: unknown): void {
  try {
    listener(reason);
  } catch {
    // Nothing to tell: the call is aborting, and its result says so.
  }
}
