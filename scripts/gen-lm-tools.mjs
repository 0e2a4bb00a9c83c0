// Writes `contributes.languageModelTools` of package.json from the built-in tools' registry
// descriptors (src/vscode/lmTools/declarations.ts), so the schemas VS Code shows other agents are the
// ones the executor validates with. Run after `npx tsc -p .`:
//   npx tsc -p . && node scripts/gen-lm-tools.mjs          (writes package.json)
//   node scripts/gen-lm-tools.mjs --check                   (exit 1 when package.json differs)
// test/unit/vscode/lmToolsDeclarations.test.ts fails when they differ and prints the command.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { builtinToolDeclarations } = require('../out/src/vscode/lmTools/declarations.js');
const manifestUrl = new URL('../package.json', import.meta.url);

const text = readFileSync(manifestUrl, 'utf8');
const manifest = JSON.parse(text);
manifest.contributes.languageModelTools = builtinToolDeclarations();
const next = `${JSON.stringify(manifest, null, 2)}\n`;
if (process.argv.includes('--check')) {
  if (next !== text) {
    process.stderr.write('package.json: contributes.languageModelTools differs from the tools; run: npx tsc -p . && node scripts/gen-lm-tools.mjs\n');
    process.exit(1);
  }
} else if (next !== text) {
  writeFileSync(manifestUrl, next);
  process.stdout.write(`package.json: ${manifest.contributes.languageModelTools.length} language model tools written\n`);
}
