// One Node timer for the process's deadlines. Node keeps a timer list per duration and drops
// it when it empties, so a call that armed its deadline and its command's timeout (Bash: 126 s and
// 120 s) made and dropped two lists, and a run of short calls did so for every call. Here a deadline is
// an entry in a set; the one timer is armed for the earliest entry and left armed when that entry goes,
// so a run of calls arms it about once per deadline length. A deadline that passes fires at the first
// turn of the timer on or after it, never before.

/** A deadline waiting on the clock. */
export interface ClockEntry {
  /** Takes it off the clock; it will not fire. Idempotent. */
  cancel(): void;
}

class Entry implements ClockEntry {
  /** Neighbours in the clock's list while on it. */
  prev: Entry | undefined;
  next: Entry | undefined;
  on = true;

  constructor(
    private readonly clock: DeadlineClock,
    readonly expiry: number,
    readonly fire: () => void,
  ) {}

  cancel(): void {
    this.clock.remove(this);
  }
}

/**
 * The entries are a doubly linked list, not a `Set`: a `Set` the clock kept for the process's life
 * (so in V8's old generation), taking and dropping an entry per call, made V8 keep far more of each
 * call's garbage through young-generation collections (docs/MEASUREMENTS.md, "Deadline clock").
 */
export class DeadlineClock {
  private head: Entry | undefined;
  private size = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer fires (`performance.now()`); Infinity when none is armed. */
  private armedFor = Number.POSITIVE_INFINITY;

  /** Calls `fire` once `performance.now()` reaches `expiry`, unless cancelled first. */
  at(expiry: number, fire: () => void): ClockEntry {
    const entry = new Entry(this, expiry, fire);
    entry.next = this.head;
    if (this.head) this.head.prev = entry;
    this.head = entry;
    this.size++;
    if (expiry < this.armedFor) this.arm(expiry);
    // A waiting deadline keeps the process alive, as its own timer would.
    else if (this.size === 1) this.timer?.ref();
    return entry;
  }

  /** Takes `entry` off the list (`Entry.cancel`); nothing if it is off already. */
  remove(entry: Entry): void {
    if (!entry.on) return;
    this.unlink(entry);
    // Left armed, but it no longer holds the process open.
    if (this.size === 0) this.timer?.unref();
  }

  private unlink(entry: Entry): void {
    entry.on = false;
    if (entry.prev) entry.prev.next = entry.next;
    else this.head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    entry.prev = entry.next = undefined;
    this.size--;
  }

  private arm(expiry: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.armedFor = expiry;
    this.timer = setTimeout(() => this.tick(), Math.max(1, Math.ceil(expiry - performance.now())));
  }

  private tick(): void {
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = performance.now();
    const due: Entry[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (let entry = this.head; entry; entry = entry.next) {
      if (entry.expiry <= now) due.push(entry);
      else next = Math.min(next, entry.expiry);
    }
    due.sort((a, b) => a.expiry - b.expiry);
    for (const entry of due) this.unlink(entry);
    if (next < this.armedFor) this.arm(next);
    // Fired last: a deadline's action may take others off or add new ones. Each fires even if one before
    // it threw, as separate timers would; the first error is thrown after them (uncaught, as a timer's).
    let failure: { error: unknown } | undefined;
    for (const entry of due) {
      try {
        entry.fire();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}

/** The process's clock, shared by every executor and tool. */
export const deadlineClock = new DeadlineClock();
