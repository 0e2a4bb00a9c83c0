// The extension's core, loaded on first use (issue 13: load + activate in the real extension host). In the
// bundle, `dist/extension-main.js` holds the VS Code glue and `dist/extension-core.js` what the glue imports
// from elsewhere: the executor, the tools, the Node adapters, ACP (scripts/build.mjs `coreOnFirstUse`). Each
// such import is a stand-in there whose names read the module here, so the core is loaded the first time the
// glue reads one of them: a tool call, a chat request, a command, not activation. Loaded with a V8 code cache,
// as the launcher loads `extension-main.js`. Compiled by tsc (the tests), nothing calls this: the modules are
// imported as they are.
import * as path from 'node:path';
import { loadWithCodeCache, type LoadedModule } from '../node/codeCache';
import { threadCpuMs, threadCpuSince } from '../node/threadCpu';

/** The core's file, beside `extension-main.js`. */
export const CORE_FILE = 'extension-core.js';
/** How long after loading the core its code cache is written: the first calls have compiled by then. As the launcher's. */
export const CORE_CODE_CACHE_SAVE_DELAY_MS = 5000;

/** How the core was loaded, for the log. */
export interface CoreLoad {
  /** Loading and running `extension-core.js` (ms). */
  readonly loadMs: number;
  /** This thread's CPU time in that (ms); undefined before Node 23.9. */
  readonly loadCpuMs: number | undefined;
  readonly codeCache: LoadedModule['cache'];
}

let modules: Record<string, unknown> | undefined;
let load: CoreLoad | undefined;

/** The core's module `id` (its path from the repository root), loading the core the first time. */
export function coreModule(id: string): Record<string, unknown> {
  if (!modules) {
    const started = performance.now();
    const cpuStarted = threadCpuMs();
    const loaded = loadWithCodeCache(path.join(__dirname, CORE_FILE));
    modules = (loaded.module.exports as { modules: Record<string, unknown> }).modules;
    load = { loadMs: performance.now() - started, loadCpuMs: threadCpuSince(cpuStarted), codeCache: loaded.cache };
    setTimeout(() => loaded.save(), CORE_CODE_CACHE_SAVE_DELAY_MS).unref();
  }
  const found = modules[id];
  if (!found) throw new Error(`${CORE_FILE} has no module ${id}: rebuild the extension (scripts/build.mjs)`);
  return found as Record<string, unknown>;
}

/** How the core was loaded; undefined until it is, and when the modules were not bundled (tsc's output). */
export function coreLoad(): CoreLoad | undefined {
  return load;
}
