// Comparing two walks, merged with the change events seen in between, so no change falls in a blind spot.
// The walk finds what changed within its limits; a folder that is new is explored past them; the
// events add what happened deeper or past the file limit.
import * as path from 'node:path';
import type { FileChangeEvent } from '../../executor';
import { GIT_DIR_NAME, gitControlPath } from '../../executor';
import type { WorkspaceChange } from '../../executor';
import { isSkippedName, statFileSync, walkWorkspace, type FileStat, type WalkResult } from './walk';

/** Files recorded from folders created during the call, explored past the walk's limits. */
export const NEW_FOLDER_MAX_FILES = 5000;
/** How deep a new folder is explored. */
export const NEW_FOLDER_MAX_DEPTH = 32;
/**
 * The diff reads file stats synchronously (a thread-pool round trip each costs more than the read on
 * a loaded machine) and lets the event loop run after this many.
 */
export const DIFF_YIELD_EVERY_STATS = 256;

/** The first and last kind of change seen for one path during the call. */
export interface EventRecord {
  first: FileChangeEvent['kind'];
  last: FileChangeEvent['kind'];
  readonly directory: boolean;
}

export interface DiffInput {
  readonly folders: readonly string[];
  readonly before: readonly WalkResult[];
  readonly after: readonly WalkResult[];
  readonly events: ReadonlyMap<string, EventRecord>;
}

const KIND_ORDER = { created: 0, modified: 1, deleted: 2 } as const;

export async function diffWorkspace(input: DiffInput): Promise<WorkspaceChange[]> {
  const { folders, events } = input;
  const beforeFiles = union(input.before.map((walk) => walk.files));
  const afterFiles = union(input.after.map((walk) => walk.files));
  const beforeCapped = input.before.some((walk) => walk.capped);
  const changes = new Map<string, WorkspaceChange>();
  let stats = 0;
  const statFile = async (file: string): Promise<FileStat | undefined> => {
    if (++stats % DIFF_YIELD_EVERY_STATS === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    return statFileSync(file);
  };
  const add = (kind: WorkspaceChange['kind'], file: string, before?: FileStat, after?: FileStat) => {
    if (changes.has(file) || !insideFolders(file, folders) || isIgnoredPath(file, folders)) return;
    changes.set(file, {
      kind,
      path: displayPath(file, folders),
      absolutePath: file,
      ...(before ? { sizeBefore: before.size } : {}),
      ...(after ? { sizeAfter: after.size, mtimeAfterMs: after.mtimeMs } : {}),
    });
  };
  // 1. What the walks cover.
  for (const [file, after] of afterFiles) {
    const before = beforeFiles.get(file);
    const event = events.get(file);
    if (before) {
      if (before.size !== after.size || before.mtimeMs !== after.mtimeMs) add('modified', file, before, after);
    } else if (!beforeCapped || event?.first === 'created') {
      add('created', file, undefined, after);
    } else if (event) {
      add('modified', file, undefined, after);
    }
  }
  for (const [file, before] of beforeFiles) {
    if (afterFiles.has(file)) continue;
    const now = await statFile(file);
    if (!now) add('deleted', file, before);
    else if (now.size !== before.size || now.mtimeMs !== before.mtimeMs) add('modified', file, before, now);
  }
  // 2. Folders created during the call: everything in them is new, however deep.
  let budget = NEW_FOLDER_MAX_FILES;
  for (const folder of newFolders(input, beforeCapped)) {
    if (budget <= 0) break;
    const walk = await walkWorkspace(folder, { maxDepth: NEW_FOLDER_MAX_DEPTH, maxFiles: budget });
    for (const [file, stat] of walk.files) if (!beforeFiles.has(file)) add('created', file, undefined, stat);
    budget -= walk.files.size;
  }
  // 3. Events the walks could not see (deeper than 4 levels, past file 500).
  for (const [file, event] of events) {
    if (event.directory || changes.has(file) || afterFiles.has(file) || beforeFiles.has(file)) continue;
    const now = await statFile(file);
    if (now) add(event.first === 'created' ? 'created' : 'modified', file, undefined, now);
    else if (event.first !== 'created') add('deleted', file);
  }
  return [...changes.values()].sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Top-most folders that exist now and did not before: seen by the walk, or reported created. */
function newFolders(input: DiffInput, beforeCapped: boolean): string[] {
  const beforeDirs = new Set(input.before.flatMap((walk) => [...walk.dirs]));
  const candidates = new Set<string>();
  if (!beforeCapped) {
    for (const walk of input.after) for (const dir of walk.dirs) if (!beforeDirs.has(dir)) candidates.add(dir);
  }
  for (const [file, event] of input.events) {
    if (event.directory && event.first === 'created' && event.last !== 'deleted') candidates.add(file);
  }
  return [...candidates].filter((dir) => !hasAncestorIn(dir, candidates) && insideFolders(dir, input.folders)).sort();
}

function hasAncestorIn(dir: string, set: ReadonlySet<string>): boolean {
  for (let parent = path.dirname(dir); parent !== dir && parent !== path.dirname(parent); dir = parent, parent = path.dirname(parent)) {
    if (set.has(parent)) return true;
  }
  return false;
}

function union(maps: readonly Map<string, FileStat>[]): ReadonlyMap<string, FileStat> {
  // One workspace folder: its map as it is, not a copy of it twice per call.
  if (maps.length === 1) return maps[0]!;
  const all = new Map<string, FileStat>();
  for (const map of maps) for (const [key, value] of map) all.set(key, value);
  return all;
}

function owningFolder(file: string, folders: readonly string[]): string | undefined {
  return folders.find((folder) => file === folder || file.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep));
}

function insideFolders(file: string, folders: readonly string[]): boolean {
  return owningFolder(file, folders) !== undefined;
}

/** Skipped folders anywhere on the path, and skipped file kinds (the spec's snapshot lists), also for event paths; git's control files are never skipped. */
function isIgnoredPath(file: string, folders: readonly string[]): boolean {
  const folder = owningFolder(file, folders)!;
  const parts = path.relative(folder, file).split(path.sep);
  if (gitControlPath(parts)) return parts.slice(0, parts.indexOf(GIT_DIR_NAME)).some((part) => isSkippedName(part, true));
  return parts.some((part, index) => isSkippedName(part, index < parts.length - 1));
}

/** Relative to its folder, with `/`; prefixed with the folder's name when there are several. */
export function displayPath(file: string, folders: readonly string[]): string {
  const folder = owningFolder(file, folders) ?? path.dirname(file);
  const relative = path.relative(folder, file).split(path.sep).join('/');
  return folders.length > 1 ? `${path.basename(folder)}/${relative}` : relative;
}
