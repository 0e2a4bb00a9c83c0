// RELIABILITY.md's generated sections: each lives between `<!-- NAME:start -->` and `<!-- NAME:end -->`.
// Tests either check a section against what the suite produces, or (UPDATE_RELIABILITY=1) rewrite it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './harness';

export const RELIABILITY_FILE = path.join(ROOT, 'RELIABILITY.md');
/** Set to rewrite the generated sections instead of checking them. */
export const UPDATING = process.env.UPDATE_RELIABILITY === '1';

/** The current text of a section, or undefined when the markers are missing. */
export function readSection(name: string): string | undefined {
  const text = fs.readFileSync(RELIABILITY_FILE, 'utf8');
  const start = text.indexOf(`<!-- ${name}:start -->\n`);
  const end = text.indexOf(`<!-- ${name}:end -->`);
  if (start < 0 || end < start) return undefined;
  return text.slice(start + `<!-- ${name}:start -->\n`.length, end).replace(/\n$/, '');
}

/** Replaces a section's body (the markers must exist). */
export function writeSection(name: string, body: string): void {
  const text = fs.readFileSync(RELIABILITY_FILE, 'utf8');
  const start = text.indexOf(`<!-- ${name}:start -->\n`);
  const end = text.indexOf(`<!-- ${name}:end -->`);
  if (start < 0 || end < start) throw new Error(`RELIABILITY.md has no ${name} section markers`);
  fs.writeFileSync(RELIABILITY_FILE, `${text.slice(0, start + `<!-- ${name}:start -->\n`.length)}${body}\n${text.slice(end)}`);
}
