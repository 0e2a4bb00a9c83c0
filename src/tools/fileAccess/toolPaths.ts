// Path helpers shared by the file tools: `file_path` → `path`, the workspace folders paths are read
// in, artifact URIs. The reading itself is `resolveModelPath`, the one the permission policy judges.
import * as path from 'node:path';
import type { ToolContext } from '../../executor';
import { resolveModelPath } from '../../executor';

/** The description of a tool's `file_path` field, the alias `normalisePathField` reads as `path`. */
export const PATH_ALIAS_DESCRIPTION = 'Alias of path.';

/**
 * Models trained on other agents send `file_path`; the tools speak `path`. Runs in `resolveInput`, so the
 * approval shows, and the handler runs, the normalised input.
 */
export function normalisePathField<I extends { path?: string; file_path?: string }>(input: I): Omit<I, 'file_path'> & { path: string } {
  const { file_path: filePath, ...rest } = input;
  const chosen = rest.path ?? filePath;
  if (chosen === undefined) throw new Error('missing required field path');
  return { ...rest, path: chosen } as Omit<I, 'file_path'> & { path: string };
}

export type ResolvedPath =
  | { readonly ok: true; readonly absolute: string; readonly fromArtifact: boolean }
  | { readonly ok: false; readonly error: string };

/** The path a call names: `path`, or `file_path` when `resolveInput` has not normalised it. Also its permission subject. */
export function pathOf(input: { path?: string; file_path?: string }): string {
  return input.path ?? input.file_path ?? '';
}

/**
 * The file `input` names, as `resolveModelPath` reads it in the tool's folders (the permission policy
 * judged the same path); `executor-artifact:` URIs go through the artifact store.
 */
export function resolveToolPath(input: string, ctx: Pick<ToolContext, 'workDir' | 'workspaceFolders' | 'artifacts' | 'ignored'>): ResolvedPath {
  const named = resolveModelPath(input, toolFolders(ctx));
  if (!named.ok) return named;
  if (named.kind === 'file') {
    const excludedBy = ctx.ignored?.excludedBy(named.absolute);
    if (excludedBy) return { ok: false, error: ignoredMessage(displayPath(named.absolute, ctx), excludedBy) };
    return { ok: true, absolute: named.absolute, fromArtifact: false };
  }
  const stored = ctx.artifacts?.resolve(named.uri);
  if (!stored) return { ok: false, error: `unknown artifact ${named.uri}: it may belong to another session or have been deleted` };
  return { ok: true, absolute: stored, fromArtifact: true };
}

/** What a tool says of a path an agent ignore file excludes: which file, and that it is the user's to change. */
export function ignoredMessage(shown: string, excludedBy: string): string {
  return `${shown} is excluded by ${excludedBy}: the user keeps it away from agents' tools. Do not try to reach it another way; ask the user if it is needed.`;
}

/** A path as the model should see it in messages: relative to the first folder containing it, else absolute. */
export function displayPath(absolute: string, ctx: Pick<ToolContext, 'workDir' | 'workspaceFolders'>): string {
  for (const folder of toolFolders(ctx)) {
    const relative = path.relative(folder, absolute);
    if (relative && !relative.startsWith('..') && !path.isAbsolute(relative)) return relative.split(path.sep).join('/');
  }
  return absolute;
}

/** The folders paths are read in: the workspace folders, else `workDir` (the executor's `workDirOf`, as the policy reads it). */
function toolFolders(ctx: Pick<ToolContext, 'workDir' | 'workspaceFolders'>): readonly string[] {
  return ctx.workspaceFolders.length > 0 ? ctx.workspaceFolders : [ctx.workDir];
}
