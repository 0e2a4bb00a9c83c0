// Grep: ripgrep over the workspace. Modes: matching lines with numbers and context, files with matches (newest
// first), or counts; glob and type filters; capped, with ripgrep stopped once the cap is reached.
import { spawn } from 'node:child_process';
import { fstatSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutput } from '../../executor';
import { deferredSchema } from '../../executor';
import { realLocation } from '../../executor';
import { SECRET_FILE_GLOBS } from '../../executor';
import { headWithinChars } from '../../executor';
import { newestFirst } from './glob';
import { closeQuietly, judgedLocation, openForRead, PATH_CHANGED } from '../fileAccess/judgedFile';
import { displayPath, resolveToolPath } from '../fileAccess/toolPaths';
import { findRipgrep, ripgrepMissingMessage } from './ripgrep';

/** Output lines in `content` mode (the TypeScript executor the spec distils caps Grep output near 20000 chars; 500 short lines are about that). */
export const GREP_MAX_CONTENT_LINES = 500;
/** Files listed in `files_with_matches` mode. */
export const GREP_MAX_FILES = 250;
/** Files collected (and stat'ed for sorting) before ripgrep is stopped in `files_with_matches` mode. */
export const GREP_MAX_FILES_COLLECTED = 5_000;
/** Lines in `count` mode. */
export const GREP_MAX_COUNT_LINES = 500;
/** Longer matching lines are shown as a preview (ripgrep's --max-columns). */
export const GREP_MAX_COLUMNS = 500;
/** Context lines asked for are capped here. */
export const GREP_MAX_CONTEXT = 20;
/** ripgrep stderr kept for the error message. */
export const GREP_MAX_STDERR_CHARS = 2_000;
/** The executor's deadline for one search. */
export const GREP_TIMEOUT_MS = 60_000;

const inputSchema = deferredSchema(() =>
  z.object({
    pattern: z.string().min(1).describe('A regular expression (ripgrep / Rust syntax).'),
    path: z.string().optional().describe('File or folder to search (default: the workspace folder).'),
    glob: z.string().optional().describe('Only files matching this glob, e.g. "*.ts" or "src/**/*.py".'),
    type: z.string().optional().describe('Only files of this ripgrep type, e.g. "ts", "py", "rust".'),
    output_mode: z.enum(['content', 'files_with_matches', 'count']).optional().describe('Default files_with_matches.'),
    context: z.number().int().min(0).optional().describe('Lines of context around each match (content mode).'),
    case_insensitive: z.boolean().optional(),
  }),
);
export type GrepInput = z.infer<ReturnType<typeof inputSchema>>;

export interface GrepData {
  readonly mode: NonNullable<GrepInput['output_mode']>;
  readonly lines: number;
  readonly capped: boolean;
}

export function createGrepTool(options: { rgPath?: string }): ToolDefinition<GrepInput, GrepData> {
  return {
    name: 'Grep',
    description:
      'Searches file contents with ripgrep (regular expressions), honouring .gitignore. output_mode: files_with_matches (default, newest first), ' +
      `content (matching lines with numbers; context adds lines around), or count. Filter with glob or type. Capped at ${GREP_MAX_CONTENT_LINES} lines. ` +
      'Secret files (.env*, keys, credentials) are skipped in folder searches; name one in path to search it (that asks first).',
    get inputSchema() {
      return inputSchema();
    },
    readOnly: true,
    concurrentSafe: true,
    sideEffectScope: 'none',
    timeout: { defaultMs: GREP_TIMEOUT_MS },
    permissionSubject: (input) => ({ kind: 'path', path: searchPath(input), access: 'read' }),
    handler: (input, ctx) => search(input, ctx, options.rgPath),
  };
}

/** The file or folder searched (default: the workspace folder); also the permission subject, so both read the same string. */
function searchPath(input: GrepInput): string {
  return input.path ?? '.';
}

async function search(input: GrepInput, ctx: ToolContext, rgPath: string | undefined): Promise<ToolOutput<GrepData>> {
  const rg = findRipgrep(rgPath);
  if (!rg) return { content: ripgrepMissingMessage(rgPath), isError: true };
  const resolved = resolveToolPath(searchPath(input), ctx);
  if (!resolved.ok) return { content: resolved.error, isError: true };
  const mode = input.output_mode ?? 'files_with_matches';
  // Relative to the folder ripgrep runs in, so it prints short paths; none for the folder itself.
  const relative = path.relative(ctx.workDir, resolved.absolute);
  const target = relative.startsWith('..') || path.isAbsolute(relative) ? resolved.absolute : relative;
  const root = await openedRoot(searchPath(input), resolved, ctx);
  if (root !== 'folder' && typeof root === 'string') return { content: `cannot search ${target || ctx.workDir}: ${root}`, isError: true };
  const file = root === 'folder' ? undefined : root;
  // A file is searched through its verified descriptor as ripgrep's stdin, named back as the model named it
  // (`--label` is too new for the ripgrep some systems have). A folder is named with `/.` after it, so a
  // link to a file put in its place since fails instead of being searched as a named file.
  const folderTarget = target === '' ? '' : `${target}${path.sep}.`;
  const args = file === undefined ? ripgrepArgs(input, mode, folderTarget) : [...ripgrepArgs(input, mode, ''), '-'];
  let run: RipgrepRun;
  try {
    run = await runRipgrep(rg, [...agentIgnoreArgs(ctx), ...args], ctx, lineCap(mode), file);
  } finally {
    if (file !== undefined) closeQuietly(file);
  }
  const shownAs = file !== undefined ? RIPGREP_STDIN : `${folderTarget}${path.sep}`;
  const shown = file !== undefined ? target : `${target}${path.sep}`;
  if (target !== '') run = { ...run, lines: run.lines.map((line) => (line.startsWith(shownAs) ? `${shown}${line.slice(shownAs.length)}` : line)) };
  if (run.exitCode === 2 && run.lines.length === 0) {
    return { content: `ripgrep failed: ${run.stderr.trim() || 'exit code 2'}`, isError: true };
  }
  // File listings of other folders are checked against the agent ignore files one by one.
  let lines = mode === 'content' ? run.lines : run.lines.filter((line) => !ctx.ignored?.excludedBy(path.resolve(ctx.workDir, line.replace(/:\d+$/, ''))));
  if (lines.length === 0) {
    return { content: `No matches for ${JSON.stringify(input.pattern)} in ${target || ctx.workDir}.`, data: { mode, lines: 0, capped: false } };
  }
  let note = '';
  if (mode === 'files_with_matches') {
    const sorted = await newestFirst(lines.map((line) => path.resolve(ctx.workDir, line)), ctx.signal);
    lines = sorted.slice(0, GREP_MAX_FILES).map((file) => displayPath(file, ctx));
    const left = sorted.length - lines.length;
    if (left > 0 || run.capped) note = `\n(${run.capped ? 'at least ' : ''}${left} more files not shown; narrow the pattern, path, glob or type.)`;
  } else if (run.capped) {
    note = `\n(Output capped at ${lines.length} lines; narrow the pattern, path, glob or type.)`;
  }
  if (run.exitCode === 2) note += `\n(Some files could not be searched: ${headWithinChars(run.stderr.trim().split('\n')[0] ?? '', 300)})`;
  return { content: lines.join('\n') + note, data: { mode, lines: lines.length, capped: run.capped } };
}

/**
 * The search root opened as the policy judged it (src/tools/fileAccess/judgedFile.ts): a file's descriptor, or
 * 'folder' for a folder, which ripgrep walks itself; the refusal when it is missing, changed, or neither.
 */
async function openedRoot(raw: string, resolved: { absolute: string; fromArtifact: boolean }, ctx: ToolContext): Promise<number | 'folder' | string> {
  const real = resolved.fromArtifact ? await realLocation(resolved.absolute) : await judgedLocation(raw, ctx);
  if (real === undefined) return 'the permission check found no file at this path';
  let fd: number;
  try {
    fd = await openForRead(real);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'no such file or folder';
    if (code === PATH_CHANGED) return (error as Error).message;
    return `${real}: ${(error as Error).message}`;
  }
  const stats = fstatSync(fd);
  if (stats.isFile()) return fd;
  closeQuietly(fd);
  // A FIFO or a device named as the root would hold ripgrep (and the call) until something writes to it.
  return stats.isDirectory() ? 'folder' : 'it is not a regular file or folder';
}

/**
 * Agents' ignore files of the folder ripgrep runs in, as ripgrep ignore files (gitignore rules, matched
 * from that folder); file listings are also checked one by one, for the other folders.
 */
function agentIgnoreArgs(ctx: ToolContext): string[] {
  const sources = ctx.ignored?.sources?.() ?? [];
  return sources.filter((file) => path.dirname(file) === ctx.workDir).flatMap((file) => ['--ignore-file', file]);
}

function lineCap(mode: GrepData['mode']): number {
  return mode === 'content' ? GREP_MAX_CONTENT_LINES : mode === 'count' ? GREP_MAX_COUNT_LINES : GREP_MAX_FILES_COLLECTED;
}

/** The ripgrep command line; the pattern goes after `-e` so one starting with `-` is not an option. */
export function ripgrepArgs(input: GrepInput, mode: GrepData['mode'], target: string): string[] {
  const args = ['--no-config', '--color', 'never', '--hidden', '--glob', '!.git', '--max-columns', String(GREP_MAX_COLUMNS), '--max-columns-preview'];
  if (input.case_insensitive) args.push('--ignore-case');
  if (input.glob) args.push('--glob', input.glob);
  if (input.type) args.push('--type', input.type);
  // After the caller's glob, so it cannot re-include them (ripgrep: the later glob wins). A file named as
  // the target is still searched: the permission policy asked before a secret one.
  for (const secret of SECRET_FILE_GLOBS) args.push('--iglob', `!${secret}`);
  if (mode === 'content') {
    args.push('--line-number', '--with-filename', '--no-heading');
    if (input.context) args.push('--context', String(Math.min(input.context, GREP_MAX_CONTEXT)));
  } else if (mode === 'count') {
    args.push('--count', '--with-filename');
  } else {
    args.push('--files-with-matches');
  }
  args.push('-e', input.pattern);
  if (target !== '') args.push('--', target);
  return args;
}

/** How ripgrep names its stdin in what it prints. */
const RIPGREP_STDIN = '<stdin>';

interface RipgrepRun {
  readonly lines: string[];
  readonly capped: boolean;
  readonly exitCode: number | null;
  readonly stderr: string;
}

/** Runs ripgrep in the workspace folder (`input`: a descriptor it reads as its stdin), reading at most `maxLines` lines; stops it at the cap or on cancel. */
async function runRipgrep(rg: string, args: string[], ctx: ToolContext, maxLines: number, input?: number): Promise<RipgrepRun> {
  ctx.throwIfAborted();
  const child = spawn(rg, args, { cwd: ctx.workDir, stdio: [input ?? 'ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'], windowsHide: true });
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => resolve(code));
    child.once('error', () => resolve(2));
  });
  const onAbort = () => child.kill('SIGKILL');
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < GREP_MAX_STDERR_CHARS) stderr = headWithinChars(stderr + chunk.toString('utf8'), GREP_MAX_STDERR_CHARS);
  });
  const lines: string[] = [];
  let capped = false;
  try {
    for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) {
      if (lines.length >= maxLines) {
        capped = true;
        child.kill('SIGKILL');
        break;
      }
      lines.push(line);
    }
    const exitCode = await exited;
    ctx.throwIfAborted();
    return { lines, capped, exitCode: capped ? 0 : exitCode, stderr };
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
