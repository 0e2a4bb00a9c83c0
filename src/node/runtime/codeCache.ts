// Starting a bundle with a V8 code cache, for a faster start. Compiling a bundle of a few hundred KB, and
// compiling its functions lazily while it runs, is a good part of a fresh process's start (the CLI) and of an
// extension's activation; a code cache written after the code ran skips both the next time. Used by the CLI's
// launcher (`dist/cli.js` starts `dist/cli-main.js`; src/cli/launch/cliCodeCache.ts) and the extension's
// (`dist/extension.js` starts `dist/extension-main.js`; src/extensionLauncher.ts).
//
// The main file is compiled by `vm.Script` in the CommonJS wrapper, with the cache when there is one that V8
// accepts; when there was none (or V8 rejected it) the caller saves a new one once the code has run, so it
// holds the functions the run compiled too, not only the top level. Not Node's `module.enableCompileCache`
// (22.1+): it is process-wide (in the extension host it would cache every other extension's modules in our
// folder) and keeps only the top level, which saves less (docs/MEASUREMENTS.md, "Code cache").
// No `importModuleDynamically`: Node 20's V8 drops it from a script deserialized from a cache (`import()` then
// throws "A dynamic import callback was not specified"); a bundle that needs `import()` keeps it in a file
// Node's loader compiles (the CLI's `dist/cli-import.js`, src/cli/toolModules/importModule.ts).
//
// A code cache is code: it lives in `$XDG_CACHE_HOME/agent-tool-executor/code-cache` (or `~/.cache/...`),
// used only if that directory is ours and writable by nobody else. V8 checks only the source's length and
// its own flags, so a cache file is named by a hash of the main file's content, Node's version and the
// architecture, and holds that key and a digest of itself, which are checked before V8 sees it. Whatever
// goes wrong with the cache (unusable directory, unreadable or foreign file, failed write) the code runs
// without it. `TOOL_EXEC_NO_CODE_CACHE=1` turns it off.
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';

/** How long after the extension's files are loaded their code cache is written (the launcher's, the core's): what their first use compiled is in it by then. */
export const CODE_CACHE_SAVE_DELAY_MS = 5000;

/** Set (and not `0`): no code cache, for the CLI and the extension. */
export const NO_CODE_CACHE_ENV = 'TOOL_EXEC_NO_CODE_CACHE';

/** The first bytes of our cache files; the version changes with the layout. */
const MAGIC = Buffer.from('tool-exec code cache 1\n');
const DIGEST_BYTES = 32;
/** A temporary file of another process's write is left alone this long (it may still rename it). */
const TEMP_GRACE_MS = 60_000;

/** What Node's CommonJS loader wraps a module in; on a line of its own, so lines and columns stay the file's. */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {\n';
const WRAPPER_TAIL = '\n})';

export type Debug = (message: string) => void;

/** `$XDG_CACHE_HOME/agent-tool-executor/code-cache`, or under `~/.cache` when that is unset or relative. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(homedir(), '.cache');
  return path.join(base, 'agent-tool-executor', 'code-cache');
}

/**
 * Creates `dir` (0700) if needed; why it cannot hold code we run, or undefined when it can: a directory
 * (not a link to one) owned by the current user and not writable by group or others.
 */
export function unusableReason(dir: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return 'no user id to check the directory against on this platform';
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stats = fs.lstatSync(dir);
    if (!stats.isDirectory()) return `${dir} is not a directory`;
    if (stats.uid !== uid) return `${dir} is owned by uid ${stats.uid}, not ${uid}`;
    if ((stats.mode & 0o022) !== 0) return `${dir} is writable by group or others (mode ${(stats.mode & 0o777).toString(8)})`;
    return undefined;
  } catch (error) {
    return `${dir}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The key of a cache for `source`: its content, Node's version and the architecture (sha256, hex). */
export function cacheKey(source: Buffer): string {
  return createHash('sha256').update(`${process.version}\0${process.arch}\0`).update(source).digest('hex');
}

/** `<main file's name>.<key>.v8cache`. */
export function cacheFileName(mainFile: string, key: string): string {
  return `${path.basename(mainFile)}.${key}.v8cache`;
}

function digest(key: string, data: Uint8Array): Buffer {
  return createHash('sha256').update(key).update(data).digest();
}

/** The cached data in `file` if it is a regular file of ours written for `key` and intact; else why not. */
export function readCache(file: string, key: string): { data: Buffer } | { missing: true } | { invalid: string } {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { missing: true } : { invalid: (error as Error).message };
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) return { invalid: 'not a regular file' };
    if (stats.uid !== process.getuid?.()) return { invalid: `owned by uid ${stats.uid}` };
    const header = MAGIC.length + DIGEST_BYTES;
    if (stats.size <= header) return { invalid: 'too short' };
    const bytes = Buffer.allocUnsafe(stats.size);
    let read = 0;
    while (read < bytes.length) {
      const count = fs.readSync(fd, bytes, read, bytes.length - read, read);
      if (count === 0) break;
      read += count;
    }
    if (read !== bytes.length) return { invalid: 'shorter than its size' };
    if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) return { invalid: 'not a tool-exec code cache' };
    const data = bytes.subarray(header);
    if (!digest(key, data).equals(bytes.subarray(MAGIC.length, header))) return { invalid: 'digest mismatch (damaged, or written for other content)' };
    return { data };
  } catch (error) {
    return { invalid: (error as Error).message };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `data` as `dir/name` (a temporary file renamed over it: a reader sees the old file or the whole
 * new one), then deletes the caches of other content of the same main file: one per main file remains.
 */
export function writeCache(dir: string, name: string, key: string, data: Uint8Array): void {
  const file = path.join(dir, name);
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(temp, 'wx', 0o600);
  try {
    try {
      for (const chunk of [MAGIC, digest(key, data), data]) {
        let written = 0;
        while (written < chunk.length) written += fs.writeSync(fd, chunk, written, chunk.length - written);
      }
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  const prefix = name.slice(0, name.length - key.length - '.v8cache'.length);
  const now = Date.now();
  for (const entry of fs.readdirSync(dir)) {
    if (entry === name || !entry.startsWith(prefix)) continue;
    try {
      const stale = path.join(dir, entry);
      if (entry.endsWith('.tmp') && now - fs.lstatSync(stale).mtimeMs < TEMP_GRACE_MS) continue;
      fs.rmSync(stale, { force: true });
    } catch {
      // Another process pruned it first.
    }
  }
}

/** A main file run as a CommonJS module; `save()` writes its code cache when it has none yet (once). */
export interface LoadedModule {
  readonly module: Module;
  /**
   * What the load had: a cache V8 took (`used`), none yet (`missing`: `save()` writes one), one V8 refused
   * (`rejected`: `save()` replaces it), or no cache at all (`off`: turned off, or no usable directory).
   */
  readonly cache: 'used' | 'missing' | 'rejected' | 'off';
  /** Writes the code cache, with what has been compiled until now, if the run had none or V8 rejected it. */
  save(): void;
}

/**
 * Loads and runs `mainFile` as a CommonJS module (as `require` would: its own `module`, `exports`,
 * `require`, `__filename`, `__dirname`, in `require.cache`), with a code cache where it can.
 */
export function loadWithCodeCache(mainFile: string, debug: Debug = () => {}): LoadedModule {
  const plain = (): LoadedModule => {
    require(mainFile);
    return { module: require.cache[mainFile] as Module, cache: 'off', save: () => {} };
  };
  const off = process.env[NO_CODE_CACHE_ENV];
  if (off && off !== '0') {
    debug(`off (${NO_CODE_CACHE_ENV}=${off})`);
    return plain();
  }
  const dir = codeCacheDir();
  const unusable = unusableReason(dir);
  if (unusable !== undefined) {
    debug(`not used: ${unusable}`);
    return plain();
  }
  let source: Buffer;
  try {
    source = fs.readFileSync(mainFile);
  } catch {
    // Let the loader report it as it would without the cache.
    return plain();
  }
  return runWithV8Cache(mainFile, source, dir, debug);
}

function runWithV8Cache(mainFile: string, source: Buffer, dir: string, debug: Debug): LoadedModule {
  const key = cacheKey(source);
  const name = cacheFileName(mainFile, key);
  const file = path.join(dir, name);
  const cached = readCache(file, key);
  if ('invalid' in cached) debug(`ignored ${file}: ${cached.invalid}`);
  let text = source.toString('utf8');
  // A hashbang is valid only at the very start of a script; in the wrapper it would not be.
  if (text.startsWith('#!')) text = `//${text.slice(2)}`;
  const script = new vm.Script(`${WRAPPER_HEAD}${text}${WRAPPER_TAIL}`, {
    filename: mainFile,
    lineOffset: -1,
    cachedData: 'data' in cached ? cached.data : undefined,
  });
  if ('data' in cached) debug(script.cachedDataRejected ? `rejected by V8: ${file}` : `used ${file}`);
  let pending = !('data' in cached) || script.cachedDataRejected === true;
  const save = () => {
    if (!pending) return;
    pending = false;
    try {
      const data = script.createCachedData();
      writeCache(dir, name, key, data);
      debug(`written ${file} (${data.length} bytes)`);
    } catch (error) {
      debug(`not written ${file}: ${(error as Error).message}`);
    }
  };
  const dirname = path.dirname(mainFile);
  const main = new Module(mainFile, module);
  main.filename = mainFile;
  main.paths = (Module as unknown as { _nodeModulePaths(from: string): string[] })._nodeModulePaths(dirname);
  (Module as unknown as { _cache: Record<string, Module> })._cache[mainFile] = main;
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, __filename: string, __dirname: string) => void;
  wrapper.call(main.exports, main.exports, createRequire(mainFile), main, mainFile, dirname);
  main.loaded = true;
  return { module: main, cache: !('data' in cached) ? 'missing' : script.cachedDataRejected === true ? 'rejected' : 'used', save };
}
