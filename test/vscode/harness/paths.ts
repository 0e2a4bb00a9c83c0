// The cache and repository paths, read from scripts/vscode-paths.mjs (the one source of versions).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface VscodePaths {
  readonly CODE_SERVER_VERSION: string;
  readonly NODE_VERSION: string;
  readonly REPO_ROOT: string;
  readonly CACHE_ROOT: string;
  readonly NODE_BIN: string;
  readonly NODE_HOME: string;
  readonly CODE_SERVER_DIR: string;
  readonly CODE_SERVER_HOME: string;
  readonly SERVER_MAIN: string;
  readonly MARKER: string;
  readonly CHROMIUM: string;
  readonly VSIX: string;
  readonly RESULTS_DIR: string;
}

/** The checkout: the nearest folder above this file with the extension's package.json. */
export function repoRoot(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).name === 'agent-tool-executor') {
      return dir;
    }
  }
  throw new Error(`no agent-tool-executor package.json above ${__dirname}`);
}

/** Loads the paths and checks that scripts/setup.sh installed what they point at. */
export async function loadPaths(): Promise<VscodePaths> {
  const module = (await import(pathToFileURL(path.join(repoRoot(), 'scripts', 'vscode-paths.mjs')).href)) as VscodePaths;
  for (const dir of [module.CODE_SERVER_DIR, path.dirname(path.dirname(module.NODE_HOME))]) {
    if (!fs.existsSync(path.join(dir, module.MARKER))) {
      throw new Error(`${dir} is not installed: run bash scripts/setup.sh`);
    }
  }
  return module;
}
