// The files of a repository folder the workspace snapshot lists although it skips `.git` (whose objects,
// refs and index change with every git command): those that name commands or other folders, as
// `src/executor/policy/path/gitFiles.ts` lists them. Read synchronously, like the walk that finds the folder.
import { readdirSync, type Dirent } from 'node:fs';
import * as path from 'node:path';
import { GIT_CONTROL_FILES, GIT_CONTROL_FOLDERS } from '../../executor';
import { statFileSync, type FileStat } from './fileStat';

/**
 * Files recorded per `.git` folder: a repository's hook samples are about 14, and each submodule's folder
 * under `modules/` holds as many again; a thousand covers seventy submodules.
 */
export const GIT_CONTROL_MAX_FILES = 1000;
/** How deep `modules/` is searched for submodules' folders (a submodule's name may hold slashes). */
const MODULES_MAX_DEPTH = 8;

/** Adds the control files of the repository folder `gitDir` (a `.git` folder) to `files`. */
export function recordGitControlFiles(gitDir: string, files: Map<string, FileStat>): void {
  let budget = GIT_CONTROL_MAX_FILES;
  const record = (file: string) => {
    if (budget <= 0) return;
    const stat = statFileSync(file);
    if (!stat) return;
    files.set(file, stat);
    budget--;
  };
  const repository = (dir: string) => {
    for (const name of GIT_CONTROL_FILES) record(path.join(dir, ...name.split('/')));
    for (const folder of GIT_CONTROL_FOLDERS) for (const entry of list(path.join(dir, folder))) if (entry.isFile()) record(path.join(dir, folder, entry.name));
    for (const entry of list(path.join(dir, 'worktrees'))) if (entry.isDirectory()) repository(path.join(dir, 'worktrees', entry.name));
    modules(path.join(dir, 'modules'), 1);
  };
  // A folder under `modules/` holding a HEAD is a submodule's repository; any other may be one still being
  // made, or part of a name (`libs/foo`): its control files count, and it is searched further.
  const modules = (dir: string, depth: number) => {
    if (depth > MODULES_MAX_DEPTH) return;
    for (const entry of list(dir)) {
      if (!entry.isDirectory()) continue;
      const sub = path.join(dir, entry.name);
      repository(sub);
      if (!statFileSync(path.join(sub, 'HEAD'))) modules(sub, depth + 1);
    }
  };
  repository(gitDir);
}

function list(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
