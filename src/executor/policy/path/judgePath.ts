// Path resolution before any rule: a path is read as the tools read it (one
// resolver, `resolveModelPath`), then `..` and symlinks are resolved, so neither
// `src/../../etc/passwd` nor a link pointing out of the workspace can get past an allow rule.
import { realpath as realpathCallback, realpathSync } from 'node:fs';
import { lstat, readlink } from 'node:fs/promises';
import * as path from 'node:path';
import { processMountTable } from '../../../node/runtime/localMounts';
import { resolveModelPath } from './modelPath';

/** Symlinks followed per path before giving up (Linux's own limit is 40). */
export const MAX_SYMLINK_HOPS = 40;

/** A path as the policy checks it. */
export interface ResolvedPath {
  /** As the model wrote it. */
  readonly raw: string;
  /** Absolute, `..` removed lexically, symlinks not followed: what a deny rule on the name also sees. */
  readonly lexical: string;
  /**
   * Every real location the path may name: the tools resolve `..` lexically before the kernel follows
   * symlinks, a shell does it the other way round; when those differ, both are checked.
   */
  readonly real: readonly string[];
}

/** What a model-given path names, as the policy judges it. */
export type JudgedPath =
  | { readonly kind: 'file'; readonly path: ResolvedPath }
  | { readonly kind: 'artifact'; readonly uri: string }
  /** The tools refuse it (empty, a foreign `file://` URL) with this error, so it names no file. */
  | { readonly kind: 'refused'; readonly error: string };

/**
 * Judges `raw` as the tools will open it: `resolveModelPath` reads it (the same call the tools make,
 * with the same folders), then the absolute path it returned has its symlinks followed. Never throws.
 */
export async function judgePath(raw: string, folders: readonly string[]): Promise<JudgedPath> {
  const named = resolveModelPath(raw, folders);
  if (!named.ok) return { kind: 'refused', error: named.error };
  if (named.kind === 'artifact') return { kind: 'artifact', uri: named.uri };
  return { kind: 'file', path: await followLinks(raw, named.absolute, named.unnormalised) };
}

/** `judgePath`, or one the caller shares among the checks of one call (`sharedJudge`). */
export type PathJudge = (raw: string, folders: readonly string[]) => Promise<JudgedPath>;

/**
 * `judgePath` that reads each (path, folders) once: the permission stage shares one among the policy
 * and the agent-memory rule of a call, so a path is resolved in one place, once per call.
 */
export function sharedJudge(): PathJudge {
  const judged = new Map<string, Promise<JudgedPath>>();
  return (raw, folders) => {
    const key = `${folders.join('\0')}\0\0${raw}`;
    let found = judged.get(key);
    if (!found) judged.set(key, (found = judgePath(raw, folders)));
    return found;
  };
}

/**
 * A redirection target as the shell opens it: its words are literal (no `~`, no URL, no trimming),
 * and a relative one is in the shell's working directory `cwd`.
 */
export async function judgeShellPath(target: string, cwd: string): Promise<ResolvedPath> {
  const written = path.isAbsolute(target) ? target : `${cwd}/${target}`;
  return followLinks(target, path.resolve(written), written);
}

/**
 * `judgePath` for checks that look only at files (the agent-memory rule): an artifact URI or a
 * refused path names no file, so it has no location to match.
 */
export async function resolvePath(raw: string, folders: readonly string[], judge: PathJudge = judgePath): Promise<ResolvedPath> {
  const judged = await judge(raw, folders);
  return judged.kind === 'file' ? judged.path : { raw, lexical: '', real: [] };
}

async function followLinks(raw: string, absolute: string, unnormalised: string): Promise<ResolvedPath> {
  // Most often the two readings are the same string, read once; else both at once.
  if (unnormalised === absolute) return { raw, lexical: absolute, real: [await realLocation(absolute)] };
  const [first, second] = await Promise.all([realLocation(absolute), realLocation(unnormalised)]);
  return { raw, lexical: absolute, real: second === first ? [first] : [first, second] };
}

/**
 * The real path of each workspace folder. A folder that holds one of `located` (real locations, as
 * `realLocation` gives them) as written is its own real path: every existing component of a real
 * location is a real directory, and its missing ones are kept as written, as they would be for the
 * folder. Only the others are asked of the file system.
 */
export function realFolders(folders: readonly string[], located: readonly string[] = []): Promise<string[]> {
  const absolute = folders.map((folder) => path.resolve(folder));
  const real = absolute.map((folder) => (located.some((candidate) => isInside(candidate, folder)) ? folder : realLocation(folder)));
  return real.every((folder) => typeof folder === 'string') ? Promise.resolve(real as string[]) : Promise.all(real);
}

/** True when `candidate` is `folder` or inside it. Both must be absolute and real. */
export function isInside(candidate: string, folder: string): boolean {
  if (candidate === folder) return true;
  const prefix = folder.endsWith(path.sep) ? folder : `${folder}${path.sep}`;
  return candidate.startsWith(prefix);
}

/** The folder containing `candidate`, if any. */
export function containingFolder(candidate: string, folders: readonly string[]): string | undefined {
  return folders.find((folder) => isInside(candidate, folder));
}

/**
 * Where the kernel would end up for `absolute`, component by component: `..` applies to the real
 * directory reached so far (as the kernel does), symlinks are followed even when they dangle (a write
 * through a dangling link creates its target), and missing components are appended as written.
 */
export async function realLocation(absolute: string, hops = 0): Promise<string> {
  // Where every component exists, realpath(3) walks it exactly so (`..` on the real directory,
  // links followed): one call instead of one per component. Otherwise, component by component.
  // Synchronously while no mount can wait on a network or a daemon (src/node/runtime/localMounts.ts): the
  // thread pool's round trip cost a Read of a small file more than all the rest of it on 2 cores.
  try {
    return processMountTable.noRemoteMounts() ? realpathSync.native(absolute) : await realpath(absolute);
  } catch {
    // Something is missing or dangling below.
  }
  // Most often only the last name is missing (a file about to be written, a word that names no file):
  // its folder's real path and the name, once the name is no (dangling) link. Both asked at once.
  const parent = path.dirname(absolute);
  if (parent !== absolute && !/(?:^|\/)\.{1,2}(?:\/|$)/.test(absolute)) {
    const [realParent, link] = await Promise.all([realpath(parent).catch(() => undefined), readLinkTarget(absolute)]);
    if (realParent !== undefined && link === undefined) return path.join(realParent, path.basename(absolute));
  }
  const components = absolute.split('/').filter((component) => component !== '' && component !== '.');
  let current = path.parse(absolute).root || '/';
  for (let index = 0; index < components.length; index += 1) {
    const component = components[index]!;
    if (component === '..') {
      current = path.dirname(current);
      continue;
    }
    const candidate = path.join(current, component);
    try {
      current = await realpath(candidate);
      continue;
    } catch {
      // Missing, dangling, a loop, or not a directory: look closer below.
    }
    const link = await readLinkTarget(candidate);
    if (link !== undefined && hops < MAX_SYMLINK_HOPS) {
      current = await realLocation(path.isAbsolute(link) ? link : `${current}/${link}`, hops + 1);
      continue;
    }
    return path.resolve(current, ...components.slice(index));
  }
  return current;
}

/**
 * realpath(3) through the callback API, which costs less per call than the promise API's (this is on
 * every path a call names). `realpath.native`: the JS `realpath` walks with an lstat per component.
 */
function realpath(absolute: string): Promise<string> {
  return new Promise((resolve, reject) => realpathCallback.native(absolute, (error, resolved) => (error ? reject(error) : resolve(resolved))));
}

async function readLinkTarget(candidate: string): Promise<string | undefined> {
  try {
    const stat = await lstat(candidate);
    return stat.isSymbolicLink() ? await readlink(candidate) : undefined;
  } catch {
    return undefined;
  }
}
