// Path rules as Claude Code reads them (gitignore-like): `//abs/**` is absolute, `~/x` is in the home
// folder, `/x`, `./x` and `src/**` are relative to a workspace folder, and a pattern without a slash
// (`.env`, `*.pem`) matches a file or folder of that name at any depth. Globs go through picomatch.
import * as os from 'node:os';
import * as path from 'node:path';
import picomatch from 'picomatch';
import { isInside } from './judgePath';

/** Compiled matchers, by pattern; patterns come from a handful of settings files. */
const cache = new Map<string, (candidate: string) => boolean>();
/** Bound on the cache above, against a session that adds rules without end. */
const MAX_CACHED_MATCHERS = 1000;

export interface PathPattern {
  /** Anchored patterns apply to one location; `anywhere` ones (no slash) to a name at any depth. */
  readonly anchor: 'absolute' | 'workspace' | 'anywhere';
  /** The glob, absolute for `absolute`, folder-relative for `workspace`, a name glob for `anywhere`. */
  readonly glob: string;
}

export function parsePathPattern(content: string): PathPattern {
  if (content.startsWith('//')) return { anchor: 'absolute', glob: content.slice(1) };
  if (content === '~' || content.startsWith('~/')) return { anchor: 'absolute', glob: path.posix.join(os.homedir(), content.slice(1)) };
  if (content.startsWith('/')) return { anchor: 'workspace', glob: content.slice(1) };
  const relative = content.startsWith('./') ? content.slice(2) : content;
  const trimmed = relative.endsWith('/') ? relative.slice(0, -1) : relative;
  if (!trimmed.includes('/') && !content.startsWith('./')) return { anchor: 'anywhere', glob: trimmed };
  return { anchor: 'workspace', glob: trimmed };
}

/**
 * Does the pattern cover `candidate` (absolute, real)? A pattern naming a folder covers what is below
 * it too (`Edit(src)` and `Edit(src/**)` alike). Workspace patterns only see paths inside a folder.
 */
export function pathPatternMatches(pattern: PathPattern, candidate: string, folders: readonly string[]): boolean {
  const test = matcher(pattern.glob);
  switch (pattern.anchor) {
    case 'absolute':
      return test(candidate) || ancestors(candidate).some((ancestor) => test(ancestor));
    case 'workspace':
      return folders.some((folder) => {
        if (!isInside(candidate, folder) || candidate === folder) return false;
        const relative = path.relative(folder, candidate).split(path.sep).join('/');
        return test(relative) || ancestors(relative).some((ancestor) => test(ancestor));
      });
    case 'anywhere':
      return candidate.split(path.sep).filter(Boolean).some((segment) => test(segment));
  }
}

/** picomatch's special chars: wildcards, brackets, braces, extglob parentheses and prefixes, `|`, the escape itself. */
const GLOB_SPECIALS = /[\\*?[\]{}()!+@|]/g;

/** A glob that names exactly `text` (picomatch reads `\x` as a literal `x`), for a rule that must match one path. */
export function literalGlob(text: string): string {
  return text.replace(GLOB_SPECIALS, (special) => `\\${special}`);
}

/** Whether a glob has no wildcard left in it: it can name only one string (picomatch's own reading). */
export function isLiteralGlob(glob: string): boolean {
  return !picomatch.scan(glob).isGlob;
}

/** Is the pattern anchored outside the workspace folders (so it can allow a path outside them)? */
export function isAbsolutePattern(pattern: PathPattern): boolean {
  return pattern.anchor === 'absolute';
}

function ancestors(candidate: string): string[] {
  const result: string[] = [];
  let current = path.posix.dirname(candidate);
  while (current !== '.' && current !== '/' && current !== '') {
    result.push(current);
    current = path.posix.dirname(current);
  }
  return result;
}

function matcher(glob: string): (candidate: string) => boolean {
  let compiled = cache.get(glob);
  if (!compiled) {
    const isMatch = picomatch(glob, { dot: true });
    // One argument, a boolean answer: picomatch's second parameter makes it return a (truthy) object.
    compiled = (candidate) => isMatch(candidate) === true;
    if (cache.size >= MAX_CACHED_MATCHERS) cache.clear();
    cache.set(glob, compiled);
  }
  return compiled;
}
