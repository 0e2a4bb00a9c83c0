// The production build (scripts/build.mjs): what stays out of dist/extension-main.js (which every window
// loads at startup, through its launcher dist/extension.js) goes to files of its own that are loaded on
// first use, shipped, and not loaded by activate().
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';

/** The repository root, from out/test/unit/scripts. */
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

interface Metafile {
  readonly outputs: Record<string, { readonly inputs: Record<string, unknown> }>;
}

/** The files the extension loads lazily, and what only they may contain. */
const LAZY: Record<string, RegExp[]> = {
  'agent-bridge.js': [/node_modules\/vscode-languageclient\//, /node_modules\/vscode-jsonrpc\//, /^src\/bridge\/service\.ts$/],
  'acp-sdk.js': [/node_modules\/@agentclientprotocol\/sdk\//],
  'unbash.js': [/node_modules\/unbash\//],
  'zod.js': [/node_modules\/zod\//],
  'endpoint-models.js': [/^src\/models\/client\.ts$/, /^src\/vscode\/models\/endpointRequests\.ts$/, /^src\/vscode\/models\/commands\.ts$/],
};

describe('production bundles', () => {
  let outdir: string;
  let inputs: (file: string) => string[];

  before(() => {
    outdir = fs.mkdtempSync(path.join(tmpdir(), 'ate-bundle-'));
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), '--production', '--metafile', `--outdir=${outdir}`], { cwd: ROOT, stdio: 'pipe' });
    inputs = (file) => {
      const meta = JSON.parse(fs.readFileSync(path.join(outdir, `${file}.meta.json`), 'utf8')) as Metafile;
      const output = Object.entries(meta.outputs).find(([name]) => path.resolve(ROOT, name) === path.join(outdir, file));
      assert.ok(output, `${file} is in its metafile`);
      return Object.keys(output[1].inputs);
    };
  });

  after(() => fs.rmSync(outdir, { recursive: true, force: true }));

  it("extension-main.js leaves the agent bridge, the ACP SDK, unbash, zod and what talks to the user's own models' endpoints to their own files", () => {
    const main = inputs('extension-main.js');
    for (const [file, patterns] of Object.entries(LAZY)) {
      assert.ok(fs.existsSync(path.join(outdir, file)), `${file} is built`);
      const lazy = inputs(file);
      for (const pattern of patterns) {
        assert.deepEqual(main.filter((input) => pattern.test(input)), [], `${pattern} is not in extension-main.js`);
        assert.ok(lazy.some((input) => pattern.test(input)), `${pattern} is in ${file}`);
      }
    }
  });

  it("the wire formats of the user's own models (src/models/) are in endpoint-models.js alone, loaded on a chat request to one, not at activation nor with the core", () => {
    const own = /^src\/models\//;
    const files = fs.readdirSync(outdir).filter((name) => /^(?:extension|endpoint|agent|acp)[\w-]*\.js$/.test(name));
    assert.deepEqual(files.filter((file) => inputs(file).some((input) => own.test(input))), ['endpoint-models.js']);
    // Beside it, endpoint-models.js holds only its own glue and the setting's names, which have no class or state.
    const glue = inputs('endpoint-models.js').filter((input) => input.startsWith('src/') && !own.test(input));
    assert.deepEqual(glue.sort(), ['src/vscode/models/commands.ts', 'src/vscode/models/endpointRequests.ts', 'src/vscode/models/modelSettings.ts']);
    assert.doesNotMatch(fs.readFileSync(path.join(ROOT, 'src/vscode/models/modelSettings.ts'), 'utf8'), /^(?:export )?(?:abstract )?class |^(?:export )?(?:let|var) /m);
  });

  it('vscode-jsonrpc and zod each have one copy among the files the extension loads', () => {
    const files = ['extension.js', 'extension-main.js', 'extension-core.js', ...Object.keys(LAZY)];
    for (const [pattern, only] of [[/node_modules\/vscode-jsonrpc\//, 'agent-bridge.js'], [/node_modules\/zod\//, 'zod.js']] as const) {
      assert.deepEqual(files.filter((file) => inputs(file).some((input) => pattern.test(input))), [only], `${pattern} only in ${only}`);
    }
  });

  it('only sandbox-host.js holds the sandbox runtime, with our `which` and file listing instead of its processes', () => {
    const files = fs.readdirSync(outdir).filter((name) => name.endsWith('.js') && fs.existsSync(path.join(outdir, `${name}.meta.json`)));
    const library = /node_modules\/@anthropic-ai\/sandbox-runtime\//;
    assert.deepEqual(files.filter((file) => inputs(file).some((input) => library.test(input))), ['sandbox-host.js']);
    const host = inputs('sandbox-host.js');
    assert.ok(host.includes('src/tools/sandbox/runtime/which.ts'), 'scripts/build.mjs noProcessPerWrap');
    assert.ok(host.includes('src/tools/sandbox/runtime/fileListing.ts'), 'scripts/build.mjs noProcessPerWrap');
    assert.deepEqual(host.filter((input) => input.endsWith('/utils/which.js') || input.endsWith('/utils/ripgrep.js')), [], "the library's own whichSync and ripGrep are not bundled");
  });

  it('every bundle is ASCII, so V8 keeps its source (held for as long as the code runs) at one byte per char', () => {
    // A single char above U+007F (esbuild keeps them in regex literals) makes the whole source a two-byte string:
    // twice the memory, for the CLI about 0.6 MiB more in each copy of its source while it loads.
    for (const file of fs.readdirSync(outdir).filter((name) => name.endsWith('.js'))) {
      const text = fs.readFileSync(path.join(outdir, file), 'latin1');
      const at = text.search(/[^\x00-\x7f]/);
      assert.equal(at, -1, `${file} has a char above U+007F at ${at}: …${text.slice(Math.max(0, at - 60), at + 20)}…`);
    }
  });

  it('every file the build writes is shipped in the .vsix', () => {
    // `vsce ls` on a copy of the package with this build as its dist/: what `vsce package` would put in.
    const pkg = fs.mkdtempSync(path.join(tmpdir(), 'ate-vsix-'));
    try {
      for (const name of ['package.json', '.vscodeignore', 'README.md', 'LICENSE', 'CHANGELOG.md', 'CONTRIBUTING.md', '.vscode', 'media']) fs.cpSync(path.join(ROOT, name), path.join(pkg, name), { recursive: true });
      fs.cpSync(outdir, path.join(pkg, 'dist'), { recursive: true });
      const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
      const listed = new Set(execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: pkg, encoding: 'utf8' }).split('\n').map((line) => line.trim()));
      const built = fs.readdirSync(outdir).filter((name) => name.endsWith('.js'));
      assert.ok(built.length >= 8, `built: ${built.join(', ')}`);
      for (const name of built) assert.ok(listed.has(`dist/${name}`), `the .vsix ships dist/${name}`);
      // What the sandbox runtime finds beside sandbox-host.js: its seccomp helper and its JVM proxy agent.
      const vendor = (fs.readdirSync(path.join(outdir, 'vendor'), { recursive: true }) as string[]).filter((name) => fs.statSync(path.join(outdir, 'vendor', name)).isFile());
      assert.ok(vendor.some((name) => name.endsWith('srt-proxy-agent.jar')) && vendor.some((name) => name.endsWith('apply-seccomp')), `vendor: ${vendor.join(', ')}`);
      for (const name of vendor) assert.ok(listed.has(`dist/vendor/${name.split(path.sep).join('/')}`), `the .vsix ships dist/vendor/${name}`);
      // The Changelog tab of the extension's page is the shipped CHANGELOG.md; the editor setup for working on
      // the extension (.vscode/) and the contributor's guide stay out.
      assert.ok(listed.has('CHANGELOG.md'), 'the .vsix ships CHANGELOG.md');
      assert.deepEqual([...listed].filter((name) => name.startsWith('.vscode/') || name === 'CONTRIBUTING.md'), []);
    } finally {
      fs.rmSync(pkg, { recursive: true, force: true });
    }
  });

  it("cli.js is the launcher of cli-main.js, whose only import() is cli-import.js's", () => {
    // The launcher (package.json `bin`) bundles nothing but itself, the code cache and the young-generation
    // cap; the CLI proper is cli-main.js.
    const launcher = fs.readFileSync(path.join(outdir, 'cli.js'), 'utf8');
    assert.ok(launcher.startsWith('#!/usr/bin/env node\n'));
    assert.deepEqual(inputs('cli.js').filter((input) => !input.startsWith('src/cli/') && input !== 'src/node/runtime/codeCache.ts' && input !== 'src/node/runtime/youngGeneration.ts'), []);
    // cli-main.js may be compiled from a V8 code cache by vm.Script, where Node 20 has no import()
    // (src/node/runtime/codeCache.ts): a dynamic import in it would fail from the second run on.
    assert.doesNotMatch(fs.readFileSync(path.join(outdir, 'cli-main.js'), 'utf8'), /(?<![\w$.])import\(/);
    assert.match(fs.readFileSync(path.join(outdir, 'cli-import.js'), 'utf8'), /(?<![\w$.])import\(/);
  });

  it('extension.js is the launcher of extension-main.js, which has no import()', () => {
    // The manifest's `main` bundles nothing but itself and the code cache; extension-main.js may be
    // compiled from a V8 code cache, where Node 20 has no import().
    assert.deepEqual(inputs('extension.js').sort(), ['src/extensionLauncher.ts', 'src/node/runtime/codeCache.ts', 'src/node/runtime/threadCpu.ts']);
    assert.doesNotMatch(fs.readFileSync(path.join(outdir, 'extension-main.js'), 'utf8'), /(?<![\w$.])import\(/);
  });

  it('extension-main.js and extension-core.js take each name they use from `vscode` and Node built-ins as a variable, copying no module object', () => {
    // scripts/build.mjs `importedOnce`: `var m=require("vscode");var Uri=m.Uri,…`, not esbuild's copy of the
    // whole module (a getter per name) in each file that imports it. Besides those, only the loads of the lazy files.
    for (const file of ['extension-main.js', 'extension-core.js']) {
      const text = fs.readFileSync(path.join(outdir, file), 'utf8');
      const requires = [...text.matchAll(/(.{0,9})require\("(vscode|node:[\w/]+)"\)(.{0,16})/g)];
      for (const [whole, before, request, after] of requires) {
        const lazyLoad = request === 'node:path' && before!.endsWith('require(') && after!.startsWith('.join(__dirname');
        assert.ok(lazyLoad || (/[\w$]=$/.test(before!) && /^[;,]/.test(after!)), `${file}: ${request} is required as a plain variable: …${whole}…`);
      }
      // The core is the executor and its tools: no `vscode` (src/executor never imports it, nor do the tools).
      assert.equal(requires.filter((match) => match[2] === 'vscode').length, file === 'extension-main.js' ? 1 : 0, `${file}: vscode is required ${file === 'extension-main.js' ? 'once' : 'nowhere'}`);
    }
  });

  it('extension-main.js is the VS Code glue and extension-core.js the rest, with one copy of each module but a few stateless ones', () => {
    // scripts/build.mjs `coreOnFirstUse`: what the glue imports from the executor, the tools and the adapters is a
    // stand-in that reads it from the core, so a class has one identity (`instanceof`) and a module one state.
    const glue = (input: string) => input === 'src/extension.ts' || input.startsWith('src/vscode/');
    const main = inputs('extension-main.js').filter((input) => input.startsWith('src/') || input.startsWith('node_modules/'));
    const core = inputs('extension-core.js').filter((input) => input.startsWith('src/') || input.startsWith('node_modules/'));
    assert.ok(main.includes('src/extension.ts') && main.includes('src/vscode/coreModules.ts'), 'the glue is in extension-main.js');
    assert.ok(core.includes('src/executor/executor.ts') && core.includes('src/tools/index.ts'), 'the executor and the tools are in extension-core.js');
    assert.ok(core.includes('src/node/checkpoints/checkpointStore.ts') && core.includes('src/node/checkpoints/undo.ts'), 'the checkpoint store and undo are in extension-core.js');
    assert.deepEqual(core.filter(glue), [], 'no glue in extension-core.js');
    const shared = main.filter((input) => !glue(input));
    assert.deepEqual(shared.sort(), ['src/bridge/launch.ts', 'src/common/lifecycle.ts', 'src/executor/results/artifactLayout.ts', 'src/node/runtime/codeCache.ts', 'src/node/runtime/threadCpu.ts']);
    for (const input of shared) {
      // Two copies of such a module are as good as one: no class (an identity), no module-level variable (a state).
      const source = fs.readFileSync(path.join(ROOT, input), 'utf8');
      assert.doesNotMatch(source, /^(?:export )?(?:abstract )?class |^(?:export )?(?:let|var) /m, `${input} is stateless and has no class`);
    }
  });

  /** bench/child/activate.js on this build's extension.js (plain Node, a stub `vscode`): its output, and the build's files it loaded. */
  const activateChild = (...args: string[]): { stdout: string; loaded: string[] } => {
    const child = path.join(ROOT, 'out', 'bench', 'child', 'activate.js');
    const preload = path.join(outdir, 'report-loaded.js');
    fs.writeFileSync(
      preload,
      `process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(Object.keys(require.cache).filter((file) => file.startsWith(${JSON.stringify(outdir + path.sep)})).map((file) => file.slice(${outdir.length + 1}))) + '\\n'));`,
    );
    const run = spawnSync(process.execPath, ['--require', preload, child, path.join(outdir, 'extension.js'), ...args], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const line = run.stderr.split('\n').find((text) => text.startsWith('LOADED '));
    assert.ok(line, run.stderr);
    const loaded = (JSON.parse(line.slice('LOADED '.length)) as string[]).filter((file) => file !== 'report-loaded.js');
    return { stdout: run.stdout, loaded: loaded.sort() };
  };

  it('loading and activating extension.js loads none of the lazy files, extension-core.js included', () => {
    // The bench's loader: extension.js in plain Node with a stub `vscode` module, settings unset.
    assert.deepEqual(activateChild().loaded, ['extension-main.js', 'extension.js']);
  });

  it("loading extension-main.js defines each core module's names once, however many of the glue's files import it", () => {
    // scripts/build.mjs `coreOnFirstUse`: the stand-in's getters are on its prototype, which esbuild's import of a
    // CommonJS module keeps, rather than own properties, which it copies into each importing file's namespace.
    const counter = path.join(outdir, 'count-getters.js');
    fs.writeFileSync(
      counter,
      [
        'const define = Object.defineProperty; const counts = {};',
        'Object.defineProperty = function (target, key, descriptor) { if (descriptor && descriptor.get) counts[key] = (counts[key] || 0) + 1; return define.call(this, target, key, descriptor); };',
        "process.on('exit', () => process.stderr.write('GETTERS ' + JSON.stringify(counts) + '\\n'));",
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, ['--require', counter, path.join(ROOT, 'out', 'bench', 'child', 'activate.js'), path.join(outdir, 'extension.js')], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const line = run.stderr.split('\n').find((text) => text.startsWith('GETTERS '));
    assert.ok(line, run.stderr);
    const counts = JSON.parse(line.slice('GETTERS '.length)) as Record<string, number>;
    // Names of src/executor/index.ts (imported by most of the glue) and of src/node/checkpoints/.
    for (const name of ['ToolExecutor', 'CancellationError', 'AGENT_IGNORE_FILES', 'CheckpointStore']) assert.equal(counts[name], 1, `${name} is defined ${counts[name]} times`);
  });

  it('the first use of the executor loads extension-core.js, and its tools are there', () => {
    const { stdout, loaded } = activateChild('--first-use');
    assert.deepEqual(loaded, ['extension-core.js', 'extension-main.js', 'extension.js']);
    const { tools } = JSON.parse(stdout) as { tools: number };
    assert.ok(tools >= 8, `${tools} tools registered`);
  });
});
