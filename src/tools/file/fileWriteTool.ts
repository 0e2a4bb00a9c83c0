// What Write and Edit share as tools: a write to the one file their `path` names, read the same way by
// the rules, the approval's "Review Diff" and the handler, and shown as a `file_diff` once done.
import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutput } from '../../executor';
import { buildFileDiffDisplay } from '../../executor';
import { normalisePathField, PATH_ALIAS_DESCRIPTION, pathOf } from '../fileAccess/toolPaths';
import { proposedChange } from './proposedChange';

/** What Write and Edit hand their `file_diff` display. */
export interface FileChangeData {
  readonly path: string;
  readonly before: string;
  readonly after: string;
  readonly created: boolean;
}

/** The input fields naming the file written; `resolveInput` makes `file_path` into `path`. */
export function writtenPathFields() {
  return {
    path: z.string().optional().describe('Absolute path, or relative to the workspace folder.'),
    file_path: z.string().optional().describe(PATH_ALIAS_DESCRIPTION),
  };
}

/** What one of the two tools says of itself; the rest is the same for both. */
export interface FileWriteToolParts<I> {
  readonly name: string;
  readonly description: string;
  /** Its progress message's verb (`Writing src/a.ts`). */
  readonly verb: string;
  readonly inputSchema: () => z.ZodType<I>;
  /** The approval dialog's title and text. */
  preview(input: I): { readonly title: string; readonly detail: string };
  /** What the file would become, for "Review Diff"; undefined when the call would fail. */
  after(input: I, before: string, exists: boolean): string | undefined;
  handler(input: I, ctx: ToolContext): Promise<ToolOutput<FileChangeData>>;
}

export function fileWriteTool<I extends { path?: string; file_path?: string }>(parts: FileWriteToolParts<I>): ToolDefinition<I, FileChangeData> {
  return {
    name: parts.name,
    description: parts.description,
    get inputSchema() {
      return parts.inputSchema();
    },
    concurrentSafe: false,
    sideEffectScope: 'workspace',
    resolveInput: (input) => normalisePathField(input) as unknown as I,
    permissionSubject: (input) => ({ kind: 'path', path: pathOf(input), access: 'write' }),
    prepareApproval: async (input, _signal, context) => ({
      preview: {
        ...parts.preview(input),
        change: await proposedChange(pathOf(input), context, (before, exists) => parts.after(input, before, exists)),
      },
    }),
    handler: (input, ctx) => parts.handler(input, ctx),
    display: (output) => (output.data && !output.isError ? buildFileDiffDisplay(output.data.path, output.data.before, output.data.after) : undefined),
    presentation: { verb: parts.verb, linksFile: true },
  };
}
