// Our permission policy as the sandbox runtime's configuration, a pure function:
//   writes: the workspace folders (and `additionalDirectories`), never agent memory files, configuration
//           that runs code (git's files: the whole `.git`, a `.git` file, `.gitmodules` (gitFiles.ts);
//           `.vscode`, `.claude`, …), the agents' ignore files or secret files, whether they exist or not;
//   reads:  everywhere but the secret locations of the home folder and the workspace's secret files;
//   network: only the domains of `WebFetch(domain:…)` allow rules and `sandbox.network.allowedDomains`.
// On Linux bubblewrap binds concrete paths (no globs for writes, and a read glob walks the tree before
// every command), so the workspace's names are taken at each folder's root; macOS takes `**` patterns.
import * as path from 'node:path';
import { GIT_PROTECTED_NAMES } from '../../executor';
import { AGENT_IGNORE_FILES, SECRET_FILE_GLOBS } from '../../executor';

/** The part of `@anthropic-ai/sandbox-runtime`'s `SandboxRuntimeConfig` we set (all of it required by the runtime). */
export interface SandboxRuntimeConfigShape {
  readonly filesystem: { readonly allowWrite: string[]; readonly denyWrite: string[]; readonly denyRead: string[] };
  readonly network: { readonly allowedDomains: string[]; readonly deniedDomains: string[] };
  readonly ripgrep?: { readonly command: string };
  readonly mandatoryDenySearchDepth?: number;
}

export interface SandboxPolicyInput {
  /** Workspace folders and `additionalDirectories`, absolute. */
  readonly folders: readonly string[];
  readonly home: string;
  /** `process.platform`: decides between root-level names (Linux) and `**` patterns (macOS). */
  readonly platform: NodeJS.Platform;
  /** From `sandbox.network.allowedDomains` and the `WebFetch(domain:…)` allow rules. */
  readonly allowedDomains: readonly string[];
  /**
   * The names of the agents' ignore files in force (`AgentIgnoreFiles.names()`), existing or not: a command
   * must not make or rewrite one, which would hide its later changes. @default AGENT_IGNORE_FILES
   */
  readonly ignoreFiles?: readonly string[];
  /**
   * Git files the folders' names do not reach (`gitPaths.ts`: submodule checkouts' `.git` files, files the
   * repository's config includes), absolute.
   */
  readonly gitPaths?: readonly string[];
  /** The ripgrep the runtime scans a command's folder with for `.git/hooks` and kin (VS Code ships its own). */
  readonly ripgrep?: string;
}

/**
 * How deep the runtime looks for its own list of names (shell profiles, `.gitconfig`, `.mcp.json`, `.idea`,
 * `.git/hooks` and kin) on Linux, in the folder a command runs in (its process's working directory, which
 * it takes from each wrap: runtime.ts `WorkingFolder`). 1: the names in that folder itself; deeper ones cost
 * a longer scan and more mounts per command (its default of 3 cost far more per command in a large folder such as /tmp),
 * and the workspace folders' memory, config and secret names are listed above.
 */
export const MANDATORY_DENY_SEARCH_DEPTH = 1;

/** Secrets under the home folder: keys, cloud and registry credentials. */
export const HOME_SECRETS: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.netrc',
  '.git-credentials',
  '.pgpass',
  '.config/gcloud',
  '.azure',
  '.kube',
  '.docker/config.json',
  '.npmrc',
  '.pypirc',
];

/**
 * Agent memory files and configuration that runs code (sensitiveFiles.ts' lists, as names in a folder), and
 * git's files (gitFiles.ts). `.git/config` and `.git/hooks` stay listed below the whole `.git`: where there is
 * no repository, they make the runtime hold `.git` with an empty folder rather than a file, which git on the
 * host skips while the command runs, instead of failing on a `.git` file it cannot read.
 */
export const PROTECTED_WRITES: readonly string[] = [
  ...GIT_PROTECTED_NAMES,
  'AGENTS.md',
  'AGENTS.override.md',
  'CLAUDE.md',
  'CLAUDE.local.md',
  'GEMINI.md',
  '.cursorrules',
  '.windsurfrules',
  '.clinerules',
  '.roorules',
  '.goosehints',
  '.github/copilot-instructions.md',
  '.github/instructions',
  '.github/prompts',
  '.cursor/rules',
  '.windsurf/rules',
  '.roo/rules',
  '.claude',
  '.git/config',
  '.git/hooks',
  '.vscode',
  '.husky',
];

export function sandboxRuntimeConfig(input: SandboxPolicyInput): SandboxRuntimeConfigShape {
  const deep = input.platform === 'darwin';
  const inFolder = (folder: string, name: string) => (deep && !name.includes('/') ? path.join(folder, '**', name) : path.join(folder, name));
  const denyWrite: string[] = [];
  const denyRead: string[] = HOME_SECRETS.map((name) => path.join(input.home, name));
  for (const folder of input.folders) {
    for (const name of PROTECTED_WRITES) denyWrite.push(inFolder(folder, name));
    for (const glob of SECRET_FILE_GLOBS) {
      denyRead.push(inFolder(folder, glob));
      denyWrite.push(...(glob.includes('*') && !deep ? [] : [inFolder(folder, glob)]));
    }
  }
  for (const folder of input.folders) {
    for (const name of input.ignoreFiles ?? AGENT_IGNORE_FILES) denyWrite.push(inFolder(folder, name));
  }
  denyWrite.push(...(input.gitPaths ?? []));
  return {
    filesystem: { allowWrite: [...new Set(input.folders)], denyWrite: [...new Set(denyWrite)], denyRead: [...new Set(denyRead)] },
    network: { allowedDomains: [...new Set(input.allowedDomains.map((domain) => domain.toLowerCase()))], deniedDomains: [] },
    ...(input.ripgrep ? { ripgrep: { command: input.ripgrep } } : {}),
    mandatoryDenySearchDepth: MANDATORY_DENY_SEARCH_DEPTH,
  };
}
