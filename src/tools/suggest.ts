// Messages that tell the model what to do next when a path does not exist.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/** Similar names offered when a file is missing. */
export const MAX_PATH_SUGGESTIONS = 3;

/** `File does not exist: X.` plus similar names in the same folder, or the nearest folder that exists. */
export async function fileNotFoundMessage(file: string, workDir: string): Promise<string> {
  const dir = path.dirname(file);
  let entries: string[];
  try {
    entries = await fs.readdir(dir);
  } catch {
    return `File does not exist: ${file} (its folder ${dir} does not exist either). The workspace folder is ${workDir}.`;
  }
  const base = path.basename(file).toLowerCase();
  const stem = stemOf(base);
  const similar = entries
    .filter((name) => {
      const lower = name.toLowerCase();
      return lower === base || stemOf(lower) === stem || lower.startsWith(stem) || (stem.length > 2 && lower.includes(stem));
    })
    .slice(0, MAX_PATH_SUGGESTIONS)
    .map((name) => path.join(dir, name));
  const hint = similar.length > 0 ? ` Did you mean ${similar.join(', ')}?` : '';
  return `File does not exist: ${file}.${hint} The workspace folder is ${workDir}.`;
}

function stemOf(name: string): string {
  const ext = path.extname(name);
  return ext ? name.slice(0, -ext.length) : name;
}
