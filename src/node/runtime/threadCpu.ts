// The calling thread's CPU time and its wait for a core, for the extension's own load and activate times:
// on a 2-core machine the workbench starts while the extension host loads the extension, so its
// wall time is its CPU time plus the time it waited on a run queue for a core (plus any blocking call).
// Logging all three tells them apart.
import { readFileSync } from 'node:fs';

/** `process.threadCpuUsage` (Node 23.9 and later; absent in older hosts, where the time is not logged). Microseconds. */
type ThreadCpuUsage = () => { user: number; system: number };

/** Where Linux keeps this thread's scheduler times: on a CPU, waiting on a run queue (ns), time slices. */
const SCHEDSTAT = '/proc/thread-self/schedstat';

/** This thread's CPU time so far (ms), or undefined where Node cannot tell it. */
export function threadCpuMs(): number | undefined {
  const usage = (process as unknown as { threadCpuUsage?: ThreadCpuUsage }).threadCpuUsage;
  if (typeof usage !== 'function') return undefined;
  const { user, system } = usage.call(process);
  return (user + system) / 1000;
}

/**
 * How long this thread has waited on a run queue so far (ms): ready to run, with no core free. The kernel's
 * own count (Linux, schedstat's second field); undefined elsewhere, or where the kernel keeps none.
 */
export function threadRunQueueMs(): number | undefined {
  try {
    const waited = Number(readFileSync(SCHEDSTAT, 'latin1').split(' ')[1]);
    return Number.isFinite(waited) ? waited / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

/** What a thread clock read from its start to now (ms): wall time, this thread's CPU time, its run-queue wait. */
export interface ThreadElapsed {
  readonly ms: number;
  /** Undefined where Node cannot tell it (before 23.9). */
  readonly cpuMs: number | undefined;
  /** Undefined where the kernel does not count it (other than Linux). */
  readonly runQueueMs: number | undefined;
}

/** Starts a clock of the wall time, this thread's CPU time and its run-queue wait; `elapsed()` reads all three since. */
export function startThreadClock(): { elapsed(): ThreadElapsed } {
  const started = performance.now();
  const cpuStarted = threadCpuMs();
  const waitStarted = threadRunQueueMs();
  return { elapsed: () => ({ ms: performance.now() - started, cpuMs: threadCpuSince(cpuStarted), runQueueMs: threadRunQueueSince(waitStarted) }) };
}

/** CPU time since `started` (from threadCpuMs), or undefined where either is unknown. */
export function threadCpuSince(started: number | undefined): number | undefined {
  return since(started, threadCpuMs);
}

/** Run-queue wait since `started` (from threadRunQueueMs), or undefined where either is unknown. */
export function threadRunQueueSince(started: number | undefined): number | undefined {
  return since(started, threadRunQueueMs);
}

function since(started: number | undefined, now: () => number | undefined): number | undefined {
  const current = started === undefined ? undefined : now();
  return started === undefined || current === undefined ? undefined : current - started;
}
