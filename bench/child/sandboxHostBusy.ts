// Child of the sandbox row: how long the host's event loop is busy for each command the OS sandbox wraps,
// with the runtime loaded in the host (as it was before the runtime had a process of its own) and with it in its own process
// (src/tools/sandbox/runtime/runtimeProcess.ts, as the executor runs it). The process first grows to `MiB` of
// resident memory, as an extension host is: the runtime's forks (`which`, `rg`) copy the forking
// process's page tables. It prints `{inProcess, ownProcess}`, each the median over the wraps of the loop's
// busy time in ms (performance.eventLoopUtilization: the time it ran callbacks, not waited), and the RSS.
// (The longest single hold was not kept: monitorEventLoopDelay does not count the interval before its
// first tick, where a wrap's synchronous start falls, and counts the time the OS gave the core to the
// runtime's process.)
// Usage: node out/bench/child/sandboxHostBusy.js MiB WRAPS WORKSPACE
import { mkdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadSandboxRuntime, type SandboxRuntime } from '../../src/tools/sandbox/runtime/runtime';
import { SandboxRuntimeProcess } from '../../src/tools/sandbox/runtime/runtimeProcess';
import { SANDBOX_TMPDIR } from '../../src/tools/sandbox/bashSandbox';
import { sandboxRuntimeConfig } from '../../src/tools/sandbox/sandboxConfig';
import { stat } from '../lib';

export interface SandboxHostBusy {
  readonly rssMiB: number;
  readonly inProcess: { readonly busyMs: number };
  readonly ownProcess: { readonly busyMs: number };
}

async function measure(runtime: SandboxRuntime, wraps: number, workspace: string): Promise<{ busyMs: number }> {
  await runtime.initialize(sandboxRuntimeConfig({ platform: process.platform, home: process.env.HOME ?? '/root', folders: [workspace], allowedDomains: [] }));
  const busy: number[] = [];
  const signal = new AbortController().signal;
  try {
    // The first wrap loads what the runtime loads lazily; it is not counted.
    await runtime.wrap({ command: 'echo hi', shell: '/bin/bash', key: 'warm', cwd: workspace }, signal);
    await runtime.commandEnded();
    for (let index = 0; index < wraps; index++) {
      const before = performance.eventLoopUtilization();
      await runtime.wrap({ command: 'echo hi', shell: '/bin/bash', key: `k${index}`, cwd: workspace }, signal);
      await runtime.commandEnded();
      busy.push(performance.eventLoopUtilization(before).active);
    }
  } finally {
    await runtime.reset();
  }
  return { busyMs: stat(busy).median };
}

async function main(): Promise<void> {
  const [mib, wraps, workspace] = [Number(process.argv[2] ?? 300), Number(process.argv[3] ?? 15), process.argv[4]!];
  mkdirSync(SANDBOX_TMPDIR, { recursive: true });
  // Touched, so it is resident (and its pages are in the page tables a fork copies).
  const ballast = Buffer.allocUnsafe(Math.max(0, mib - Math.round(process.memoryUsage().rss / 2 ** 20)) * 2 ** 20).fill(1);
  const ownProcess = await measure(new SandboxRuntimeProcess(), wraps, workspace);
  const inProcess = await measure(await loadSandboxRuntime(), wraps, workspace);
  const result: SandboxHostBusy = { rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20), inProcess, ownProcess };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  void ballast.length;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
