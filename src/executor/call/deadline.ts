// The pausable deadline of a call (spec §3.7): the clock stops while the tool's model request is queued.
import type { DeadlineControl } from '../contract/contract';
import type { ClockEntry, DeadlineClock } from './deadlineClock';

/**
 * A one-shot timer that can be paused. Time spent paused is not counted against the budget
 * and is reported as `queuedMs`, so a timeout can tell "slow" from "waiting in our own queue".
 */
export class ToolDeadline implements DeadlineControl {
  private remainingMs: number;
  private runningSince: number | undefined;
  private pausedSince: number | undefined;
  private pauseDepth = 0;
  private queuedTotalMs = 0;
  private timer: ClockEntry | undefined;
  private done = false;

  /** `timeoutMs` undefined: never expires (but pauses are still measured). */
  constructor(
    private readonly timeoutMs: number | undefined,
    private readonly onExpire: () => void,
    /** The clock its timer runs on: one per host, shared by every call. */
    private readonly clock: DeadlineClock,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.remainingMs = timeoutMs ?? Number.POSITIVE_INFINITY;
  }

  start(): void {
    if (this.done || this.runningSince !== undefined || this.pauseDepth > 0) return;
    this.arm();
  }

  pause(): void {
    if (this.done) return;
    this.pauseDepth++;
    if (this.pauseDepth > 1) return;
    this.pausedSince = this.now();
    if (this.runningSince !== undefined) {
      this.remainingMs -= this.pausedSince - this.runningSince;
      this.runningSince = undefined;
    }
    this.clearTimer();
  }

  resume(): void {
    if (this.done || this.pauseDepth === 0) return;
    this.pauseDepth--;
    if (this.pauseDepth > 0) return;
    if (this.pausedSince !== undefined) {
      this.queuedTotalMs += this.now() - this.pausedSince;
      this.pausedSince = undefined;
    }
    this.arm();
  }

  get queuedMs(): number {
    const current = this.pausedSince === undefined ? 0 : this.now() - this.pausedSince;
    return Math.round(this.queuedTotalMs + current);
  }

  get budgetMs(): number | undefined {
    return this.timeoutMs;
  }

  /** Stops the clock for good; later pauses and resumes do nothing. */
  dispose(): void {
    if (this.pausedSince !== undefined) {
      this.queuedTotalMs += this.now() - this.pausedSince;
      this.pausedSince = undefined;
    }
    this.done = true;
    this.clearTimer();
  }

  private arm(): void {
    this.runningSince = this.now();
    if (!Number.isFinite(this.remainingMs)) return;
    this.timer = this.clock.at(performance.now() + Math.max(0, this.remainingMs), () => {
      this.timer = undefined;
      if (this.done) return;
      this.done = true;
      this.onExpire();
    });
  }

  private clearTimer(): void {
    if (this.timer !== undefined) {
      this.timer.cancel();
      this.timer = undefined;
    }
  }
}
