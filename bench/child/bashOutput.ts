// Child of the big-output row: runs `yes … | head -c N` through Bash in an executor wired like the
// CLI (stream redaction, artifact writer, budgets) and prints its wall time and this process's peak RSS.
// Usage: node out/bench/child/bashOutput.js MiB
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { cliWiredExecutor } from '../wiring';
import { bigOutputCommand, printOutputRun, runOutputChild } from './outputRun';


async function main(): Promise<void> {
  const mib = Number(process.argv[2] ?? 256);
  const workspace = mkdtempSync(path.join(tmpdir(), 'bench-bash-'));
  const wired = await cliWiredExecutor(workspace);
  const started = performance.now();
  const result = await wired.executor.execute({ id: 'big', name: 'Bash', input: { command: bigOutputCommand(mib) } });
  const ms = performance.now() - started;
  if (result.isError) throw new Error(result.modelContent);
  await wired.close();
  rmSync(workspace, { recursive: true, force: true });
  printOutputRun(ms, { strategy: result.strategy });
}

runOutputChild(main);
