// Writes what is made from the built-in tools' definitions, so a new tool needs only its file, its test
// and its line in src/tools/index.ts:
//   - `contributes.languageModelTools` of package.json, from the registry's descriptors
//     (src/vscode/lmTools/declarations.ts), so the schemas VS Code shows other agents are the ones the
//     executor validates with;
//   - README.md's table of the built-in tools and docs/PROTOCOL.md's sample tool list (src/tools/toolDocs.ts).
// Run after `npx tsc -p .`:
//   npx tsc -p . && node scripts/gen-lm-tools.mjs          (writes the files)
//   node scripts/gen-lm-tools.mjs --check                   (exit 1 when one differs)
// test/unit/vscode/lmToolsDeclarations.test.ts and test/unit/tools/readme.test.ts fail when they differ
// and print the command.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { builtinToolDeclarations } = require('../out/src/vscode/lmTools/declarations.js');
const { withToolList, withToolTable } = require('../out/src/tools/toolDocs.js');
const check = process.argv.includes('--check');

/** Each file, and how to make it anew from its current text. */
const FILES = [
  {
    url: new URL('../package.json', import.meta.url),
    what: 'contributes.languageModelTools',
    make(text) {
      const manifest = JSON.parse(text);
      manifest.contributes.languageModelTools = builtinToolDeclarations();
      return `${JSON.stringify(manifest, null, 2)}\n`;
    },
  },
  { url: new URL('../README.md', import.meta.url), what: 'the built-in tools table', make: (text) => withToolTable(text) },
  { url: new URL('../docs/PROTOCOL.md', import.meta.url), what: 'the sample tool list', make: (text) => withToolList(text) },
];

let differs = false;
for (const file of FILES) {
  const text = readFileSync(file.url, 'utf8');
  const next = file.make(text);
  if (next === text) continue;
  const name = file.url.pathname.split('/').slice(-2).join('/');
  if (check) {
    process.stderr.write(`${name}: ${file.what} differs from the tools; run: npx tsc -p . && node scripts/gen-lm-tools.mjs\n`);
    differs = true;
  } else {
    writeFileSync(file.url, next);
    process.stdout.write(`${name}: ${file.what} written\n`);
  }
}
if (differs) process.exit(1);
