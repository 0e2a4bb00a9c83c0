// The git files of a workspace folder the sandbox cannot find by name at the folder's root (on Linux it
// binds concrete paths): the `.git` files of its submodules' checkouts, named in `.gitmodules`, and the
// working-tree files its repository's config includes. Read when the sandbox is configured.
import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { GIT_DIR_NAME, GIT_WORKTREE_FILES, includedFiles, submodulePaths } from '../../executor/policy/path/gitFiles';

/** Absolute paths a sandboxed command must not write, besides the names at the folder's root. */
export async function repositoryPaths(folder: string, home: string): Promise<string[]> {
  const paths: string[] = [];
  for (const relative of submodulePaths(await text(path.join(folder, '.gitmodules')))) {
    const checkout = path.resolve(folder, relative);
    if (checkout !== folder && checkout.startsWith(folder + path.sep)) paths.push(path.join(checkout, GIT_DIR_NAME), ...GIT_WORKTREE_FILES.map((name) => path.join(checkout, name)));
  }
  const gitDir = await repositoryFolder(folder);
  if (gitDir) {
    for (const config of [path.join(gitDir, 'config'), path.join(gitDir, 'config.worktree')]) paths.push(...includedFiles(await text(config), gitDir, home));
  }
  return paths;
}

/** The folder's repository folder: its `.git`, or where its `.git` file points (`gitdir: <path>`). */
async function repositoryFolder(folder: string): Promise<string | undefined> {
  const dotGit = path.join(folder, GIT_DIR_NAME);
  const info = await stat(dotGit).catch(() => undefined);
  if (!info) return undefined;
  if (info.isDirectory()) return dotGit;
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(await text(dotGit))?.[1];
  return pointer ? path.resolve(folder, pointer) : undefined;
}

async function text(file: string): Promise<string> {
  return readFile(file, 'utf8').catch(() => '');
}
