// Bundles the extension and the tool-exec CLI with esbuild.
// Usage: node scripts/build.mjs [--production] [--watch]
import * as esbuild from 'esbuild';

import { readFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

// Some dependencies ship only ES modules that read `import.meta.url` (tinyglobby's fdir calls
// createRequire with it); in a CommonJS bundle esbuild leaves it undefined, so point it at the bundle.
const IMPORT_META_URL_SHIM = "var __import_meta_url = require('node:url').pathToFileURL(__filename).href;";

/** @type {import('esbuild').BuildOptions} */
const common = {
  banner: { js: IMPORT_META_URL_SHIM },
  define: { 'import.meta.url': '__import_meta_url' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
};

const targets = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    banner: { js: `#!/usr/bin/env node\n${IMPORT_META_URL_SHIM}` },
    define: { ...common.define, TOOL_EXEC_VERSION: JSON.stringify(version) },
    // Keep `import()` of --tools modules a real dynamic import (ES modules), not a require.
    supported: { 'dynamic-import': true },
  },
];

if (watch) {
  for (const options of targets) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  }
} else {
  await Promise.all(targets.map((options) => esbuild.build(options)));
}
