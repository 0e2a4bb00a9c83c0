// The CPU time of the calling thread, for the extension's own load and activate times (issue 13): on a 2-core
// machine the workbench starts while the extension host loads the extension, so its wall time is its CPU time
// plus the time it waited for a core. Logging both tells the two apart.

/** `process.threadCpuUsage` (Node 23.9 and later; absent in older hosts, where the time is not logged). Microseconds. */
type ThreadCpuUsage = () => { user: number; system: number };

/** This thread's CPU time so far (ms), or undefined where Node cannot tell it. */
export function threadCpuMs(): number | undefined {
  const usage = (process as unknown as { threadCpuUsage?: ThreadCpuUsage }).threadCpuUsage;
  if (typeof usage !== 'function') return undefined;
  const { user, system } = usage.call(process);
  return (user + system) / 1000;
}

/** CPU time since `started` (from threadCpuMs), or undefined where either is unknown. */
export function threadCpuSince(started: number | undefined): number | undefined {
  const now = started === undefined ? undefined : threadCpuMs();
  return started === undefined || now === undefined ? undefined : now - started;
}
