// Lasting approvals: "Allow in this workspace" adds the exact rule to the workspace's
// `.claude/settings.local.json` (the file Claude Code users keep out of git), and the rules list
// removes a rule from the settings file that holds it. Other keys of a file are kept as they are.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { loadSettingsFile } from './settingsFile';

/** Where "Allow in this workspace" writes, relative to the workspace folder. */
export const LOCAL_SETTINGS_FILE = '.claude/settings.local.json';

export type RuleBehavior = 'allow' | 'ask' | 'deny';

/** Adds `rules` to `permissions.allow` of the folder's local settings (created when missing); returns the file. */
export async function addAllowRules(workspaceFolder: string, rules: readonly string[]): Promise<string> {
  const file = join(workspaceFolder, LOCAL_SETTINGS_FILE);
  const settings = await readForEdit(file);
  const permissions = objectAt(settings, 'permissions', file);
  const allow = listAt(permissions, 'allow', file);
  for (const rule of rules) if (!allow.includes(rule)) allow.push(rule);
  await writeSettings(file, settings);
  return file;
}

/** Removes `rule` from `permissions.<behavior>` of `file`; false when the file does not list it. */
export async function removeRule(file: string, behavior: RuleBehavior, rule: string): Promise<boolean> {
  const settings = await readForEdit(file);
  const permissions = settings.permissions;
  if (permissions === null || typeof permissions !== 'object' || Array.isArray(permissions)) return false;
  const list = (permissions as Record<string, unknown>)[behavior];
  if (!Array.isArray(list) || !list.includes(rule)) return false;
  (permissions as Record<string, unknown>)[behavior] = list.filter((entry) => entry !== rule);
  await writeSettings(file, settings);
  return true;
}

/** Whether `file` lists `rule` under `permissions.<behavior>` (a missing or broken file lists nothing). */
export async function listsRule(file: string, behavior: RuleBehavior, rule: string): Promise<boolean> {
  const loaded = await loadSettingsFile(file);
  if (!loaded.ok) return false;
  const permissions = loaded.settings.permissions as Record<string, unknown> | undefined;
  const list = permissions && typeof permissions === 'object' ? permissions[behavior] : undefined;
  return Array.isArray(list) && list.includes(rule);
}

/** The file's settings; a missing file is empty; a broken one is an error (it is never overwritten). */
async function readForEdit(file: string): Promise<Record<string, unknown>> {
  try {
    await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  const loaded = await loadSettingsFile(file);
  if (!loaded.ok) throw new Error(`${loaded.error}; fix it before rules can be added or removed there`);
  return loaded.settings;
}

function objectAt(parent: Record<string, unknown>, key: string, file: string): Record<string, unknown> {
  const value = parent[key];
  if (value === undefined) return (parent[key] = {}) as Record<string, unknown>;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${file}: "${key}" is not an object; fix it before rules can be added there`);
  return value as Record<string, unknown>;
}

function listAt(parent: Record<string, unknown>, key: string, file: string): unknown[] {
  const value = parent[key];
  if (value === undefined) return (parent[key] = []) as unknown[];
  if (!Array.isArray(value)) throw new Error(`${file}: "permissions.${key}" is not a list; fix it before rules can be added there`);
  return value;
}

/** Written whole through a temporary file, so a crash never leaves half a settings file. */
async function writeSettings(file: string, settings: Record<string, unknown>): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}
