// The ignore files agents' users already keep: `.aiignore` and those of other agents, in
// gitignore syntax (the `ignore` package), at the root of each workspace folder. Every tool, the
// shell analysis and the snapshots ask `excludedBy`; the files are read again on `reload()`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { IgnoredPaths } from '../../executor';
import { AGENT_IGNORE_FILES } from '../../executor';

/** The files read when the user names none (`agentToolExecutor.ignoreFiles`): ours, then other agents'. */
export const DEFAULT_AGENT_IGNORE_FILES: readonly string[] = AGENT_IGNORE_FILES;

interface LoadedFile {
  readonly folder: string;
  readonly name: string;
  readonly rules: Ignore;
}

export class AgentIgnoreFiles implements IgnoredPaths {
  private files: LoadedFile[] = [];

  constructor(
    private readonly folders: () => readonly string[],
    private fileNames: readonly string[] = DEFAULT_AGENT_IGNORE_FILES,
  ) {
    this.reload();
  }

  /** The ignore files that exist now, as absolute paths. */
  sources(): string[] {
    return this.files.map((file) => path.join(file.folder, file.name));
  }

  /** The names of the ignore files read, whether they exist or not. */
  names(): readonly string[] {
    return this.fileNames;
  }

  /** Reads the files again (and, when given, another list of names). */
  reload(names?: readonly string[]): void {
    if (names) this.fileNames = names;
    const files: LoadedFile[] = [];
    for (const folder of this.folders()) {
      for (const name of this.fileNames) {
        let text: string;
        try {
          text = fs.readFileSync(path.join(folder, name), 'utf8');
        } catch {
          continue;
        }
        files.push({ folder, name, rules: ignore().add(text) });
      }
    }
    this.files = files;
  }

  excludedBy(absolutePath: string, isDirectory = false): string | undefined {
    for (const file of this.files) {
      const relative = path.relative(file.folder, absolutePath);
      if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) continue;
      const posix = relative.split(path.sep).join('/');
      // The ignore files themselves stay visible, so the user (and the agent) can read what they say.
      if (this.fileNames.includes(posix)) continue;
      if (file.rules.ignores(isDirectory ? `${posix}/` : posix) || parentIgnored(file.rules, posix)) return file.name;
    }
    return undefined;
  }
}

/** A file inside an excluded folder is excluded too (gitignore: `secrets/` covers `secrets/a.txt`). */
function parentIgnored(rules: Ignore, posix: string): boolean {
  const parts = posix.split('/');
  for (let depth = 1; depth < parts.length; depth++) {
    if (rules.ignores(`${parts.slice(0, depth).join('/')}/`)) return true;
  }
  return false;
}
