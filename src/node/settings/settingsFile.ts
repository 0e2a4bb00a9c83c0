// Loads a settings file shaped like Claude Code's `settings.json` (`tool-exec --settings FILE`).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseErrorLocation } from './jsonLocation';

export type SettingsFileLoad =
  | { readonly ok: true; readonly path: string; readonly settings: Record<string, unknown>; readonly text?: string }
  | { readonly ok: false; readonly path: string; readonly error: string };

/** Reads and parses the file; a missing file or bad JSON is a value, with a message naming the file. */
export async function loadSettingsFile(path: string, signal?: AbortSignal): Promise<SettingsFileLoad> {
  let text: string;
  try {
    text = await readFile(path, { encoding: 'utf8', signal });
  } catch (error) {
    signal?.throwIfAborted();
    return { ok: false, path, error: `cannot read settings file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const at = parseErrorLocation(text.replace(/^\uFEFF/, ''), error);
    const where = at ? ` at line ${at.line}, column ${at.column}` : '';
    return { ok: false, path, error: `settings file ${path} is not valid JSON${where}: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, path, error: `settings file ${path} must hold a JSON object` };
  }
  return { ok: true, path, settings: value as Record<string, unknown>, text: text.replace(/^\uFEFF/, '') };
}

/** Claude Code's settings files, relative to the home folder and to a workspace folder. */
export const USER_SETTINGS_FILE = '.claude/settings.json';
export const WORKSPACE_SETTINGS_FILES: readonly string[] = ['.claude/settings.json', '.claude/settings.local.json'];

export interface StandardSettings {
  /** `~/.claude/settings.json`, when present. */
  readonly user?: Record<string, unknown>;
  /** `.claude/settings.json` and `.claude/settings.local.json` of the folder, merged (lists concatenated). */
  readonly workspace?: Record<string, unknown>;
  /** Files that exist but cannot be used. Missing files are not problems. */
  readonly problems: readonly string[];
}

/**
 * Loads the settings a Claude Code user already has, for a host that wants them (the VS Code
 * extension). Pass `workspace` to `createPolicyFromSettings` with the folder's trust, and build hooks
 * from `workspace.hooks` only when the folder is trusted.
 */
export async function loadStandardSettings(workspaceFolder: string | undefined, homeDir: string, signal?: AbortSignal): Promise<StandardSettings> {
  const problems: string[] = [];
  const read = async (file: string): Promise<Record<string, unknown> | undefined> => {
    const loaded = await loadSettingsFile(file, signal);
    if (loaded.ok) return loaded.settings;
    if (!loaded.error.includes('ENOENT')) problems.push(loaded.error);
    return undefined;
  };
  const user = await read(join(homeDir, USER_SETTINGS_FILE));
  let workspace: Record<string, unknown> | undefined;
  if (workspaceFolder !== undefined) {
    for (const file of WORKSPACE_SETTINGS_FILES) {
      const settings = await read(join(workspaceFolder, file));
      if (settings) workspace = workspace ? mergeSettings(workspace, settings) : settings;
    }
  }
  return { user, workspace, problems };
}

/** Later files add to earlier ones: lists are concatenated, objects merged, other values replaced. */
export function mergeSettings(base: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(next)) {
    const previous = merged[key];
    if (Array.isArray(previous) && Array.isArray(value)) merged[key] = [...previous, ...value];
    else if (isPlainObject(previous) && isPlainObject(value)) merged[key] = mergeSettings(previous, value);
    else merged[key] = value;
  }
  return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
