// Lint that keeps the layers: what each layer of src may import, and a small base of correctness rules.
// `npm run lint` runs it, then the cycle check (.dependency-cruiser.cjs); a stage of `npm test`.
// test/unit/scripts/lintRules.test.ts breaks each layer rule on a snippet and checks that it is reported.
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** Node's modules that reach the file system, processes, the network or other threads: the core asks its ports. */
const NODE_IO_MODULES = [
  'fs', 'fs/promises', 'child_process', 'net', 'http', 'https', 'http2', 'tls', 'dgram', 'dns', 'dns/promises',
  'worker_threads', 'cluster', 'readline', 'readline/promises', 'inspector', 'module', 'v8', 'vm', 'repl',
].flatMap((name) => [name, `node:${name}`]);

const VSCODE = { name: 'vscode', message: 'only the extension glue (src/vscode, src/extension.ts) talks to VS Code' };

/** The front ends that are not the glue: each is its own package. */
const FRONT_ENDS = ['bridge', 'acp', 'cli'];
/**
 * The only modules one front end may import from another, by name: the CLI's `serve` hosts the bridge
 * over stdio with the bridge's own binding, framing, protocol and service.
 */
const FRONT_END_ENTRIES = {
  cli: { bridge: ['bind.ts', 'framing.ts', 'protocol.ts', 'service.ts'] },
};

/** One zone per ordered pair of front ends: `target` may import only the named modules of `from`. */
const frontEndZones = FRONT_ENDS.flatMap((target) =>
  FRONT_ENDS.filter((from) => from !== target).map((from) => {
    const entries = FRONT_END_ENTRIES[target]?.[from] ?? [];
    return {
      target: `./src/${target}`,
      from: `./src/${from}`,
      ...(entries.length > 0 ? { except: entries.map((file) => `./${file}`) } : {}),
      message: entries.length > 0 ? `src/${target} imports src/${from} only through ${entries.join(', ')}` : `src/${target} does not import src/${from}: move what both need to one owner`,
    };
  }),
);

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'build/**', 'node_modules/**', '.vscode-test/**', '.stryker-tmp/**', 'reports/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.d.ts', '.js', '.json'] })] },
    rules: {
      // tsc's noUnusedLocals owns unused names.
      '@typescript-eslint/no-unused-vars': 'off',
      // `any` stands where a type is generic on purpose (a registry of tools of any input).
      '@typescript-eslint/no-explicit-any': 'off',
      // A `let` assigned once after a closure that reads it was made is how the code breaks such knots.
      'prefer-const': 'off',
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Tests and benchmarks load modules by path and mock Node's modules through the module object.
      '@typescript-eslint/no-require-imports': 'off',
      // A test's event handler may push and count in one expression.
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
  // The core: no VS Code, no Node I/O (ports), nothing from outside src/executor.
  {
    files: ['src/executor/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'the core (src/executor) never imports vscode: the glue adapts its ports' },
            ...NODE_IO_MODULES.map((name) => ({ name, message: 'the core (src/executor) does no I/O: the file system and processes go through its ports (src/executor/ports)' })),
          ],
        },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: ['node', 'tools', 'vscode', 'cli', 'bridge', 'acp', 'extension.ts', 'extensionLauncher.ts'].map((outside) => ({
            target: './src/executor',
            from: `./src/${outside}`,
            message: 'the core (src/executor) imports nothing from outside it: what it needs from a host is a port (src/executor/ports)',
          })),
        },
      ],
    },
  },
  // Everything else in src: the core only through its barrel; the glue may also read the artifacts' URI
  // scheme directly, which the extension's loader shares (scripts/build.mjs `SHARED`).
  {
    files: ['src/**/*.ts'],
    ignores: ['src/executor/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: ['./src/!(executor|vscode)/**/*', './src/extensionLauncher.ts'],
              from: './src/executor',
              except: ['./index.ts'],
              message: 'outside src/executor, the core is imported only through its barrel (src/executor/index.ts)',
            },
            {
              target: ['./src/vscode', './src/extension.ts'],
              from: './src/executor',
              except: ['./index.ts', './results/artifactLayout.ts'],
              message: 'the glue imports the core only through its barrel (src/executor/index.ts), or results/artifactLayout.ts, which the loader shares',
            },
            ...frontEndZones,
            ...['vscode', 'cli', 'bridge', 'acp'].map((from) => ({
              target: './src/tools',
              from: `./src/${from}`,
              message: `the tools (src/tools) do not import src/${from}: they are driven by the executor, whoever hosts it`,
            })),
          ],
        },
      ],
    },
  },
  {
    files: ['src/tools/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ ...VSCODE, message: 'the tools (src/tools) never import vscode: they run in the CLI too' }] }] },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/vscode/**', 'src/extension.ts', 'src/executor/**', 'src/tools/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [VSCODE] }] },
  },
);
