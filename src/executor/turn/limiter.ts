// A FIFO semaphore whose waiters can be aborted; used for group concurrency and the admission gate.
import { NEVER_ABORTED } from '../contract/neverAborted';
import type { AdmissionGate } from '../ports/admissionGate';

/** Resolves `acquire` in arrival order once fewer than `slots` holders remain. */
export class Semaphore implements AdmissionGate {
  private active = 0;
  private readonly waiters: Array<{ grant: () => void }> = [];

  constructor(private slots: number) {
    if (!(slots >= 1)) {
      throw new RangeError(`Semaphore needs at least one slot, got ${slots}`);
    }
  }

  /**
   * Changes the number of slots (a setting changed): raising it admits waiters at once; lowering it
   * lets the holders finish and admits no one until fewer than the new number remain.
   */
  setLimit(slots: number): void {
    if (!(slots >= 1)) throw new RangeError(`Semaphore needs at least one slot, got ${slots}`);
    this.slots = slots;
    while (this.active < this.slots && this.waiters.length > 0) this.waiters.shift()!.grant();
  }

  get running(): number {
    return this.active;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.active < this.slots) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    // A turn without a signal waits on NEVER_ABORTED: nothing to listen to, and no per-call listener.
    const abortable = signal !== undefined && signal !== NEVER_ABORTED ? signal : undefined;
    return new Promise<() => void>((resolve, reject) => {
      const waiter = {
        grant: () => {
          abortable?.removeEventListener('abort', onAbort);
          this.active++;
          resolve(this.releaser());
        },
      };
      const onAbort = () => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(abortable?.reason);
      };
      abortable?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      if (this.active < this.slots) this.waiters.shift()?.grant();
    };
  }
}

/** A gate that admits everything at once: the default when the host sets no model concurrency. */
export const openAdmissionGate: AdmissionGate = {
  acquire(signal?: AbortSignal) {
    signal?.throwIfAborted();
    return Promise.resolve(() => {});
  },
};
