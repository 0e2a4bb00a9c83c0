// `dist/extension.js`, the extension's `main`: runs the extension proper, `dist/extension-main.js`, with a V8
// code cache where it can (src/node/runtime/codeCache.ts), since loading the code was most of load + activate in the real
// extension host. The cache is written once, a little after the first activation without
// one, so it holds what activating compiled. Only Node built-ins here, so this file stays a few KB.
import * as path from 'node:path';
import { CODE_CACHE_SAVE_DELAY_MS, loadWithCodeCache, type LoadedModule } from './node/runtime/codeCache';
import { startThreadClock } from './node/runtime/threadCpu';

/** How the extension proper was loaded, for its log (src/extension.ts `activate`). */
export interface LaunchInfo {
  /** Loading and running `extension-main.js` (ms): read, code cache, compile, its top level. */
  readonly loadMs: number;
  /** This thread's CPU time in that (ms): `loadMs` less the time it waited for a core; undefined before Node 23.9. */
  readonly loadCpuMs: number | undefined;
  /** The time in that it waited on a run queue for a core (ms, Linux only: the kernel's own count). */
  readonly loadRunQueueMs: number | undefined;
  readonly codeCache: LoadedModule['cache'];
}

interface ExtensionModule {
  activate(context: unknown, launch: LaunchInfo): unknown;
  deactivate?(): unknown;
}

const clock = startThreadClock();
const loaded = loadWithCodeCache(path.join(__dirname, 'extension-main.js'));
const took = clock.elapsed();
const launch: LaunchInfo = { loadMs: took.ms, loadCpuMs: took.cpuMs, loadRunQueueMs: took.runQueueMs, codeCache: loaded.cache };
const main = loaded.module.exports as ExtensionModule;

export function activate(context: unknown): unknown {
  const api = main.activate(context, launch);
  setTimeout(() => loaded.save(), CODE_CACHE_SAVE_DELAY_MS).unref();
  return api;
}

export function deactivate(): unknown {
  return main.deactivate?.();
}
