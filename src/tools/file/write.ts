// Write: creates or overwrites a file. Overwriting needs a Read of the current state (read-before-write);
// an existing file keeps its encoding and BOM. Returns a `file_diff` display.
import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutput } from '../../executor';
import { deferredSchema } from '../../executor';
import { formatBytes } from '../../executor';
import { withFsErrors } from '../fileAccess/fsErrors';
import { decodeText, encodeText, type DecodedText } from '../fileAccess/fileText';
import { createNew, judgedLocation, openForUpdate, rewrite } from '../fileAccess/judgedFile';
import { displayPath, pathOf, resolveToolPath } from '../fileAccess/toolPaths';
import { fileWriteTool, writtenPathFields, type FileChangeData } from './fileWriteTool';
import { countTextLines, previewLines } from './preview';
import { readBeforeWriteError, recordWritten } from './readBeforeWrite';

const inputSchema = deferredSchema(() =>
  z.object({
    ...writtenPathFields(),
    content: z.string().describe('The whole new content of the file.'),
  }),
);
export type WriteInput = z.infer<ReturnType<typeof inputSchema>>;

export function createWriteTool(): ToolDefinition<WriteInput, FileChangeData> {
  return fileWriteTool({
    name: 'Write',
    description:
      'Writes a whole file, creating parent folders. To overwrite an existing file you must Read it first in this session ' +
      '(and it must not have changed since). Prefer Edit for changes to part of a file.',
    verb: 'Writing',
    inputSchema,
    preview: (input) => ({
      title: `Write ${input.path}`,
      detail: `${lineCount(input.content)} (${formatBytes(Buffer.byteLength(input.content))}):\n${previewLines(input.content)}`,
    }),
    after: (input) => input.content,
    handler: writeFile,
  });
}

async function writeFile(input: WriteInput, ctx: ToolContext): Promise<ToolOutput<FileChangeData>> {
  const resolved = resolveToolPath(pathOf(input), ctx);
  if (!resolved.ok) return { content: resolved.error, isError: true };
  if (resolved.fromArtifact) return { content: 'persisted results are read-only; write to a workspace path instead', isError: true };
  const file = resolved.absolute;
  return withFsErrors('write', () => file, async () => {
    // The file written is the one judged (src/tools/fileAccess/judgedFile.ts), whatever its name points at by now.
    const real = await judgedLocation(pathOf(input), ctx);
    if (real === undefined) return { content: `cannot write ${file}: the permission check found no file at this path`, isError: true };
    return writeResolved(file, real, input, ctx);
  });
}

async function writeResolved(file: string, real: string, input: WriteInput, ctx: ToolContext): Promise<ToolOutput<FileChangeData>> {
  let handle = await openForUpdate(real).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EISDIR') return 'directory' as const;
    throw error;
  });
  if (handle === 'directory') return { content: `${file} is a directory; give a file path.`, isError: true };
  let before: DecodedText | undefined;
  try {
    if (handle) {
      const existing = await handle.stat();
      if (!existing.isFile()) return { content: `${file} is not a regular file.`, isError: true };
      const stale = readBeforeWriteError(file, existing, ctx.files);
      if (stale) return { content: stale, isError: true };
      before = decodeText(await handle.readFile({ signal: ctx.signal }));
    }
    ctx.throwIfAborted();
    handle ??= await createNew(real);
    // A file that had a BOM or another encoding keeps it; the content's own line endings are the model's choice.
    const bytes = encodeText(input.content, before ?? { encoding: 'utf8', bom: false });
    await rewrite(handle, bytes, !before);
    recordWritten(file, await handle.stat(), ctx.files);
    const shown = displayPath(file, ctx);
    const verb = before ? 'Updated' : 'Created';
    return {
      content: `${verb} ${shown} (${lineCount(input.content)}, ${formatBytes(bytes.length)}).`,
      data: { path: file, before: before?.text ?? '', after: input.content, created: !before },
    };
  } finally {
    await handle?.close();
  }
}

/** `1 line`, `3 lines`. */
function lineCount(text: string): string {
  const lines = countTextLines(text);
  return `${lines} line${lines === 1 ? '' : 's'}`;
}
