// Glob: files matching a pattern, newest first, honouring `.gitignore`; capped, with the count left out.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { glob } from 'tinyglobby';
import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutput } from '../executor/contract';
import { globBase } from '../executor/policy/subjects';
import { GitIgnoreFilter } from './gitignore';
import { resolveToolPath } from './paths';

/** Paths returned by one call (Z's Glob limit). */
export const GLOB_MAX_RESULTS = 100;
/** Parallel `stat` calls while sorting by modification time. */
export const GLOB_STAT_CONCURRENCY = 32;

const inputSchema = z.object({
  pattern: z.string().min(1).describe('A glob such as "**/*.ts" or "src/**/test_*.py".'),
  path: z.string().optional().describe('The folder to search (default: the workspace folder).'),
});
export type GlobInput = z.infer<typeof inputSchema>;

export interface GlobData {
  readonly files: readonly string[];
  readonly total: number;
}

export function createGlobTool(): ToolDefinition<GlobInput, GlobData> {
  return {
    name: 'Glob',
    description: `Finds files by glob pattern, newest first, skipping what .gitignore excludes. Returns at most ${GLOB_MAX_RESULTS} absolute paths.`,
    inputSchema,
    readOnly: true,
    concurrentSafe: true,
    sideEffectScope: 'none',
    // A pattern reaches as far as its static base (`../../**` reads outside the folder).
    permissionSubject: (input) => ({ kind: 'path', path: globBase(input.pattern, input.path), access: 'read' }),
    handler: (input, ctx) => findFiles(input, ctx),
  };
}

async function findFiles(input: GlobInput, ctx: ToolContext): Promise<ToolOutput<GlobData>> {
  const resolved = resolveToolPath(input.path ?? ctx.workDir, ctx);
  if (!resolved.ok) return { content: resolved.error, isError: true };
  let dir = resolved.absolute;
  let pattern = input.pattern;
  if (path.isAbsolute(pattern)) {
    // An absolute pattern: search from its fixed leading folders.
    const fixed = pattern.split('/').findIndex((part) => /[*?[\]{}()!]/.test(part));
    const base = fixed <= 0 ? path.dirname(pattern) : pattern.split('/').slice(0, fixed).join('/') || '/';
    dir = base;
    pattern = path.relative(base, pattern).split(path.sep).join('/');
  }
  const stats = await fs.stat(dir).catch(() => undefined);
  if (!stats?.isDirectory()) return { content: `${dir} is not a folder: give a folder as path.`, isError: true };
  let filter = GitIgnoreFilter.forDirectory(dir, ctx.workspaceFolders.find((folder) => isInside(dir, folder)) ?? dir);
  // Searching inside an ignored folder (node_modules/x) is a request to see it, as with ripgrep's explicit paths.
  if (filter.ignores(dir, true)) filter = new GitIgnoreFilter(dir);
  const matches = await glob(pattern, {
    cwd: dir,
    absolute: true,
    dot: true,
    onlyFiles: true,
    expandDirectories: false,
    followSymbolicLinks: false,
    ignore: ['**/.git/**', ...filter.crawlExclusions()],
    signal: ctx.signal,
  });
  ctx.signal.throwIfAborted();
  const kept = matches.map((file) => path.normalize(file)).filter((file) => !filter.ignores(file));
  const sorted = await newestFirst(kept, ctx.signal);
  const files = sorted.slice(0, GLOB_MAX_RESULTS);
  if (files.length === 0) return { content: `No files match ${input.pattern} in ${dir}.`, data: { files, total: 0 } };
  const left = sorted.length - files.length;
  const note = left > 0 ? `\n(${left} more file${left === 1 ? '' : 's'} not shown; narrow the pattern or the path.)` : '';
  return { content: files.join('\n') + note, data: { files, total: sorted.length } };
}

/** Sorts by modification time, newest first; ties (and files that vanished) by path. */
export async function newestFirst(files: readonly string[], signal: AbortSignal): Promise<string[]> {
  const mtimes = new Map<string, number>();
  for (let start = 0; start < files.length; start += GLOB_STAT_CONCURRENCY) {
    signal.throwIfAborted();
    const batch = files.slice(start, start + GLOB_STAT_CONCURRENCY);
    const stats = await Promise.all(batch.map((file) => fs.stat(file).catch(() => undefined)));
    batch.forEach((file, index) => mtimes.set(file, stats[index]?.mtimeMs ?? 0));
  }
  return [...files].sort((a, b) => mtimes.get(b)! - mtimes.get(a)! || a.localeCompare(b));
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
