// The results of one turn, published once final: without a total budget each call's result
// leaves as soon as it is settled; with one, every result waits until the turn's last call settled, so
// the budget (spec §7) is applied before any event, span, log line or session record sees a result.
import { publishCall, type SettledCall } from '../call/callRunner';
import type { ExecutorDeps } from '../call/callState';
import type { ToolCallResult } from '../contract/result';
import { applyTotalBudget } from './batchBudget';

export class TurnResults {
  private readonly settled: SettledCall[] = [];
  private readonly published: Promise<ToolCallResult>[] = [];

  constructor(
    private readonly deps: ExecutorDeps,
    /** Undefined: no total budget. */
    private readonly maxTotalBytes: number | undefined,
  ) {}

  /** The call at `index` (the model's order) settled. */
  add(index: number, call: SettledCall): void {
    // Without a total budget the call leaves now and only its published result is kept: holding every
    // call's state until the turn ends made a large batch spend much of its time in GC.
    if (this.maxTotalBytes === undefined) this.published[index] = publishCall(call, this.deps);
    else this.settled[index] = call;
  }

  /** Every one of `count` calls settled: publishes what waited, resolves the final results in order. */
  async close(count: number): Promise<ToolCallResult[]> {
    const held: readonly unknown[] = this.maxTotalBytes === undefined ? this.published : this.settled;
    const missing = Array.from({ length: count }, (_, index) => index).filter((index) => !held[index]);
    if (missing.length > 0) throw new Error(`bug: turn closed with calls ${missing.join(', ')} unsettled`);
    if (this.maxTotalBytes === undefined) return Promise.all(this.published);
    const final = applyTotalBudget(this.settled.map((call) => call.result), this.maxTotalBytes);
    const results: ToolCallResult[] = [];
    for (const [index, call] of this.settled.entries()) results.push(await publishCall(call, this.deps, final[index]));
    return results;
  }
}
