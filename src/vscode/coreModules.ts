// The extension's core, loaded on first use, to keep load + activate in the extension host short. In the
// bundle, `dist/extension-main.js` holds the VS Code glue and `dist/extension-core.js` what the glue imports
// from elsewhere: the executor, the tools, the Node adapters, ACP (scripts/build.mjs `coreOnFirstUse`). Each
// such import is a stand-in there whose names read the module here, so the core is loaded the first time the
// glue reads one of them: a tool call, a chat request, a command, not activation. Loaded with a V8 code cache,
// as the launcher loads `extension-main.js`. Compiled by tsc (the tests), nothing calls this: the modules are
// imported as they are.
import * as path from 'node:path';
import { CODE_CACHE_SAVE_DELAY_MS, loadWithCodeCache, type LoadedModule } from '../node/runtime/codeCache';
import { startThreadClock } from '../node/runtime/threadCpu';

/** The core's file, beside `extension-main.js`. */
export const CORE_FILE = 'extension-core.js';

/** How the core was loaded, for the log. */
export interface CoreLoad {
  /** Loading and running `extension-core.js` (ms). */
  readonly loadMs: number;
  /** This thread's CPU time in that (ms); undefined before Node 23.9. */
  readonly loadCpuMs: number | undefined;
  /** The time in that it waited on a run queue for a core (ms, Linux only). */
  readonly loadRunQueueMs: number | undefined;
  readonly codeCache: LoadedModule['cache'];
}

let modules: Record<string, unknown> | undefined;
let load: CoreLoad | undefined;

/** The core's module `id` (its path from the repository root), loading the core the first time. */
export function coreModule(id: string): Record<string, unknown> {
  if (!modules) {
    const clock = startThreadClock();
    const loaded = loadWithCodeCache(path.join(__dirname, CORE_FILE));
    modules = (loaded.module.exports as { modules: Record<string, unknown> }).modules;
    const took = clock.elapsed();
    load = { loadMs: took.ms, loadCpuMs: took.cpuMs, loadRunQueueMs: took.runQueueMs, codeCache: loaded.cache };
    setTimeout(() => loaded.save(), CODE_CACHE_SAVE_DELAY_MS).unref();
  }
  const found = modules[id];
  if (!found) throw new Error(`${CORE_FILE} has no module ${id}: rebuild the extension (scripts/build.mjs)`);
  return found as Record<string, unknown>;
}

/** How the core was loaded; undefined until it is, and when the modules were not bundled (tsc's output). */
export function coreLoad(): CoreLoad | undefined {
  return load;
}
