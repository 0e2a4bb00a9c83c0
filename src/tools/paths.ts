// Path helpers shared by the file tools: `file_path` → `path`, workspace-relative resolution, artifact URIs.
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ToolContext } from '../executor/contract';

/** The scheme of persisted results (spec §8); Read resolves it through `ctx.artifacts`. */
export const ARTIFACT_SCHEME = 'executor-artifact:';

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

/**
 * Absolute paths stay; `~/` is the home folder; `executor-artifact://` URIs go through the artifact store;
 * a relative path is taken in the first workspace folder that has it (else the first folder).
 */
export function resolveToolPath(input: string, ctx: Pick<ToolContext, 'workDir' | 'workspaceFolders' | 'artifacts'>): ResolvedPath {
  const trimmed = input.trim();
  if (trimmed === '') return { ok: false, error: 'path is empty: give an absolute path or one relative to the workspace folder' };
  if (trimmed.startsWith(ARTIFACT_SCHEME)) {
    const resolved = ctx.artifacts?.resolve(trimmed);
    if (!resolved) return { ok: false, error: `unknown artifact ${trimmed}: it may belong to another session or have been deleted` };
    return { ok: true, absolute: resolved, fromArtifact: true };
  }
  if (trimmed.startsWith('file://')) {
    return { ok: true, absolute: path.resolve(decodeURIComponent(new URL(trimmed).pathname)), fromArtifact: false };
  }
  if (trimmed === '~' || trimmed.startsWith('~/')) {
    return { ok: true, absolute: path.join(os.homedir(), trimmed.slice(1)), fromArtifact: false };
  }
  if (path.isAbsolute(trimmed)) return { ok: true, absolute: path.resolve(trimmed), fromArtifact: false };
  const folders = ctx.workspaceFolders.length > 0 ? ctx.workspaceFolders : [ctx.workDir];
  for (const folder of folders) {
    const candidate = path.resolve(folder, trimmed);
    if (existsSync(candidate)) return { ok: true, absolute: candidate, fromArtifact: false };
  }
  return { ok: true, absolute: path.resolve(folders[0] ?? ctx.workDir, trimmed), fromArtifact: false };
}

/** A path as the model should see it in messages: relative to the first folder containing it, else absolute. */
export function displayPath(absolute: string, ctx: Pick<ToolContext, 'workDir' | 'workspaceFolders'>): string {
  const folders = ctx.workspaceFolders.length > 0 ? ctx.workspaceFolders : [ctx.workDir];
  for (const folder of folders) {
    const relative = path.relative(folder, absolute);
    if (relative && !relative.startsWith('..') && !path.isAbsolute(relative)) return relative.split(path.sep).join('/');
  }
  return absolute;
}
