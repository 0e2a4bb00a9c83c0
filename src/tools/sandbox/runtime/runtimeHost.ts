// The sandbox runtime's own process (run by src/tools/sandbox/runtime/runtimeProcess.ts with an IPC channel): it
// loads `@anthropic-ai/sandbox-runtime` and serves the host's requests as they come. Before each command
// the runtime runs `rg` over the command's folder for its protected names (and, outside the bundle,
// `which` for the shell: src/tools/sandbox/runtime/which.ts) and checks every protected path with synchronous file
// system calls, and its filtering proxies carry all of a sandboxed command's network traffic: here none of
// that runs on the host's event loop. It stops, proxies and all, when the host goes.
import { loadSandboxRuntime, type SandboxRuntime } from './runtime';
import type { RuntimeAnswer, RuntimeRequest } from './runtimeProcess';

/** How long the runtime's reset may take once the host is gone. */
const RESET_ON_DISCONNECT_MS = 5_000;

let runtime: Promise<SandboxRuntime> | undefined;
/** The wraps under way, to be stopped when the host gives one up. */
const wraps = new Map<number, AbortController>();

function answer(message: RuntimeAnswer): void {
  try {
    process.send!(message);
  } catch {
    // The host is gone: the disconnect handler stops this process.
  }
}

async function serve(request: RuntimeRequest): Promise<void> {
  if (request.op === 'abort') {
    wraps.get(request.target)?.abort(new Error('the call was cancelled'));
    return;
  }
  try {
    runtime ??= loadSandboxRuntime();
    const library = await runtime;
    switch (request.op) {
      case 'isSupportedPlatform':
        return answer({ id: request.id, value: await library.isSupportedPlatform() });
      case 'checkDependencies':
        return answer({ id: request.id, value: await library.checkDependencies(request.ripgrep) });
      case 'initialize':
        await library.initialize(request.config);
        return answer({ id: request.id, value: null });
      case 'updateConfig':
        await library.updateConfig(request.config);
        return answer({ id: request.id, value: null });
      case 'wrap': {
        const controller = new AbortController();
        wraps.set(request.id, controller);
        try {
          return answer({ id: request.id, value: await library.wrap(request.command, controller.signal) });
        } finally {
          wraps.delete(request.id);
        }
      }
      case 'commandEnded':
        await library.commandEnded();
        return answer({ id: request.id, value: null });
      case 'violations':
        return answer({ id: request.id, value: await library.violations(request.key) });
      case 'reset':
        await library.reset();
        return answer({ id: request.id, value: null });
    }
  } catch (error) {
    answer({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
}

if (!process.send) {
  process.stderr.write('runtimeHost: run by the executor with an IPC channel, not by hand\n');
  process.exit(2);
}
process.on('message', (request: RuntimeRequest) => void serve(request));
process.on('disconnect', () => {
  setTimeout(() => process.exit(0), RESET_ON_DISCONNECT_MS).unref();
  void (runtime ?? Promise.resolve(undefined))
    .then((library) => library?.reset())
    .catch(() => undefined)
    .finally(() => process.exit(0));
});
