// Glob: files matching a pattern, newest first, honouring `.gitignore`; capped, with the count left out.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import picomatch from 'picomatch';
import { glob } from 'tinyglobby';
import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutput } from '../../executor';
import { deferredSchema } from '../../executor';
import { globBase } from '../../executor';
import { GitIgnoreFilter } from './gitignore';
import { resolveToolPath } from '../fileAccess/toolPaths';

/** Paths returned by one call (the Glob limit of the TypeScript executor the spec distils). */
export const GLOB_MAX_RESULTS = 100;
/** Parallel `stat` calls while sorting by modification time. */
export const GLOB_STAT_CONCURRENCY = 32;

const inputSchema = deferredSchema(() =>
  z.object({
    pattern: z.string().min(1).describe('A glob such as "**/*.ts" or "src/**/test_*.py".'),
    path: z.string().optional().describe('The folder to search (default: the workspace folder).'),
  }),
);
export type GlobInput = z.infer<ReturnType<typeof inputSchema>>;

export interface GlobData {
  readonly files: readonly string[];
  readonly total: number;
}

export function createGlobTool(): ToolDefinition<GlobInput, GlobData> {
  return {
    name: 'Glob',
    description: `Finds files by glob pattern, newest first, skipping what .gitignore excludes. Returns at most ${GLOB_MAX_RESULTS} absolute paths.`,
    get inputSchema() {
      return inputSchema();
    },
    readOnly: true,
    concurrentSafe: true,
    sideEffectScope: 'none',
    // A pattern reaches as far as its static base (`../../**` reads outside the folder).
    permissionSubject: (input) => ({ kind: 'path', path: searchRoot(input), access: 'read' }),
    handler: (input, ctx) => findFiles(input, ctx),
  };
}

/**
 * Where the search starts: the pattern's static base in `path` (`src/**\/*.ts` → `src`). It is also the
 * permission subject, and the handler resolves this same string, so the folder listed is the one judged
 * (resolving `path` first and joining the base after could land in another workspace folder). A blank
 * `path` is the default, not `/`.
 */
function searchRoot(input: GlobInput): string {
  return globBase(input.pattern, input.path?.trim() || undefined);
}

async function findFiles(input: GlobInput, ctx: ToolContext): Promise<ToolOutput<GlobData>> {
  const resolved = resolveToolPath(searchRoot(input), ctx);
  if (!resolved.ok) return { content: resolved.error, isError: true };
  const root = resolved.absolute;
  // The part of the pattern after its static base; empty when the pattern has no wildcard and names one file.
  const rest = picomatch.scan(input.pattern).glob;
  const stats = await fs.stat(root).catch(() => undefined);
  if (rest !== '' && stats && !stats.isDirectory()) return { content: `${root} is not a folder: give a folder as path.`, isError: true };
  const dir = rest === '' ? path.dirname(root) : root;
  let filter = GitIgnoreFilter.forDirectory(dir, ctx.workspaceFolders.find((folder) => isInside(dir, folder)) ?? dir);
  // Searching inside an ignored folder (node_modules/x) is a request to see it, as with ripgrep's explicit paths.
  if (filter.ignores(dir, true)) filter = new GitIgnoreFilter(dir);
  const matches = !stats ? [] : rest === '' ? (stats.isFile() ? [root] : []) : await crawl(rest, root, filter, ctx.signal);
  ctx.throwIfAborted();
  // Agents' ignore files (.aiignore, …) hide files whatever git says.
  const kept = matches.map((file) => path.normalize(file)).filter((file) => !filter.ignores(file) && !ctx.ignored?.excludedBy(file));
  const sorted = await newestFirst(kept, ctx.signal);
  const files = sorted.slice(0, GLOB_MAX_RESULTS);
  if (files.length === 0) return { content: `No files match ${input.pattern} in ${root}.`, data: { files, total: 0 } };
  const left = sorted.length - files.length;
  const note = left > 0 ? `\n(${left} more file${left === 1 ? '' : 's'} not shown; narrow the pattern or the path.)` : '';
  return { content: files.join('\n') + note, data: { files, total: sorted.length } };
}

function crawl(pattern: string, root: string, filter: GitIgnoreFilter, signal: AbortSignal): Promise<string[]> {
  return glob(pattern, {
    cwd: root,
    absolute: true,
    dot: true,
    onlyFiles: true,
    expandDirectories: false,
    followSymbolicLinks: false,
    ignore: ['**/.git/**', ...filter.crawlExclusions()],
    signal,
  });
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
