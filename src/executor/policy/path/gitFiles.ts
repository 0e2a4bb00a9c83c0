// Git's files that name commands or other folders, the one list the always-ask check (sensitiveFiles.ts),
// the OS sandbox's write rules (src/tools/sandbox/sandboxConfig.ts) and the workspace snapshot
// (src/node/snapshot/walk.ts) share. Whoever writes one chooses what the next `git status` on the host
// runs (VS Code's git extension runs it unasked). Taken from git's documentation:
//   gitrepository-layout(5): `config`, `config.worktree`, `hooks/`, `commondir`, `objects/info/alternates`
//     and `http-alternates` (other object folders), `info/attributes`, `remotes/` and `branches/` (URLs,
//     which may be local paths), `worktrees/<id>/` (`gitdir`, `commondir`) and `modules/<name>/` (whole
//     repositories of their own);
//   git-config(1): config names commands (core.fsmonitor, core.hooksPath, core.sshCommand, core.editor,
//     core.pager, credential.helper, diff.external, filter and diff drivers, alias.*) and files
//     (include.path, includeIf.*.path), so the whole repository folder counts, and so does a working-tree
//     file it includes (`includedFiles`);
//   gitglossary(7) "gitfile", git-worktree(1), gitsubmodules(7): a `.git` *file* (`gitdir: <path>`) names the
//     repository folder of a worktree or submodule;
//   gitmodules(5): `.gitmodules` names submodules' URLs and paths (`submodulePaths`: where their checkouts'
//     `.git` files are).
// `.gitattributes` is not on it: it names drivers, whose commands live only in config (gitattributes(5)).
// Everything in a `.git` folder counts for writes; the snapshot, which skips objects, refs and the index
// (they change with every git command), lists the files above.
import * as path from 'node:path';

/** A repository folder, or a worktree's or submodule's gitfile (`gitdir: <path>`). */
export const GIT_DIR_NAME = '.git';
/** Working-tree files, at any depth, that git reads as instructions. */
export const GIT_WORKTREE_FILES: readonly string[] = ['.gitmodules'];
/** What writes must not change in each workspace folder: the whole repository entry and the working-tree files. */
export const GIT_PROTECTED_NAMES: readonly string[] = [GIT_DIR_NAME, ...GIT_WORKTREE_FILES];

/** Files in a repository folder that name commands or folders (paths relative to it, with `/`). */
export const GIT_CONTROL_FILES: readonly string[] = ['config', 'config.worktree', 'commondir', 'gitdir', 'info/attributes', 'objects/info/alternates', 'objects/info/http-alternates'];
/** Folders in a repository folder whose every file names a command or a URL. */
export const GIT_CONTROL_FOLDERS: readonly string[] = ['hooks', 'remotes', 'branches'];
const CONTROL_FILES: ReadonlySet<string> = new Set(GIT_CONTROL_FILES);
const CONTROL_FOLDERS: ReadonlySet<string> = new Set(GIT_CONTROL_FOLDERS);

/**
 * Whether `inside` (the path's segments below a `.git` folder, lower case) is one of git's control files:
 * those above, in the repository folder itself, in `worktrees/<id>/`, or in `modules/<name…>/` (a
 * submodule's name may hold slashes, and its folder may have modules of its own).
 */
export function isGitControlFile(inside: readonly string[]): boolean {
  if (inside.length === 0) return false;
  if (CONTROL_FILES.has(inside.join('/')) || (inside.length >= 2 && CONTROL_FOLDERS.has(inside[0]!))) return true;
  if (inside[0] === 'worktrees' && inside.length >= 3) return isGitControlFile(inside.slice(2));
  if (inside[0] === 'modules') {
    for (let start = 2; start < inside.length; start++) if (isGitControlFile(inside.slice(start))) return true;
  }
  return false;
}

/**
 * Whether a write to this path (its segments, lower case) changes a git file: anything in or named `.git`,
 * or a `.gitmodules`, at any depth. Returns the name shown to the user.
 */
export function gitWriteProtected(segments: readonly string[]): string | undefined {
  const last = segments[segments.length - 1];
  if (last !== undefined && GIT_WORKTREE_FILES.includes(last)) return last;
  const at = segments.indexOf(GIT_DIR_NAME);
  if (at < 0) return undefined;
  return at === segments.length - 1 ? GIT_DIR_NAME : `${GIT_DIR_NAME}/**`;
}

/** The snapshot lists a path below a skipped `.git` folder only when it is a control file there. */
export function gitControlPath(relativeSegments: readonly string[]): boolean {
  const at = relativeSegments.findIndex((segment) => segment.toLowerCase() === GIT_DIR_NAME);
  return at >= 0 && isGitControlFile(relativeSegments.slice(at + 1).map((segment) => segment.toLowerCase()));
}

/** The `path =` of each `[submodule "…"]` in a `.gitmodules` text (gitmodules(5)), as written. */
export function submodulePaths(gitmodulesText: string): string[] {
  return valuesOf(gitmodulesText, /^submodule$/i, 'path');
}

/**
 * The files a config text includes (`[include] path`, `[includeIf "…"] path`; git-config(1) "Includes"),
 * absolute: `~/` is the home folder, a relative path is relative to the config's own folder.
 */
export function includedFiles(configText: string, configFolder: string, home: string): string[] {
  return valuesOf(configText, /^include(?:if)?$/i, 'path').map((value) => (value.startsWith('~/') ? path.join(home, value.slice(2)) : path.resolve(configFolder, value)));
}

/** The values of `key` in the sections whose name matches, from a git config text (comments and quotes removed). */
function valuesOf(text: string, section: RegExp, key: string): string[] {
  const values: string[] = [];
  let inSection = false;
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]/.exec(line);
    if (header) {
      inSection = section.test(header[1]!);
      line = line.slice(header[0].length).trim();
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!inSection || !entry || entry[1]!.toLowerCase() !== key) continue;
    const value = configValue(entry[2]!);
    if (value !== '') values.push(value);
  }
  return values;
}

/** A config value without its comment and quotes (`"a b" ; note` → `a b`). */
function configValue(value: string): string {
  let out = '';
  let quoted = false;
  for (let index = 0; index < value.length; index++) {
    const char = value[index]!;
    if (char === '\\' && index + 1 < value.length) out += value[++index];
    else if (char === '"') quoted = !quoted;
    else if (!quoted && (char === ';' || char === '#')) break;
    else out += char;
  }
  return out.trim();
}
