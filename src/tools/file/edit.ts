// Edit: replaces `old_string` with `new_string` in a file the model has read. Exact match first; a missing or
// ambiguous match is an error that says what to do. Line endings, BOM and encoding are kept. `file_diff` display.
import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutput } from '../../executor';
import { deferredSchema } from '../../executor';
import { headWithinChars } from '../../executor';
import { applyEdit, closestLines, findEdit, lineAt } from './editMatch';
import { decodeText, encodeText } from '../fileAccess/fileText';
import { withFsErrors } from '../fileAccess/fsErrors';
import { createNew, judgedLocation, openForUpdate, rewrite } from '../fileAccess/judgedFile';
import { displayPath, pathOf, resolveToolPath } from '../fileAccess/toolPaths';
import { fileWriteTool, writtenPathFields, type FileChangeData } from './fileWriteTool';
import { previewLines } from './preview';
import { readBeforeWriteError, recordWritten } from './readBeforeWrite';
import { fileNotFoundMessage } from '../suggest';

/** Lines of context around the edit in the result, so the model sees what it produced. */
export const EDIT_SNIPPET_CONTEXT_LINES = 3;
/** Line numbers listed when `old_string` matches several places. */
export const EDIT_MAX_LISTED_MATCHES = 10;

const inputSchema = deferredSchema(() =>
  z.object({
    ...writtenPathFields(),
    old_string: z.string().describe('The exact text to replace, copied from the file (with its indentation).'),
    new_string: z.string().describe('The text to put in its place.'),
    replace_all: z.boolean().optional().describe('Replace every occurrence (default: old_string must be unique).'),
  }),
);
export type EditInput = z.infer<ReturnType<typeof inputSchema>>;

export function createEditTool(): ToolDefinition<EditInput, FileChangeData> {
  return fileWriteTool({
    name: 'Edit',
    description:
      'Replaces old_string with new_string in a file you have Read in this session. old_string must match exactly ' +
      '(including indentation) and be unique, unless replace_all is true. An empty old_string creates a new file.',
    verb: 'Editing',
    inputSchema,
    preview: (input) => ({
      title: `Edit ${input.path}${input.replace_all ? ' (every occurrence)' : ''}`,
      detail: `${previewLines(input.old_string, '- ')}\n${previewLines(input.new_string, '+ ')}`,
    }),
    after: (input, before, exists) => editedText(before, exists, input),
    handler: editFile,
  });
}

async function editFile(input: EditInput, ctx: ToolContext): Promise<ToolOutput<FileChangeData>> {
  const resolved = resolveToolPath(pathOf(input), ctx);
  if (!resolved.ok) return failure(resolved.error);
  if (resolved.fromArtifact) return failure('persisted results are read-only; edit a workspace file instead');
  if (input.old_string === input.new_string) return failure('old_string and new_string are the same: there is nothing to change.');
  const file = resolved.absolute;
  return withFsErrors('edit', () => file, async () => {
    // The file changed is the one judged (src/tools/fileAccess/judgedFile.ts), whatever its name points at by now.
    const real = await judgedLocation(pathOf(input), ctx);
    if (real === undefined) return failure(`cannot edit ${file}: the permission check found no file at this path`);
    return editResolved(file, real, input, ctx);
  });
}

async function editResolved(file: string, real: string, input: EditInput, ctx: ToolContext): Promise<ToolOutput<FileChangeData>> {
  const handle = await openForUpdate(real).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EISDIR') return 'directory' as const;
    throw error;
  });
  if (handle === 'directory') return failure(`${file} is a directory; give a file path.`);
  if (!handle) {
    if (input.old_string !== '') return failure(await fileNotFoundMessage(file, ctx.workDir));
    return createWithEdit(file, real, input.new_string, ctx);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return failure(`${file} is not a regular file.`);
    const stale = readBeforeWriteError(file, stats, ctx.files);
    if (stale) return failure(stale);
    const decoded = decodeText(await handle.readFile({ signal: ctx.signal }));
    const before = decoded.text;
    const plan = planEdit(before, input);
    if (!plan.ok) {
      if (plan.problem === 'notUnique') return failure(notUniqueMessage(file, before, plan.positions));
      if (plan.problem === 'notEmpty') return failure(`old_string is empty but ${file} is not: give the text to replace, or use Write to replace the whole file.`);
      return failure(notFoundMessage(file, before, input.old_string));
    }
    const { after, replaced, firstOffset } = plan;
    ctx.throwIfAborted();
    await rewrite(handle, encodeText(after, decoded), false);
    recordWritten(file, await handle.stat(), ctx.files);
    const shown = displayPath(file, ctx);
    const snippet = snippetAround(after, lineAt(after, firstOffset), input.new_string);
    return {
      content: `Edited ${shown}: replaced ${replaced} occurrence${replaced === 1 ? '' : 's'}.\n${snippet}`,
      data: { path: file, before, after, created: false },
    };
  } finally {
    await handle.close();
  }
}

async function createWithEdit(file: string, real: string, content: string, ctx: ToolContext): Promise<ToolOutput<FileChangeData>> {
  ctx.throwIfAborted();
  const handle = await createNew(real);
  try {
    await rewrite(handle, Buffer.from(content), true);
    recordWritten(file, await handle.stat(), ctx.files);
  } finally {
    await handle.close();
  }
  return { content: `Created ${displayPath(file, ctx)}.`, data: { path: file, before: '', after: content, created: true } };
}

function notFoundMessage(file: string, text: string, oldString: string): string {
  const candidates = closestLines(text, oldString);
  const hint = candidates.length > 0 ? `\nClosest lines in the file:\n${candidates.join('\n')}` : '';
  return (
    `old_string was not found in ${file}. It must match the file exactly, including whitespace, indentation and line breaks: ` +
    `Read the file again and copy the text from it.${hint}`
  );
}

function notUniqueMessage(file: string, text: string, positions: readonly number[]): string {
  const lines = positions.slice(0, EDIT_MAX_LISTED_MATCHES).map((offset) => lineAt(text, offset));
  const more = positions.length > EDIT_MAX_LISTED_MATCHES ? ', …' : '';
  return (
    `old_string matches ${positions.length} places in ${file} (lines ${lines.join(', ')}${more}). ` +
    'Include more surrounding lines to make it unique, or set replace_all to true to change every one.'
  );
}

/** The edited region with line numbers, as Read shows it. */
function snippetAround(text: string, firstLine: number, newString: string): string {
  const lines = text.split(/\r?\n/);
  const spanned = newString.split('\n').length;
  const from = Math.max(1, firstLine - EDIT_SNIPPET_CONTEXT_LINES);
  const to = Math.min(lines.length, firstLine + spanned - 1 + EDIT_SNIPPET_CONTEXT_LINES);
  const out: string[] = [];
  for (let line = from; line <= to; line++) out.push(`${String(line).padStart(6)}\t${headWithinChars(lines[line - 1] ?? '', 2000)}`);
  return out.join('\n');
}

type EditPlan =
  | { readonly ok: true; readonly after: string; readonly replaced: number; readonly firstOffset: number }
  | { readonly ok: false; readonly problem: 'notEmpty' | 'notFound' }
  | { readonly ok: false; readonly problem: 'notUnique'; readonly positions: readonly number[] };

/** What the edit makes of an existing file's text: the handler writes it, the approval's diff shows it. */
function planEdit(before: string, input: EditInput): EditPlan {
  if (input.old_string === '') return before === '' ? { ok: true, after: input.new_string, replaced: 1, firstOffset: 0 } : { ok: false, problem: 'notEmpty' };
  const match = findEdit(before, input.old_string, input.new_string);
  if (!match) return { ok: false, problem: 'notFound' };
  if (match.positions.length > 1 && !input.replace_all) return { ok: false, problem: 'notUnique', positions: match.positions };
  return { ok: true, after: applyEdit(before, match, input.replace_all === true), replaced: input.replace_all ? match.positions.length : 1, firstOffset: match.positions[0]! };
}

/** The text the handler would write, or undefined where it would fail (for the approval's diff). */
function editedText(before: string, exists: boolean, input: EditInput): string | undefined {
  if (!exists) return input.old_string === '' ? input.new_string : undefined;
  const plan = planEdit(before, input);
  return plan.ok ? plan.after : undefined;
}

function failure(message: string): ToolOutput<FileChangeData> {
  return { content: message, isError: true };
}
