// Loads a settings file shaped like Claude Code's `settings.json` (`tool-exec --settings FILE`).
import { readFile } from 'node:fs/promises';

export type SettingsFileLoad =
  | { readonly ok: true; readonly path: string; readonly settings: Record<string, unknown> }
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
    return { ok: false, path, error: `settings file ${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, path, error: `settings file ${path} must hold a JSON object` };
  }
  return { ok: true, path, settings: value as Record<string, unknown> };
}
