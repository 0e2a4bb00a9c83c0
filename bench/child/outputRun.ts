// What the big-output row's children share: the command they run, and how each prints its result.

export const MIB = 1024 * 1024;
/** The line `yes` repeats: a typical build log line. */
export const YES_LINE = 'npm WARN deprecated some-package@1.0.0: this line is a typical build log line';

/** `yes LINE | head -c N` for `mib` MiB. */
export function bigOutputCommand(mib: number, line = YES_LINE): string {
  return `yes '${line}' | head -c ${mib * MIB}`;
}

/** Prints the result line the row reads last: the wall time, this process's peak RSS, and `extra`. */
export function printOutputRun(ms: number, extra: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ ms, rssMiB: Math.round(process.resourceUsage().maxRSS / 1024), ...extra })}\n`);
}

/** Runs a child's `main`; a failure goes to stderr and exits 1. */
export function runOutputChild(main: () => Promise<void>): void {
  main().catch((error) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
}
