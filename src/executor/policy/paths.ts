// Path resolution before any rule (policy issue §3): `..` and symlinks are resolved, so neither
// `src/../../etc/passwd` nor a link pointing out of the workspace can get past an allow rule.
import { existsSync } from 'node:fs';
import { lstat, readlink, realpath } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

/** Symlinks followed per path before giving up (Linux's own limit is 40). */
export const MAX_SYMLINK_HOPS = 40;

/** Read paths of this scheme are the executor's own persisted results (spec §8). */
export const ARTIFACT_SCHEME = 'executor-artifact:';

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

/**
 * Resolves `raw` as the file tools do (trimmed; `~/` is home; `file://` URLs; relative paths in the
 * first workspace folder that has them, else the first), then follows every symlink. Never throws.
 */
export async function resolvePath(raw: string, baseDirs: readonly string[]): Promise<ResolvedPath> {
  const trimmed = expandHome(raw.trim());
  const fromUrl = trimmed.startsWith('file://') ? safeFileUrlPath(trimmed) : trimmed;
  const base = pickBase(fromUrl, baseDirs);
  const joined = path.isAbsolute(fromUrl) ? fromUrl : `${base}/${fromUrl}`;
  const lexical = path.resolve(joined);
  const real = new Set<string>([await realLocation(lexical), await realLocation(joined)]);
  return { raw, lexical, real: [...real] };
}

/** The real path of each workspace folder (cached per call site by the caller). */
export async function realFolders(folders: readonly string[]): Promise<string[]> {
  return Promise.all(folders.map((folder) => realLocation(path.resolve(folder))));
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

async function readLinkTarget(candidate: string): Promise<string | undefined> {
  try {
    const stat = await lstat(candidate);
    return stat.isSymbolicLink() ? await readlink(candidate) : undefined;
  } catch {
    return undefined;
  }
}

function expandHome(value: string): string {
  if (value === '~') return os.homedir();
  if (value.startsWith('~/')) return path.join(os.homedir(), value.slice(2));
  return value;
}

function safeFileUrlPath(value: string): string {
  try {
    return decodeURIComponent(new URL(value).pathname);
  } catch {
    return value;
  }
}

function pickBase(relative: string, baseDirs: readonly string[]): string {
  if (path.isAbsolute(relative)) return '/';
  for (const dir of baseDirs) {
    if (existsSync(path.resolve(dir, relative))) return dir;
  }
  return baseDirs[0] ?? process.cwd();
}
