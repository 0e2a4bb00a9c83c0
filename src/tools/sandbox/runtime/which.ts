// `whichSync` for the sandbox runtime's bundle (scripts/build.mjs `noProcessPerWrap`): the library's own
// runs `which` with spawnSync for the shell on every command it wraps (and for bubblewrap, socat and
// ripgrep as it starts), a fork each; the same lookup over PATH here runs nothing (docs/MEASUREMENTS.md,
// "Sandbox runtime").
import * as path from 'node:path';
import { isExecutable } from '../../search/ripgrep';

/**
 * What `which bin` prints: `bin` itself when it holds a `/` and is an executable file, else the first
 * executable file named `bin` in a PATH folder; null when none is.
 * The library's signature (dist/utils/which.js).
 */
export function whichSync(bin: string): string | null {
  if (bin === '') return null;
  if (bin.includes('/')) return isExecutable(bin) ? bin : null;
  const entries = process.env.PATH ?? '';
  // An empty PATH has no folders; an empty entry in one (`:/bin`, `/bin::/usr/bin`, `/bin:`) is `.`.
  for (const folder of entries === '' ? [] : entries.split(path.delimiter)) {
    // Spelled as `which` spells it: the folder as PATH has it, then a slash and the name.
    const candidate = `${folder === '' ? '.' : folder}/${bin}`;
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}
