// Bundles the extension and the tool-exec CLI with esbuild.
// Usage: node scripts/build.mjs [--production] [--watch] [--outdir=DIR] [--metafile]
// (`--outdir` and `--metafile` are for bench/: a production bundle elsewhere, with what each input weighs.)
import * as esbuild from 'esbuild';

import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const outdir = process.argv.find((arg) => arg.startsWith('--outdir='))?.slice('--outdir='.length) ?? 'dist';
const metafile = process.argv.includes('--metafile');

// Some dependencies ship only ES modules that read `import.meta.url` (tinyglobby's fdir calls
// createRequire with it); in a CommonJS bundle esbuild leaves it undefined, so point it at the bundle.
const IMPORT_META_URL_SHIM = "var __import_meta_url = require('node:url').pathToFileURL(__filename).href;";

/**
 * WebFetch alone converts HTML, and turndown brings a whole DOM (domino, about a quarter of the
 * bundle): it goes to its own file, `dist/turndown.js`, loaded on the first conversion. In the
 * bundles `turndown` is a stand-in constructor that requires that file then, so it costs no load time.
 * @type {import('esbuild').Plugin}
 */
const lazyTurndown = {
  name: 'lazy-turndown',
  setup(build) {
    build.onResolve({ filter: /^turndown$/ }, () => ({ path: 'turndown', namespace: 'lazy-turndown' }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-turndown' }, () => ({
      loader: 'js',
      contents: [
        'let Real;',
        'module.exports = function TurndownService(options) {',
        "  Real ??= require(require('node:path').join(__dirname, 'turndown.js'));",
        '  return new Real(options);',
        '};',
      ].join('\n'),
    }));
  },
};

/**
 * The OS sandbox runtime runs in a process of its own, `dist/sandbox-host.js`
 * (src/tools/sandbox/runtime/runtimeHost.ts and the library), started only when the sandbox is on: in the other
 * bundles `./runtimeHostScript` names that file, and the library itself may not be imported.
 * @type {import('esbuild').Plugin}
 */
const sandboxInItsProcess = {
  name: 'sandbox-in-its-process',
  setup(build) {
    build.onResolve({ filter: /^@anthropic-ai\/sandbox-runtime$/ }, (args) => ({
      errors: [{ text: `${args.importer} imports the sandbox runtime, which runs only in its own process (src/tools/sandbox/runtime/runtimeProcess.ts)` }],
    }));
    build.onResolve({ filter: /^\.\/runtimeHostScript$/ }, () => ({ path: 'runtimeHostScript', namespace: 'sandbox-in-its-process' }));
    build.onLoad({ filter: /.*/, namespace: 'sandbox-in-its-process' }, () => ({
      loader: 'js',
      contents: "var path = require('node:path'); exports.SANDBOX_HOST_SCRIPT = path.join(__dirname, 'sandbox-host.js');",
    }));
  },
};

/**
 * In the sandbox runtime's process, two of the library's helpers that start a process on every command it
 * wraps are ours, which start none:
 * - its `whichSync` (dist/utils/which.js: a spawnSync of `which` for the shell) is
 *   src/tools/sandbox/runtime/which.ts, the same lookup over PATH (test/unit/tools/sandboxWhich.test.ts compares them);
 * - its `ripGrep` (dist/utils/ripgrep.js: `rg --files` over the command's folder for the protected names
 *   below it) is src/tools/sandbox/runtime/fileListing.ts, the same listing with `readdir`
 *   (test/unit/tools/sandboxFileListing.test.ts compares them).
 * @type {import('esbuild').Plugin}
 */
const noProcessPerWrap = {
  name: 'no-process-per-wrap',
  setup(build) {
    const fromLibrary = (importer) => /[\\/]@anthropic-ai[\\/]sandbox-runtime[\\/]dist[\\/]/.test(importer);
    const ours = (file) => ({ path: new URL(`../src/tools/sandbox/runtime/${file}`, import.meta.url).pathname });
    build.onResolve({ filter: /(^|\/)which\.js$/ }, (args) => (fromLibrary(args.importer) ? ours('which.ts') : undefined));
    build.onResolve({ filter: /(^|\/)ripgrep\.js$/ }, (args) => (fromLibrary(args.importer) ? ours('fileListing.ts') : undefined));
  },
};

/**
 * A stand-in for `filter`'s module that requires `dist/<file>` (built from that module by its own target
 * below) the first time the module is required: parts only some windows need stay out of
 * `dist/extension.js`, which every window loads at startup.
 * @param {string} name
 * @param {RegExp} filter what the importer asks for (`require('unbash')`, `import('./hosted')`)
 * @param {string} file
 * @param {(importer: string) => boolean} [from] only for imports from these files
 * @returns {import('esbuild').Plugin}
 */
function lazyFile(name, filter, file, from = () => true) {
  return {
    name,
    setup(build) {
      build.onResolve({ filter }, (args) => (from(args.importer) ? { path: file, namespace: name } : undefined));
      build.onLoad({ filter: /.*/, namespace: name }, () => ({
        loader: 'js',
        contents: `module.exports = require(require('node:path').join(__dirname, ${JSON.stringify(file)}));`,
      }));
    },
  };
}

/**
 * The extension's lazily loaded files:
 * - `agent-bridge.js`: the host of an agent named by `agentToolExecutor.agent.*` (src/vscode/bridge/hosted.ts:
 *   vscode-languageclient, vscode-jsonrpc, src/bridge/), loaded by `AgentBridge` once an agent is configured.
 *   Everything using vscode-jsonrpc's classes is in it, so there is one copy of them (`instanceof ResponseError`).
 * - `acp-sdk.js`: the ACP SDK, loaded by `loadAcp` when the first ACP agent starts.
 * - `unbash.js`: the bash parser, loaded by the first command split (a Bash call or a Bash rule).
 * - `endpoint-models.js`: what talks to the endpoints of the user's own models (src/vscode/models/endpointRequests.ts:
 *   a request's stream, the two commands, the wire formats of src/models/), loaded by a chat's first request to one
 *   of them or by one of the commands; the model picker lists them from the setting alone.
 */
const lazyAgentBridge = lazyFile('lazy-agent-bridge', /^\.\/hosted$/, 'agent-bridge.js', (importer) => /[\\/]src[\\/]vscode[\\/]bridge[\\/]agentBridge\.ts$/.test(importer));
const lazyAcpSdk = lazyFile('lazy-acp-sdk', /^@agentclientprotocol\/sdk$/, 'acp-sdk.js');
const lazyUnbash = lazyFile('lazy-unbash', /^unbash$/, 'unbash.js');
const lazyEndpointModels = lazyFile('lazy-endpoint-models', /^\.\/endpointRequests$/, 'endpoint-models.js', (importer) => /[\\/]src[\\/]vscode[\\/]models[\\/]provider\.ts$/.test(importer));
/**
 * The CLI's `import()` of `--tools` modules is `dist/cli-import.js` (src/cli/toolModules/importModule.ts): the launcher may
 * compile `cli-main.js` from a V8 code cache, where Node 20 has no `import()` (src/cli/launch/cliCodeCache.ts).
 */
const cliImport = lazyFile('cli-import', /^\.\/importModule$/, 'cli-import.js');

/**
 * zod (with the English messages only, below) is `dist/zod.js`, one copy for the extension, the agent bridge
 * and the ACP SDK. In their bundles `zod` (and `zod/v4`) is a stand-in whose exports are getters that
 * require that file on first use: the extension builds its tools' schemas when first needed
 * (`deferredSchema`), so zod is not loaded at startup. The getters' names are zod's, read here.
 * @type {import('esbuild').Plugin}
 */
const ZOD_EXPORTS = Object.keys(await import('zod'));
const lazyZod = {
  name: 'lazy-zod',
  setup(build) {
    build.onResolve({ filter: /^zod(?:\/v4)?$/ }, () => ({ path: 'zod', namespace: 'lazy-zod' }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-zod' }, () => ({
      loader: 'js',
      contents: [
        'let real;',
        "const load = () => (real ??= require(require('node:path').join(__dirname, 'zod.js')));",
        "Object.defineProperty(exports, '__esModule', { value: true });",
        `for (const name of ${JSON.stringify(ZOD_EXPORTS)}) Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });`,
      ].join('\n'),
    }));
  },
};

/**
 * zod's `locales` namespace re-exports the messages of every language (about 260 KB); we never call
 * `z.config(z.locales.xx())`, and zod itself imports `en` on its own, so the namespace keeps `en` only.
 * @type {import('esbuild').Plugin}
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.c?js$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)) return undefined;
      const cjs = args.path.endsWith('.cjs');
      return { path: path.join(args.resolveDir, args.path), namespace: cjs ? 'zod-locales-cjs' : 'zod-locales' };
    });
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      loader: 'js',
      resolveDir: path.dirname(args.path),
      contents: "export { default as en } from './en.js';",
    }));
    build.onLoad({ filter: /.*/, namespace: 'zod-locales-cjs' }, (args) => ({
      loader: 'js',
      resolveDir: path.dirname(args.path),
      contents: "exports.en = require('./en.cjs').default;",
    }));
  },
};

/**
 * The names a module given by `require` holds, for `importedOnce` below: `vscode`'s top-level values from its
 * type declarations (the version of the API this extension is built against), a Node built-in's from the
 * module itself. Only names that can be a binding.
 * @param {string} request
 * @returns {string[]}
 */
function moduleNames(request) {
  const names =
    request === 'vscode'
      ? [...readFileSync('node_modules/@types/vscode/index.d.ts', 'utf8').matchAll(/^\texport (?:namespace|class|enum|function|const|let) ([A-Za-z_$][\w$]*)/gm)].map((match) => match[1]).concat(NEWER_VSCODE_NAMES)
      : Object.keys(createRequire(import.meta.url)(request));
  return [...new Set(names)].filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && !RESERVED.has(name));
}
/** Values of VS Code versions newer than the typings that the glue uses where they exist (`undefined` before). */
const NEWER_VSCODE_NAMES = ['LanguageModelDataPart'];
const RESERVED = new Set(['default', 'delete', 'new', 'function', 'class', 'enum', 'export', 'import', 'in', 'instanceof', 'typeof', 'void', 'with', 'yield', 'await', 'let', 'static', 'var', 'const']);

/**
 * `import * as vscode from 'vscode'` in a CommonJS bundle becomes, in each file with it, a copy of the whole
 * module object (`__toESM`: a getter per name): for `vscode` (~400 names, 29 files), the zod stand-in (260
 * names, 10 files) and `node:path` & co. that was a tenth of loading the extension. Here our files import
 * one module of the bundle per such module. For `vscode` and Node's built-ins that module reads each name
 * once, in a pure expression, so esbuild keeps only the names our code uses and makes each a plain variable:
 * no object is copied at load, and a use is a variable, not a getter (`export *` of them copied hundreds of
 * getters at load; docs/MEASUREMENTS.md, "Bundle").
 * The name is read when the bundle loads: these modules' top-level values (namespaces, classes, functions)
 * do not change. zod's stand-in is re-exported as it is (`export *`): reading its names would load zod.
 * Named and namespace imports, and a built-in's default (the module: `import Module from 'node:module'`).
 * @type {import('esbuild').Plugin}
 */
const importedOnce = {
  name: 'imported-once',
  setup(build) {
    const fromSrc = (importer) => /[\\/]src[\\/]/.test(importer);
    build.onResolve({ filter: /^(?:vscode|zod|node:[\w/]+)$/ }, (args) =>
      args.namespace === 'imported-once' || !fromSrc(args.importer) ? undefined : { path: args.path, namespace: 'imported-once' },
    );
    build.onLoad({ filter: /.*/, namespace: 'imported-once' }, (args) => {
      const request = JSON.stringify(args.path);
      if (args.path === 'zod') return { loader: 'js', resolveDir: process.cwd(), contents: `export * from ${request};` };
      const reads = moduleNames(args.path).map((name) => `export const ${name} = /* @__PURE__ */ (() => m.${name})();`);
      // A built-in's default export is the module itself (`import Module from 'node:module'`).
      const whole = args.path === 'vscode' ? [] : ['export default m;'];
      return { loader: 'js', resolveDir: process.cwd(), contents: [`const m = require(${request});`, ...reads, ...whole].join('\n') };
    });
  },
};

/**
 * The extension's core on first use, to keep load + activate in the extension host short. `extension-main.js`
 * holds the VS Code glue (src/vscode/, src/extension.ts); everything it imports from elsewhere (the executor, the
 * tools, the Node adapters, ACP, their packages) is `dist/extension-core.js`, loaded the first time the glue
 * reads one of those imports, not when the extension activates (src/vscode/coreModules.ts).
 * - In `extension-main.js` each such module is a stand-in: its export names (read here, from a bundle of the
 *   module itself) are getters into the module in the core, so a class or function keeps one identity
 *   (`instanceof CancellationError` holds on both sides) and each module has one copy.
 *   The getters are on the stand-in's prototype: esbuild gives each file that imports a CommonJS module a copy of
 *   its own properties (`__toESM`, a getter per name) and keeps the prototype, so an import copies no name
 *   (docs/MEASUREMENTS.md, "Bundle").
 * - `extension-core.js` is built once the glue's build has said which modules it imports: its entry maps each
 *   module's id (its path from the repository root) to its namespace.
 * Modules both sides may hold (`SHARED`), stateless and without classes, so that two copies change nothing: the
 * loader's own, which cannot load the core through the core (the code cache; the thread's CPU clock, which
 * activate() reads too), the artifacts' URI scheme, which activation registers a content provider for, the
 * agent's launch settings, which activation reads to know whether to start the agent bridge, and the lifecycle
 * helper, which activation's parts keep their listeners in.
 * @param {import('esbuild').BuildOptions} coreOptions how to build the core (the glue's options, less this plugin)
 * @returns {import('esbuild').Plugin}
 */
function coreOnFirstUse(coreOptions) {
  const LOADER = path.resolve('src/vscode/coreModules.ts');
  const SHARED = new Set(['src/node/runtime/codeCache.ts', 'src/node/runtime/threadCpu.ts', 'src/executor/results/artifactLayout.ts', 'src/bridge/launch.ts', 'src/common/lifecycle.ts'].map((file) => path.resolve(file)));
  const glue = (file) => /[\\/]src[\\/](?:vscode[\\/]|extension\.ts$)/.test(file);
  const idOf = (file) => path.relative(process.cwd(), file).split(path.sep).join('/');
  /**
   * id → absolute path, of every module the glue imports from the core. Never emptied: in watch mode a rebuild
   * may resolve only what changed, and a module the glue stopped importing costs the core nothing but its size.
   * @type {Map<string, string>}
   */
  const modules = new Map();
  /** A core module's export names, and the files of its import graph, which watch mode watches for the core. @type {Map<string, Promise<{ exported: string[], watchFiles: string[] }>>} */
  const names = new Map();
  const exportNames = (file) => {
    let pending = names.get(file);
    if (!pending) {
      pending = esbuild
        .build({ entryPoints: [file], bundle: true, write: false, format: 'esm', platform: 'node', packages: 'external', metafile: true, logLevel: 'silent' })
        .then((result) => ({
          exported: Object.values(result.metafile.outputs).flatMap((output) => output.exports),
          watchFiles: Object.keys(result.metafile.inputs).map((input) => path.resolve(input)),
        }));
      names.set(file, pending);
    }
    return pending;
  };
  return {
    name: 'core-on-first-use',
    setup(build) {
      // A module's exports may have changed since the last build (watch mode): read them again.
      build.onStart(() => names.clear());
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.coreOnFirstUse || args.namespace !== 'file' || !glue(args.importer) || args.importer === LOADER) return undefined;
        if (args.path === 'vscode' || args.path.startsWith('node:')) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { coreOnFirstUse: true } });
        if (resolved.errors.length > 0 || resolved.namespace !== 'file' || resolved.external || glue(resolved.path) || SHARED.has(resolved.path)) return resolved.errors.length > 0 ? { errors: resolved.errors } : resolved;
        const id = idOf(resolved.path);
        modules.set(id, resolved.path);
        return { path: id, namespace: 'core-module', pluginData: { file: resolved.path } };
      });
      build.onLoad({ filter: /.*/, namespace: 'core-module' }, async (args) => {
        const { exported, watchFiles } = await exportNames(args.pluginData.file);
        return {
          loader: 'js',
          watchFiles,
          resolveDir: process.cwd(),
          contents: [
            `const { coreModule } = require(${JSON.stringify(LOADER)});`,
            'const names = {};',
            `for (const name of ${JSON.stringify(exported)}) Object.defineProperty(names, name, { enumerable: true, get: () => coreModule(${JSON.stringify(args.path)})[name] });`,
            "module.exports = Object.create(names, { __esModule: { value: true } });",
          ].join('\n'),
        };
      });
      build.onEnd(async (result) => {
        if (result.errors.length > 0) return;
        const entries = [...modules].sort(([a], [b]) => a.localeCompare(b));
        const contents = [
          ...entries.map(([, file], index) => `import * as m${index} from ${JSON.stringify(file)};`),
          `export const modules = { ${entries.map(([id], index) => `${JSON.stringify(id)}: m${index}`).join(', ')} };`,
        ].join('\n');
        const core = await esbuild.build({ ...coreOptions, stdin: { contents, resolveDir: process.cwd(), sourcefile: 'extension-core-entry.js', loader: 'js' } });
        if (metafile) writeFileSync(`${coreOptions.outfile}.meta.json`, JSON.stringify(core.metafile));
      });
    },
  };
}

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
  metafile,
  plugins: [lazyTurndown, zodEnglishOnly, sandboxInItsProcess],
};

const targets = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    // The extension proper, which the launcher below loads (with a V8 code cache where it can); its core
    // (`extension-core.js`) is loaded on first use.
    outfile: `${outdir}/extension-main.js`,
    external: ['vscode'],
    plugins: [
      coreOnFirstUse({ ...common, outfile: `${outdir}/extension-core.js`, external: ['vscode'], plugins: [importedOnce, ...common.plugins, lazyZod, lazyAcpSdk, lazyUnbash] }),
      importedOnce,
      ...common.plugins,
      lazyZod,
      lazyAgentBridge,
      lazyAcpSdk,
      lazyUnbash,
      lazyEndpointModels,
    ],
  },
  // The extension's `main` (package.json): a few KB that start `extension-main.js` (src/extensionLauncher.ts).
  { ...common, plugins: [], banner: {}, define: {}, entryPoints: ['src/extensionLauncher.ts'], outfile: `${outdir}/extension.js` },
  // What the extension's stand-ins above load (the CLI bundles these parts itself).
  { ...common, entryPoints: ['src/vscode/bridge/hosted.ts'], outfile: `${outdir}/agent-bridge.js`, external: ['vscode'], plugins: [importedOnce, ...common.plugins, lazyZod] },
  { ...common, entryPoints: ['@agentclientprotocol/sdk'], outfile: `${outdir}/acp-sdk.js`, plugins: [...common.plugins, lazyZod] },
  { ...common, entryPoints: ['src/vscode/models/endpointRequests.ts'], outfile: `${outdir}/endpoint-models.js`, external: ['vscode'], plugins: [importedOnce, ...common.plugins] },
  { ...common, entryPoints: ['zod'], outfile: `${outdir}/zod.js` },
  { ...common, entryPoints: ['unbash'], outfile: `${outdir}/unbash.js` },
  // What the stand-in above loads: turndown and its DOM, for both bundles (they sit side by side).
  { ...common, plugins: [], entryPoints: ['turndown'], outfile: `${outdir}/turndown.js` },
  // The sandbox runtime's process; the library finds its seccomp helper in `vendor/seccomp/<arch>` beside it.
  { ...common, plugins: [noProcessPerWrap], entryPoints: ['src/tools/sandbox/runtime/runtimeHost.ts'], outfile: `${outdir}/sandbox-host.js` },
  // The CLI proper, which the launcher below loads (with a V8 code cache where it can).
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: `${outdir}/cli-main.js`,
    define: { ...common.define, TOOL_EXEC_VERSION: JSON.stringify(version) },
    plugins: [...common.plugins, cliImport],
  },
  // Keep `import()` of --tools modules a real dynamic import (ES modules), not a require.
  { ...common, plugins: [], banner: {}, define: {}, entryPoints: ['src/cli/toolModules/importModule.ts'], outfile: `${outdir}/cli-import.js`, supported: { 'dynamic-import': true } },
  // `tool-exec` (package.json `bin`): a few KB that start `cli-main.js` (src/cli/launch/cliCodeCache.ts).
  { ...common, plugins: [], banner: { js: '#!/usr/bin/env node' }, define: {}, entryPoints: ['src/cli/launch/launcher.ts'], outfile: `${outdir}/cli.js` },
];

cpSync('node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp', `${outdir}/vendor/seccomp`, { recursive: true, filter: (source) => !source.endsWith('.ts') });
// The JVM agent that points Java's networking at the runtime's proxy (JAVA_TOOL_OPTIONS in the sandbox). Without
// it beside sandbox-host.js the runtime ran `npm root -g` to look for it as it started and gave Java
// tools no proxy.
cpSync('node_modules/@anthropic-ai/sandbox-runtime/vendor/java-proxy-agent/srt-proxy-agent.jar', `${outdir}/vendor/java-proxy-agent/srt-proxy-agent.jar`);

if (watch) {
  // `[watch] build started` / `[watch] build finished` around each round of rebuilds, and errors as
  // `✘ [ERROR] text` over `    file:line:column:`: the background problem matcher of .vscode/tasks.json,
  // which lets F5 launch only once the first build is done.
  let building = targets.length;
  /** This round's errors, once each; a nested build's summary ("Build failed with…") only when nothing else is. */
  let errors = new Map();
  console.log('[watch] build started');
  const watchReport = () => {
    let first = true;
    return {
      name: 'watch-report',
      setup(build) {
        build.onStart(() => {
          if (first) first = false;
          else if (building++ === 0) console.log('[watch] build started');
        });
        build.onEnd((result) => {
          for (const { text, location } of result.errors) {
            const where = location ? `\n    ${location.file}:${location.line}:${location.column}:` : '';
            errors.set(`✘ [ERROR] ${text.split('\n')[0]}${where}`, text.startsWith('Build failed with'));
          }
          if (--building > 0) return;
          const own = [...errors].filter(([, summary]) => !summary);
          for (const [line] of own.length > 0 ? own : [...errors]) console.error(line);
          errors = new Map();
          console.log('[watch] build finished');
        });
      },
    };
  };
  for (const options of targets) {
    const ctx = await esbuild.context({ ...options, logLevel: 'silent', plugins: [...(options.plugins ?? []), watchReport()] });
    await ctx.watch();
  }
} else {
  const results = await Promise.all(targets.map((options) => esbuild.build(options)));
  if (metafile) {
    results.forEach((result, index) => writeFileSync(`${targets[index].outfile}.meta.json`, JSON.stringify(result.metafile)));
  }
}
