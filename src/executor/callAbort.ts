// A call's abort controller, made only when someone asks for its signal (issue 13): most handlers
// finish without looking, and a controller, its event dispatch and an abort reason with a stack
// trace cost more than a no-op call itself.

/** Aborts a call once: for the turn, its deadline, or because it is over. */
export class CallAbort {
  private controller: AbortController | undefined;
  private abortedWith: { readonly reason: unknown } | undefined;
  private listener: ((reason: unknown) => void) | undefined;
  /** Set when the call ended without an abort: the reason is made only if someone asks for it. */
  private endedWith: (() => unknown) | undefined;

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
   * the next turn of the event loop, after the result went on (issue 13: the abort's event and reason
   * cost a Bash call 10-25 µs after its shell exited). Read through `signal` it is aborted at once.
   */
  end(reason: () => unknown): void {
    if (this.aborted) return;
    this.listener = undefined;
    this.endedWith = reason;
    if (this.controller) setImmediate(() => this.abortHandedOut());
  }

  /** The one listener of the executor itself, told at the first abort (before nothing, after the signal's own). */
  onAbort(listener: (reason: unknown) => void): void {
    this.listener = listener;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.abortedWith = { reason };
    this.controller?.abort(reason);
    const listener = this.listener;
    this.listener = undefined;
    listener?.(reason);
  }

  /** The signal handed out, aborted with the end's reason (once). */
  private abortHandedOut(): void {
    if (this.controller && !this.controller.signal.aborted) this.controller.abort(this.reason);
  }

  /** Throws what the signal would give as its reason, once aborted or ended; makes no signal. */
  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }
}
