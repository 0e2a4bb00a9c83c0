// `ripGrep` for the sandbox runtime's bundle (scripts/build.mjs `noProcessPerWrap`). On every command
// it wraps, the library runs `rg --files` over the command's folder to find the protected names below it
// (`.bashrc`, `.git/hooks`, ...) and the folders it cannot read, which it then denies; a process per command
// costs far more than the listing (docs/MEASUREMENTS.md, "Sandbox runtime"). At the
// runtime's search depth (`MANDATORY_DENY_SEARCH_DEPTH`, the folder itself) that is one `readdir` of the
// folder and one of each folder in it, done here in the runtime's process.
//
// The listing is ripgrep's for the arguments the library passes, or more (never less: each name listed
// becomes a read-only mount, and one missing would be a name left writable): regular files only (a link
// is not followed, as ripgrep does without `-L`), globs matched against the path below the folder, a
// file listed when any `--iglob`/`-g` that is not negated matches it, a folder skipped only when a
// negated one matches it and no other does. ripgrep 13 lists `node_modules/.bashrc` for the library's
// globs (its `--iglob .bashrc` wins over its `-g '!**/node_modules/**'`), and so does this. Arguments of
// any other shape run ripgrep itself, as the library does.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** What the library's runs of ripgrep end with when it fails, with what it had listed (dist/utils/ripgrep.js). */
export class RipgrepError extends Error {
  constructor(
    message: string,
    /** What it had listed by then. */
    readonly listed: string[],
    /** What it said went wrong: a line per folder it could not read, starting with its path. */
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'RipgrepError';
  }
}

export interface RipgrepConfig {
  readonly command: string;
  readonly args?: readonly string[];
  readonly argv0?: string;
}

/** The library's limit on a run of ripgrep (its `timeout`): what is found by then counts. */
export const LISTING_TIMEOUT_MS = 10_000;

/**
 * The files ripgrep would list for `args` in `target`, one path each, spelled `target/relative`; exit 1
 * (nothing found) is an empty list. A folder that cannot be read is reported as ripgrep reports it: a
 * `RipgrepError` with what was listed, and a line `rg: <folder>: <why>` for each. The library's signature.
 */
export async function ripGrep(args: readonly string[], target: string, abortSignal?: AbortSignal, config: RipgrepConfig = { command: 'rg' }): Promise<string[]> {
  abortSignal?.throwIfAborted();
  const request = parseListing(args);
  if (!request) return runRipgrep(args, target, abortSignal, config);
  return listFiles(request, target);
}

/** A glob of the shapes the library passes: a bare name, or `**` + `/` + a path, optionally + `/**`. */
interface Glob {
  readonly negated: boolean;
  readonly ignoreCase: boolean;
  /** The name or the path's components, lower case when `ignoreCase`. */
  readonly parts: readonly string[];
  /** A bare name: it matches the last component. */
  readonly name: boolean;
  /** Ends in `/**`: something must lie below the path. */
  readonly below: boolean;
}

export interface ListingRequest {
  readonly maxDepth: number;
  readonly globs: readonly Glob[];
}

/** The flags of a plain listing: every file, hidden ones too, no ignore file or config deciding anything. */
const LISTING_FLAGS = new Set(['--files', '--hidden', '--no-ignore', '--no-config', '--line-buffered']);
const GLOB_SPECIALS = /[*?[\]{}\\!]/;

/** The request, or undefined when `args` ask for anything this listing does not do exactly. */
export function parseListing(args: readonly string[]): ListingRequest | undefined {
  let maxDepth: number | undefined;
  let files = false;
  let hidden = false;
  let noIgnore = false;
  let noConfig = false;
  const globs: Glob[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (LISTING_FLAGS.has(arg)) {
      files ||= arg === '--files';
      hidden ||= arg === '--hidden';
      noIgnore ||= arg === '--no-ignore';
      noConfig ||= arg === '--no-config';
      continue;
    }
    const value = args[index + 1];
    if (value === undefined) return undefined;
    index++;
    if (arg === '--max-depth') {
      if (!/^\d+$/.test(value)) return undefined;
      maxDepth = Number(value);
    } else if (arg === '--iglob' || arg === '-g' || arg === '--glob') {
      const glob = parseGlob(value, arg === '--iglob');
      if (!glob) return undefined;
      globs.push(glob);
    } else {
      return undefined;
    }
  }
  return files && hidden && noIgnore && noConfig && maxDepth !== undefined ? { maxDepth, globs } : undefined;
}

function parseGlob(text: string, ignoreCase: boolean): Glob | undefined {
  const negated = text.startsWith('!');
  const body = negated ? text.slice(1) : text;
  const fold = (part: string) => (ignoreCase ? part.toLowerCase() : part);
  if (body !== '' && !body.includes('/') && !GLOB_SPECIALS.test(body)) return { negated, ignoreCase, parts: [fold(body)], name: true, below: false };
  const shaped = /^\*\*\/(.+?)(\/\*\*)?$/.exec(body);
  if (!shaped) return undefined;
  const parts = shaped[1]!.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..' || GLOB_SPECIALS.test(part))) return undefined;
  return { negated, ignoreCase, parts: parts.map(fold), name: false, below: shaped[2] !== undefined };
}

/** Whether `glob` matches the path whose components below the folder are `parts` (`lower`: the same, lower case). */
function matches(glob: Glob, parts: readonly string[], lower: readonly string[]): boolean {
  const components = glob.ignoreCase ? lower : parts;
  if (glob.name) return components[components.length - 1] === glob.parts[0];
  const length = glob.parts.length;
  // `**/` is any number of folders, none included; `/**` at least one more component.
  const lastStart = components.length - length - (glob.below ? 1 : 0);
  for (let start = glob.below ? 0 : lastStart; start <= lastStart; start++) {
    if (start >= 0 && glob.parts.every((part, offset) => components[start + offset] === part)) return true;
  }
  return false;
}

/** What the listing reads a folder with (a test stands in for a folder that cannot be read). */
export type ReadFolder = (folder: string) => fs.Dirent[];
const readFolder: ReadFolder = (folder) => fs.readdirSync(folder, { withFileTypes: true });

export function listFiles({ maxDepth, globs }: ListingRequest, target: string, read: ReadFolder = readFolder): string[] {
  const listed: string[] = [];
  const problems: string[] = [];
  const positive = globs.filter((glob) => !glob.negated);
  const negated = globs.filter((glob) => glob.negated);
  const deadline = performance.now() + LISTING_TIMEOUT_MS;
  let timedOut = false;
  const listFile = (parts: readonly string[], lower: readonly string[]): boolean =>
    positive.length === 0 ? !negated.some((glob) => matches(glob, parts, lower)) : positive.some((glob) => matches(glob, parts, lower));
  const skipFolder = (parts: readonly string[], lower: readonly string[]): boolean =>
    negated.some((glob) => matches(glob, parts, lower)) && !positive.some((glob) => matches(glob, parts, lower));
  // The folder's entries are at depth 1; a folder at `maxDepth` is not opened.
  const walk = (folder: string, parts: readonly string[]): void => {
    if (parts.length >= maxDepth) return;
    if (performance.now() > deadline) {
      timedOut = true;
      return;
    }
    let entries: fs.Dirent[];
    try {
      entries = read(folder);
    } catch (error) {
      problems.push(`rg: ${folder}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      return;
    }
    for (const entry of entries) {
      const entryParts = [...parts, entry.name];
      const lower = entryParts.map((part) => part.toLowerCase());
      if (entry.isFile()) {
        if (listFile(entryParts, lower)) listed.push(path.join(target, ...entryParts));
      } else if (entry.isDirectory() && !skipFolder(entryParts, lower)) {
        walk(path.join(folder, entry.name), entryParts);
      }
    }
  };
  walk(target, []);
  if (timedOut) throw new RipgrepError(`the listing of ${target} stopped after ${LISTING_TIMEOUT_MS} ms`, listed, problems.join('\n'));
  if (problems.length > 0) throw new RipgrepError(`ripgrep failed with exit code 2: ${problems.join('\n')}`, listed, problems.join('\n'));
  return listed;
}

/** Arguments of another shape: ripgrep itself, as the library runs it (exit 1 is nothing found). */
function runRipgrep(args: readonly string[], target: string, abortSignal: AbortSignal | undefined, config: RipgrepConfig): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const options = { signal: abortSignal, timeout: LISTING_TIMEOUT_MS, windowsHide: true, maxBuffer: 256 * 1024 * 1024, ...(config.argv0 ? { argv0: config.argv0 } : {}) };
    execFile(config.command, [...(config.args ?? []), ...args, target], options, (error, stdout, stderr) => {
      if (!error) return resolve(stdout.trim().split('\n').filter(Boolean));
      if (error.code === 1) return resolve([]);
      if (abortSignal?.aborted || typeof error.code === 'string') return reject(error);
      // Whole lines only: killed, it can leave half of one.
      reject(new RipgrepError(`ripgrep failed with exit code ${error.code ?? error.signal}: ${stderr}`, stdout.split('\n').slice(0, -1).filter(Boolean), stderr));
    });
  });
}
