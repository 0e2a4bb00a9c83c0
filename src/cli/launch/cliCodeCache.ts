// The CLI's start with a V8 code cache (src/node/runtime/codeCache.ts), so a fresh process starts faster: `dist/cli.js`
// is a small launcher (src/cli/launch/launcher.ts) that runs the CLI proper, `dist/cli-main.js`, and writes the
// cache at exit after a run that did the CLI's work. `TOOL_EXEC_LOG=debug` says what it did on stderr.
import { loadWithCodeCache, type Debug } from '../../node/runtime/codeCache';

export { cacheFileName, cacheKey, codeCacheDir, NO_CODE_CACHE_ENV, writeCache } from '../../node/runtime/codeCache';

/** Whether a run that ended so is worth caching: it did the CLI's work (not only --help or --version). */
function worthCaching(exitCode: number, argv: readonly string[]): boolean {
  return exitCode === 0 && !argv.some((arg) => arg === '--help' || arg === '-h' || arg === '--version');
}

/**
 * Loads and runs `mainFile` (the CLI bundle) as a CommonJS module, with a code cache where it can.
 * `beforeSave`: called at exit before the cache is written (V8 stamps a cache with a hash of its flags and
 * rejects it where they differ at load, so a flag changed while running is to be set back by then).
 */
export function launch(mainFile: string, options: { readonly beforeSave?: () => void } = {}): void {
  const debug: Debug =
    process.env.TOOL_EXEC_LOG === 'debug'
      ? (message) => {
          try {
            process.stderr.write(`${new Date().toISOString()} debug code cache: ${message}\n`);
          } catch {
            // Nobody to tell.
          }
        }
      : () => {};
  // Registered before the CLI runs, so it comes before the CLI's own exit handlers. At exit the cache holds
  // what the run compiled; the output is written by then (the CLI writes stdout synchronously).
  let loaded: { save(): void } | undefined;
  process.once('exit', (code) => {
    if (!loaded || !worthCaching(code, process.argv.slice(2))) return;
    options.beforeSave?.();
    loaded.save();
  });
  loaded = loadWithCodeCache(mainFile, debug);
}
