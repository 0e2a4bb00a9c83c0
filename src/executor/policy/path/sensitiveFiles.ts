// Files that always ask (spec §3.5): agent memory files and configuration that runs
// code or holds credentials ask before a write; secret files ask before a read too. Names compare
// case-insensitively (macOS and Windows file systems do), at any depth.
import * as path from 'node:path';
import { gitWriteProtected } from './gitFiles';

export type SensitiveCategory = 'agent-memory' | 'secret' | 'config' | 'ignore-file';

export interface SensitiveFile {
  readonly category: SensitiveCategory;
  /** The name or pattern that matched, for the reason shown to the user. */
  readonly matched: string;
}

/** Agent memory and instruction files (spec §3.5): whatever lands there steers every later turn. */
const MEMORY_FILES: ReadonlySet<string> = new Set([
  'agents.md',
  'agents.override.md',
  'claude.md',
  'claude.local.md',
  'gemini.md',
  '.cursorrules',
  '.windsurfrules',
  '.clinerules',
  '.roorules',
  '.goosehints',
]);
/** Memory files that live in a known folder: `[folder, name or '*' for any file below it]`. */
const MEMORY_IN_FOLDERS: readonly (readonly [string, string])[] = [
  ['.github', 'copilot-instructions.md'],
  ['.github/instructions', '*'],
  ['.github/prompts', '*'],
  ['.cursor/rules', '*'],
  ['.windsurf/rules', '*'],
  ['.clinerules', '*'],
  ['.roo/rules', '*'],
  ['.claude', 'claude.md'],
  ['.claude/commands', '*'],
  ['.claude/agents', '*'],
];
/**
 * The agents' ignore files read when the user names none (`agentToolExecutor.ignoreFiles`): ours, then other
 * agents'. Writing one (even one that does not exist yet) changes what every tool and Workspace Changes see.
 */
export const AGENT_IGNORE_FILES: readonly string[] = ['.aiignore', '.cursorignore', '.clineignore', '.rooignore', '.aiexclude'];
/** Configuration that runs code or grants permissions when written (git's own files: gitFiles.ts). */
const CONFIG_IN_FOLDERS: readonly (readonly [string, string])[] = [
  ['.vscode', 'settings.json'],
  ['.vscode', 'tasks.json'],
  ['.vscode', 'launch.json'],
  ['.claude', 'settings.json'],
  ['.claude', 'settings.local.json'],
  ['.husky', '*'],
];
/** Credential files by exact name. */
const SECRET_FILES: ReadonlySet<string> = new Set(['.netrc', '.pgpass', 'credentials', '.git-credentials']);
const SECRET_EXTENSIONS: readonly string[] = ['.pem', '.key', '.p12', '.pfx'];
/**
 * The secret-file names above as globs, for tools that search many files (Grep passes them to ripgrep
 * as exclusions): one list, so a search skips exactly what a Read would ask before. Templates such as
 * `.env.example` are skipped too, since a glob cannot tell them apart cheaply; naming one asks nothing.
 */
export const SECRET_FILE_GLOBS: readonly string[] = ['.env*', ...SECRET_FILES, ...SECRET_EXTENSIONS.map((extension) => `*${extension}`), 'id_*'];

/** `.env.example` and kin are committed templates, not secrets (a write still asks). */
const ENV_TEMPLATES = /^\.env\.(example|sample|template|dist|defaults)$/;

/**
 * Classifies an absolute path. Reads ask only for secrets; writes ask for every category.
 * `ignoreFiles`: the ignore files' names in force. Undefined when the file is not sensitive for this access.
 */
export function classifySensitive(absolutePath: string, access: 'read' | 'write', ignoreFiles: readonly string[] = AGENT_IGNORE_FILES): SensitiveFile | undefined {
  // A read asks only by the file's name (`credentials` is a secret name, so `.aws/credentials` is one
  // too): the folders are split only for a write (every literal argument of a shell command
  // is classified as a read).
  const name = path.basename(absolutePath).toLowerCase();
  const secret = secretName(name, access);
  if (secret) return { category: 'secret', matched: secret };
  if (access === 'read') return undefined;
  const segments = absolutePath.split(path.sep).filter(Boolean).map((segment) => segment.toLowerCase());
  if (MEMORY_FILES.has(name)) return { category: 'agent-memory', matched: name };
  const memory = inFolders(segments, MEMORY_IN_FOLDERS);
  if (memory) return { category: 'agent-memory', matched: memory };
  const config = gitWriteProtected(segments) ?? inFolders(segments, CONFIG_IN_FOLDERS);
  if (config) return { category: 'config', matched: config };
  if (ignoreFiles.some((ignoreFile) => path.basename(ignoreFile).toLowerCase() === name)) return { category: 'ignore-file', matched: name };
  return undefined;
}

function secretName(name: string, access: 'read' | 'write'): string | undefined {
  if (name.startsWith('.env')) return access === 'read' && ENV_TEMPLATES.test(name) ? undefined : '.env*';
  if (SECRET_FILES.has(name)) return name;
  const extension = SECRET_EXTENSIONS.find((ext) => name.endsWith(ext));
  if (extension) return `*${extension}`;
  if (name.startsWith('id_')) return access === 'read' && name.endsWith('.pub') ? undefined : 'id_*';
  return undefined;
}

function inFolders(segments: readonly string[], entries: readonly (readonly [string, string])[]): string | undefined {
  for (const [folder, name] of entries) {
    const folderSegments = folder.split('/');
    const last = segments.length - 1;
    if (name === '*') {
      // Any file anywhere below the folder.
      for (let start = 0; start + folderSegments.length <= last; start += 1) {
        if (folderSegments.every((segment, offset) => segments[start + offset] === segment)) return `${folder}/**`;
      }
    } else if (segments[last] === name) {
      const start = last - folderSegments.length;
      if (start >= 0 && folderSegments.every((segment, offset) => segments[start + offset] === segment)) return `${folder}/${name}`;
    }
  }
  return undefined;
}
