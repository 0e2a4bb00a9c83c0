// Which project instruction files the model gets, read through a small port: `AGENTS.md` at each
// workspace folder's root and the nearest one above each file in play, `CLAUDE.md`,
// `.github/copilot-instructions.md`, and `.github/instructions/*.instructions.md` whose `applyTo`
// globs match a file in play. Each is redacted, skipped when an ignore file excludes it, and capped.
// No `vscode` here.
import * as path from 'node:path';
import picomatch from 'picomatch';

/** One instruction file is cut here: a few pages, as Copilot's and Claude Code's are meant to be. Ours. */
export const MAX_INSTRUCTION_FILE_CHARS = 12_000;
/** All instruction files together are cut here, so they never crowd out the conversation. Ours. */
export const MAX_INSTRUCTION_FILES_CHARS = 32_000;

/** The file system as this module reads it. */
export interface InstructionFilesIo {
  /** The file's text, or undefined when it does not exist or is not a file. */
  readText(absolutePath: string): Promise<string | undefined>;
  /** The names in a folder, or undefined when it does not exist. */
  list(absolutePath: string): Promise<readonly string[] | undefined>;
}

export interface InstructionFilesInput {
  readonly workspaceFolders: readonly string[];
  /** Absolute paths of the files this request works on (attachments, the conversation's calls). */
  readonly filesInPlay: readonly string[];
  /** The ignore file that excludes a path, or undefined. */
  readonly excludedBy: (absolutePath: string) => string | undefined;
  readonly redact: (text: string) => string;
}

export interface InstructionFile {
  readonly absolutePath: string;
  /** The path as the model and user see it: relative to its workspace folder. */
  readonly label: string;
  readonly text: string;
  /** Cut to the limit. */
  readonly truncated: boolean;
}

export interface InstructionFiles {
  readonly loaded: readonly InstructionFile[];
  /** Files that exist but were not sent, and why (an ignore file, the total limit). */
  readonly skipped: ReadonlyArray<{ readonly absolutePath: string; readonly reason: string }>;
}

/** Files at each folder's root, in the order they are given to the model. */
const ROOT_FILES = ['AGENTS.md', 'CLAUDE.md', path.join('.github', 'copilot-instructions.md')];
const SCOPED_FOLDER = path.join('.github', 'instructions');
const SCOPED_SUFFIX = '.instructions.md';

export async function loadInstructionFiles(input: InstructionFilesInput, io: InstructionFilesIo): Promise<InstructionFiles> {
  const candidates: string[] = [];
  for (const folder of input.workspaceFolders) {
    for (const name of ROOT_FILES) candidates.push(path.join(folder, name));
    const inPlay = input.filesInPlay.filter((file) => isInside(folder, file));
    for (const file of inPlay) {
      const nearest = await nearestAgentsFile(folder, file, io);
      if (nearest) candidates.push(nearest);
    }
    const scoped = (await io.list(path.join(folder, SCOPED_FOLDER))) ?? [];
    for (const name of [...scoped].filter((entry) => entry.endsWith(SCOPED_SUFFIX)).sort()) candidates.push(path.join(folder, SCOPED_FOLDER, name));
  }
  const loaded: InstructionFile[] = [];
  const skipped: Array<{ absolutePath: string; reason: string }> = [];
  let room = MAX_INSTRUCTION_FILES_CHARS;
  for (const absolutePath of [...new Set(candidates)]) {
    const raw = await io.readText(absolutePath);
    if (raw === undefined) continue;
    const excluded = input.excludedBy(absolutePath);
    if (excluded) {
      skipped.push({ absolutePath, reason: `excluded by ${excluded}` });
      continue;
    }
    const folder = input.workspaceFolders.find((candidate) => isInside(candidate, absolutePath))!;
    let body = raw;
    if (absolutePath.endsWith(SCOPED_SUFFIX)) {
      const scoped = parseScoped(raw);
      const relative = input.filesInPlay.filter((file) => isInside(folder, file)).map((file) => toPosix(path.relative(folder, file)));
      if (!scoped.applyTo.some((glob) => appliesWithoutFiles(glob) || relative.some((file) => picomatch.isMatch(file, glob, { dot: true })))) continue;
      body = scoped.body;
    }
    if (room <= 0) {
      skipped.push({ absolutePath, reason: `over the ${MAX_INSTRUCTION_FILES_CHARS}-character limit of all instruction files` });
      continue;
    }
    const limit = Math.min(MAX_INSTRUCTION_FILE_CHARS, room);
    const text = input.redact(body.trim());
    const truncated = text.length > limit;
    const kept = truncated ? text.slice(0, limit) : text;
    room -= kept.length;
    loaded.push({ absolutePath, label: toPosix(path.relative(folder, absolutePath)), text: kept, truncated });
  }
  return { loaded, skipped };
}

/** The `applyTo` globs of a `.instructions.md` file's front matter, and its text without it. */
export function parseScoped(text: string): { applyTo: string[]; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return { applyTo: [], body: text };
  const line = /^applyTo:\s*(.*)$/m.exec(match[1]!)?.[1]?.trim() ?? '';
  const value = line.replace(/^(['"])(.*)\1$/, '$2');
  const applyTo = value.split(',').map((glob) => glob.trim()).filter((glob) => glob !== '');
  return { applyTo, body: text.slice(match[0].length) };
}

/** `**` and `**\/*` apply to every request, with or without a file in play. */
function appliesWithoutFiles(glob: string): boolean {
  return glob === '**' || glob === '**/*' || glob === '*';
}

/** The nearest `AGENTS.md` above a file, below the folder's root (the root's own is loaded anyway). */
async function nearestAgentsFile(folder: string, file: string, io: InstructionFilesIo): Promise<string | undefined> {
  let dir = path.dirname(file);
  while (dir !== folder && isInside(folder, dir)) {
    const candidate = path.join(dir, 'AGENTS.md');
    if ((await io.readText(candidate)) !== undefined) return candidate;
    dir = path.dirname(dir);
  }
  return undefined;
}

function isInside(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

function toPosix(relative: string): string {
  return relative.split(path.sep).join('/');
}
