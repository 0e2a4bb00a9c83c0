// Streams N MiB of Bash-like output through the executor (stream redaction, artifact writer,
// budgets) and reports peak memory and throughput. Usage: node out/bench/streamOutput.js [MiB]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { ToolContext } from '../src/executor/contract/contract';
import { ToolExecutor } from '../src/executor/executor';
import { ModePolicy } from '../src/executor/policy/modePolicy';
import { createRedactor } from '../src/executor/results/redaction/patternRedactor';
import { NodeArtifactStore } from '../src/node/artifacts/nodeArtifactStore';

const MIB = 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

async function main(): Promise<void> {
  const totalMiB = Number(process.argv[2] ?? 1024);
  const root = mkdtempSync(path.join(tmpdir(), 'stream-bench-'));
  const line = 'npm WARN deprecated some-package@1.0.0: this line is a typical build log line\n';
  const chunk = Buffer.from(line.repeat(Math.ceil(CHUNK_BYTES / line.length)));
  const executor = new ToolExecutor({
    workspaceFolders: [root],
    permissionPolicy: new ModePolicy('bypass'),
    redactor: createRedactor({ env: process.env }),
    artifactStore: new NodeArtifactStore({ root, maxTotalBytes: 4 * 1024 * MIB }),
  });
  executor.registry.register({
    name: 'Bash',
    description: 'streams output',
    jsonSchema: { type: 'object' },
    readOnly: false,
    timeout: { kind: 'none' },
    handler: async (_input: unknown, ctx: ToolContext) => {
      const stream = ctx.openOutputStream({ display: 'bash_output' });
      let written = 0;
      while (written < totalMiB * MIB) {
        await stream.write(chunk);
        written += chunk.length;
      }
      return { content: 'Exit code: 0' };
    },
  });
  let peakRss = 0;
  let peakHeap = 0;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  }, 50);
  const baseline = process.memoryUsage();
  const started = performance.now();
  const result = await executor.execute({ id: 'bench', name: 'Bash', input: {} });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const artifactBytes = result.artifact ? statSync(result.artifact.path).size : 0;
  console.log(
    JSON.stringify({
      streamedMiB: totalMiB,
      seconds: Number(seconds.toFixed(1)),
      MiBPerSecond: Number((totalMiB / seconds).toFixed(1)),
      baselineRssMiB: Math.round(baseline.rss / MIB),
      peakRssMiB: Math.round(peakRss / MIB),
      peakHeapUsedMiB: Math.round(peakHeap / MIB),
      artifactMiB: Math.round(artifactBytes / MIB),
      strategy: result.strategy,
      modelBytes: result.modelBytes,
    }),
  );
  await executor.dispose();
  rmSync(root, { recursive: true, force: true });
}

void main();
