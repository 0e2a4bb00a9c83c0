// Child of the big-output row: runs `yes … | head -c N` through Bash in an executor wired like the
// CLI (stream redaction, artifact writer, budgets) and prints its wall time and this process's peak RSS.
// Usage: node out/bench/child/bashOutput.js MiB
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { cliWiredExecutor } from '../wiring';

const MIB = 1024 * 1024;
const YES_LINE = 'npm WARN deprecated some-package@1.0.0: this line is a typical build log line';

async function main(): Promise<void> {
  const mib = Number(process.argv[2] ?? 256);
  const workspace = mkdtempSync(path.join(tmpdir(), 'bench-bash-'));
  const wired = await cliWiredExecutor(workspace);
  const started = performance.now();
  const result = await wired.executor.execute({ id: 'big', name: 'Bash', input: { command: `yes '${YES_LINE}' | head -c ${mib * MIB}` } });
  const ms = performance.now() - started;
  if (result.isError) throw new Error(result.modelContent);
  await wired.close();
  rmSync(workspace, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify({ ms, rssMiB: Math.round(process.resourceUsage().maxRSS / 1024), strategy: result.strategy })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
