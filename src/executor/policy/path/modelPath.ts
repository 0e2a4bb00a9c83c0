// The one reading of a path the model gives a tool: the permission policy judges, and the
// file tools open, what `resolveModelPath` returns, so a rule is never checked against another file
// than the one the tool touches. Pure core: no `vscode`; the only file-system access is the existence
// check that picks the workspace folder of a relative path.
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isArtifactUri } from '../../results/artifactLayout';

/** What a model-given path names: a file (absolute), a persisted result, or nothing the tools accept. */
export type ModelPath =
  | {
      readonly ok: true;
      readonly kind: 'file';
      /** Absolute, `..` removed: the path the tools open. */
      readonly absolute: string;
      /**
       * Absolute with `..` still as written: where the kernel ends up when handed the text, since it
       * applies `..` after following links. The policy checks this reading too.
       */
      readonly unnormalised: string;
    }
  | { readonly ok: true; readonly kind: 'artifact'; readonly uri: string }
  | { readonly ok: false; readonly error: string };

const FILE_URL_PREFIX = 'file://';
const HOME = '~';
const HOME_PREFIX = '~/';
const EMPTY_PATH_ERROR = 'path is empty: give an absolute path or one relative to the workspace folder';

/** Where tools and shells start: the first workspace folder, else the process's own (the executor's `workDir`). */
export function workDirOf(folders: readonly string[]): string {
  return folders[0] ?? process.cwd();
}

/**
 * Reads `raw` as every file tool does: trimmed; empty is refused; `executor-artifact:` URIs are
 * persisted results; `file://` URLs of this machine; `~` and `~/` are the home folder; absolute paths
 * stay; a relative path is in the first of `folders` that has it, else the first (with no folders,
 * the process's working directory).
 */
export function resolveModelPath(raw: string, folders: readonly string[]): ModelPath {
  const text = raw.trim();
  if (text === '') return { ok: false, error: EMPTY_PATH_ERROR };
  if (isArtifactUri(text)) return { ok: true, kind: 'artifact', uri: text };
  const written = absoluteAsWritten(text, folders.length > 0 ? folders : [workDirOf(folders)]);
  if (!written.ok) return written;
  return { ok: true, kind: 'file', absolute: path.resolve(written.path), unnormalised: written.path };
}

function absoluteAsWritten(text: string, folders: readonly string[]): { ok: true; path: string } | { ok: false; error: string } {
  if (text.startsWith(FILE_URL_PREFIX)) {
    try {
      return { ok: true, path: fileURLToPath(text) };
    } catch (error) {
      // Another host's file, an encoded `/` or not a URL at all: no guess, the model gives the path itself.
      return { ok: false, error: `${text} is not a file URL of this machine (${(error as Error).message}): give the path itself` };
    }
  }
  if (text === HOME || text.startsWith(HOME_PREFIX)) return { ok: true, path: `${os.homedir()}${text.slice(HOME.length)}` };
  if (path.isAbsolute(text)) return { ok: true, path: text };
  const folder = folders.find((candidate) => existsSync(path.resolve(candidate, text))) ?? folders[0]!;
  return { ok: true, path: `${folder}/${text}` };
}
