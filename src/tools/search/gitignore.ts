// `.gitignore` as git reads it, for Glob: every `.gitignore` from the repository root down to a file's folder
// applies, each relative to its own folder (the `ignore` package implements the pattern rules).
import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';

export class GitIgnoreFilter {
  private readonly rules = new Map<string, Ignore | null>();

  /** `root`: the repository root (the folder holding `.git`), or the workspace folder when there is none. */
  constructor(readonly root: string) {}

  /** Finds the root for `dir`: the nearest ancestor with `.git`, else `fallback`. */
  static forDirectory(dir: string, fallback: string): GitIgnoreFilter {
    for (let current = dir; ; current = path.dirname(current)) {
      if (fs.existsSync(path.join(current, '.git'))) return new GitIgnoreFilter(current);
      if (path.dirname(current) === current) break;
    }
    return new GitIgnoreFilter(fallback);
  }

  /** True when git would ignore this file or folder (or one of its parent folders). */
  ignores(absolutePath: string, isDirectory = false): boolean {
    const relative = path.relative(this.root, absolutePath);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return false;
    const parts = relative.split(path.sep);
    if (parts.includes('.git')) return true;
    let dir = this.root;
    for (let depth = 0; depth < parts.length; depth++) {
      const rules = this.rulesOf(dir);
      if (rules?.ignores(parts.slice(depth).join('/') + (isDirectory ? '/' : ''))) return true;
      dir = path.join(dir, parts[depth]!);
    }
    return false;
  }

  /**
   * Folder names the root `.gitignore` excludes everywhere (`node_modules/`, `out`), as globs the crawler can
   * skip without reading them; empty when the file re-includes anything (`!`), to stay exact.
   */
  crawlExclusions(): string[] {
    const text = readIgnoreFile(this.root);
    if (!text || /^\s*!/m.test(text)) return [];
    const out: string[] = [];
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim().replace(/\/$/, '');
      if (/^[A-Za-z0-9._-]+$/.test(line) && line !== '.' && line !== '..') out.push(`**/${line}/**`);
    }
    return out;
  }

  private rulesOf(dir: string): Ignore | null {
    let rules = this.rules.get(dir);
    if (rules === undefined) {
      const text = readIgnoreFile(dir);
      rules = text === undefined ? null : ignore().add(text);
      this.rules.set(dir, rules);
    }
    return rules;
  }
}

function readIgnoreFile(dir: string): string | undefined {
  try {
    return fs.readFileSync(path.join(dir, '.gitignore'), 'utf8');
  } catch {
    return undefined;
  }
}
