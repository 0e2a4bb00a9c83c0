// VS Code adapter: the OS sandbox's settings from Claude Code's settings files (`sandbox` in
// ~/.claude/settings.json and the folder's .claude/settings*.json) and the `agentToolExecutor.sandbox.*`
// settings, user level over the user file, workspace level over the workspace files. An untrusted
// workspace's sandbox settings are ignored. SettingsPermissions applies them at every reload.
import * as vscode from 'vscode';
import type { BashSandbox } from '../../tools/sandbox/bashSandbox';
import { combineSandboxSettings, parseSandboxSettings, webFetchDomains, type PartialSandboxSettings } from '../../tools/sandbox/sandboxSettings';

const SECTION = 'agentToolExecutor.sandbox';

/** What the composition root hands SettingsPermissions for the sandbox. */
export interface SandboxWiring {
  readonly sandbox: BashSandbox;
  /** The names of the agents' ignore files in force, existing or not (a sandboxed command must not make or rewrite them). */
  readonly ignoreFiles: () => readonly string[];
  /** The ripgrep VS Code ships (the runtime scans for nested `.git/hooks` with it). */
  readonly ripgrep?: string;
}

export interface SandboxSources {
  readonly userFile?: Record<string, unknown>;
  readonly workspaceFile?: Record<string, unknown>;
  readonly workspaceTrusted: boolean;
  readonly folders: readonly string[];
  /** Allow rules in force (their `WebFetch(domain:…)` domains are reachable). */
  readonly allowRules: readonly string[];
}

/** Configures the sandbox from every source; returns the problems to show. Resolves once it is ready or known unavailable. */
export async function applySandboxSettings(wiring: SandboxWiring, sources: SandboxSources): Promise<string[]> {
  const problems: string[] = [];
  const layer = (file: Record<string, unknown> | undefined, fileOrigin: string, level: 'globalValue' | 'workspaceValue', settingsOrigin: string): PartialSandboxSettings => {
    const fromFile = parseSandboxSettings(file, fileOrigin);
    const fromSettings = parseSandboxSettings({ sandbox: vscodeSandbox(level) }, settingsOrigin);
    problems.push(...fromFile.problems, ...fromSettings.problems);
    return {
      ...fromFile.settings,
      ...withoutLists(fromSettings.settings),
      excludedCommands: [...(fromFile.settings.excludedCommands ?? []), ...(fromSettings.settings.excludedCommands ?? [])],
      allowedDomains: [...(fromFile.settings.allowedDomains ?? []), ...(fromSettings.settings.allowedDomains ?? [])],
    };
  };
  const user = layer(sources.userFile, 'user settings file', 'globalValue', 'VS Code user settings');
  const workspace = layer(sources.workspaceFile, 'workspace settings files', 'workspaceValue', 'VS Code workspace settings');
  const hasWorkspace = workspace.enabled !== undefined || workspace.autoAllowBashIfSandboxed !== undefined || workspace.excludedCommands!.length > 0 || workspace.allowedDomains!.length > 0;
  const combined = combineSandboxSettings(user, hasWorkspace ? workspace : {}, sources.workspaceTrusted);
  problems.push(...combined.notices);
  await wiring.sandbox.configure(combined.settings, {
    folders: sources.folders,
    ignoreFiles: wiring.ignoreFiles(),
    ripgrep: wiring.ripgrep,
    webFetchDomains: webFetchDomains(sources.allowRules),
  });
  return problems;
}

/** The `agentToolExecutor.sandbox.*` values set at one level, shaped like Claude Code's `sandbox` object. */
function vscodeSandbox(level: 'globalValue' | 'workspaceValue'): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const value = (key: string) => config.inspect(key)?.[level];
  const out: Record<string, unknown> = {};
  for (const key of ['enabled', 'autoAllowBashIfSandboxed', 'excludedCommands'] as const) if (value(key) !== undefined) out[key] = value(key);
  if (value('network.allowedDomains') !== undefined) out.network = { allowedDomains: value('network.allowedDomains') };
  return out;
}

function withoutLists(settings: PartialSandboxSettings): PartialSandboxSettings {
  const { excludedCommands: _excluded, allowedDomains: _domains, ...rest } = settings;
  return rest;
}
