// Claude Code's `settings.json`, read as it is (policy issue §7): `permissions.allow|ask|deny`,
// `permissions.defaultMode`, `permissions.additionalDirectories` and `hooks`, so a user's existing file
// works unchanged. Parsing is pure; problems are values, listed for the host to show.
import * as path from 'node:path';
import type { HookEventName } from '../ports/hooks';
import { modeStrictness, parsePermissionMode, type PermissionMode } from './modes';
import { RulesPolicy, type RuleLists } from './rulesPolicy';

/** The hook events the executor runs; other Claude Code events are ignored (and reported). */
export const SUPPORTED_HOOK_EVENTS: readonly HookEventName[] = ['PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure'];

/** One `{"type": "command", "command": ...}` entry of `hooks`, flattened with its event and matcher. */
export interface CommandHookConfig {
  readonly event: HookEventName;
  /** Tool-name matcher; undefined, '' and `*` match every tool. */
  readonly matcher?: string;
  /** Run with `/bin/sh -c`. */
  readonly command: string;
  /** From the entry's `timeout`, given in seconds as in Claude Code. */
  readonly timeoutMs?: number;
  /** For logs and decision records: where it was configured. */
  readonly name: string;
}

export interface ParsedSettings {
  readonly rules: RuleLists;
  readonly defaultMode?: PermissionMode;
  readonly additionalDirectories: readonly string[];
  readonly hooks: readonly CommandHookConfig[];
  readonly problems: readonly string[];
}

/** Reads a parsed settings object. `origin` names it in problems (a file path, "user settings"). */
export function parseSettings(value: unknown, origin: string): ParsedSettings {
  const problems: string[] = [];
  if (!isRecord(value)) {
    return { rules: {}, additionalDirectories: [], hooks: [], problems: [`${origin}: settings must be a JSON object`] };
  }
  const permissions = value.permissions;
  let rules: RuleLists = {};
  let defaultMode: PermissionMode | undefined;
  let additionalDirectories: string[] = [];
  if (permissions !== undefined) {
    if (!isRecord(permissions)) {
      problems.push(`${origin}: permissions must be an object`);
    } else {
      rules = {
        allow: stringList(permissions.allow, `${origin}: permissions.allow`, problems),
        ask: stringList(permissions.ask, `${origin}: permissions.ask`, problems),
        deny: stringList(permissions.deny, `${origin}: permissions.deny`, problems),
      };
      additionalDirectories = stringList(permissions.additionalDirectories, `${origin}: permissions.additionalDirectories`, problems);
      if (permissions.defaultMode !== undefined) {
        defaultMode = parsePermissionMode(permissions.defaultMode);
        if (!defaultMode) problems.push(`${origin}: permissions.defaultMode '${String(permissions.defaultMode)}' is not one of default, acceptEdits, plan, bypassPermissions`);
      }
    }
  }
  const hooks = parseHookSettings(value.hooks, origin);
  return { rules, defaultMode, additionalDirectories, hooks: hooks.hooks, problems: [...problems, ...hooks.problems] };
}

/** Reads a `hooks` object: `{EventName: [{matcher?, hooks: [{type: 'command', command, timeout?}]}]}`. */
export function parseHookSettings(value: unknown, origin: string): { hooks: CommandHookConfig[]; problems: string[] } {
  const hooks: CommandHookConfig[] = [];
  const problems: string[] = [];
  if (value === undefined) return { hooks, problems };
  if (!isRecord(value)) return { hooks, problems: [`${origin}: hooks must be an object`] };
  for (const [event, groups] of Object.entries(value)) {
    if (!(SUPPORTED_HOOK_EVENTS as readonly string[]).includes(event)) {
      problems.push(`${origin}: hooks.${event} is not run by the executor (it runs ${SUPPORTED_HOOK_EVENTS.join(', ')})`);
      continue;
    }
    if (!Array.isArray(groups)) {
      problems.push(`${origin}: hooks.${event} must be an array`);
      continue;
    }
    groups.forEach((group: unknown, groupIndex) => {
      const where = `${origin}: hooks.${event}[${groupIndex}]`;
      if (!isRecord(group) || !Array.isArray(group.hooks)) {
        problems.push(`${where} must be {"matcher": ..., "hooks": [...]}`);
        return;
      }
      if (group.matcher !== undefined && typeof group.matcher !== 'string') problems.push(`${where}.matcher must be a string`);
      const matcher = typeof group.matcher === 'string' ? group.matcher : undefined;
      group.hooks.forEach((entry: unknown, entryIndex) => {
        const at = `${where}.hooks[${entryIndex}]`;
        if (!isRecord(entry) || entry.type !== 'command' || typeof entry.command !== 'string' || entry.command.trim() === '') {
          problems.push(`${at} is not a {"type": "command", "command": "..."} hook; ignored`);
          return;
        }
        let timeoutMs: number | undefined;
        if (entry.timeout !== undefined) {
          if (typeof entry.timeout === 'number' && entry.timeout > 0 && Number.isFinite(entry.timeout)) timeoutMs = Math.round(entry.timeout * 1000);
          else problems.push(`${at}.timeout must be a positive number of seconds; using the default`);
        }
        hooks.push({ event: event as HookEventName, matcher, command: entry.command, timeoutMs, name: `${origin} ${event}[${groupIndex}].hooks[${entryIndex}]` });
      });
    });
  }
  return { hooks, problems };
}

export interface PolicySettingsOptions {
  /** The user's settings object (trusted). */
  readonly user?: unknown;
  /** The workspace's settings object: its allow rules, hooks and looser modes count only when trusted. */
  readonly workspace?: unknown;
  /** An explicit mode (`--mode`, a UI switch) beats both files' `defaultMode`. */
  readonly mode?: PermissionMode;
  readonly workspaceTrusted: boolean;
  /** Relative `additionalDirectories` are taken in the first folder. */
  readonly workspaceFolders?: readonly string[];
}

/** Builds the policy from Claude-Code-shaped settings; settings problems land in `policy.problems`. */
export function createPolicyFromSettings(options: PolicySettingsOptions): RulesPolicy {
  const user = options.user === undefined ? undefined : parseSettings(options.user, 'user settings');
  const workspace = options.workspace === undefined ? undefined : parseSettings(options.workspace, 'workspace settings');
  const problems = [...(user?.problems ?? []), ...(workspace?.problems ?? [])];
  const mode = options.mode ?? chooseMode(user?.defaultMode, workspace?.defaultMode, options.workspaceTrusted, problems);
  const base = options.workspaceFolders?.[0] ?? process.cwd();
  const directories = [...(user?.additionalDirectories ?? []), ...(options.workspaceTrusted ? workspace?.additionalDirectories ?? [] : [])];
  const policy = new RulesPolicy({
    mode,
    user: user?.rules,
    workspace: workspace?.rules,
    workspaceTrusted: options.workspaceTrusted,
    additionalDirectories: directories.map((directory) => path.resolve(base, directory)),
  });
  policy.problems.unshift(...problems);
  return policy;
}

/** The workspace's mode counts when the workspace is trusted, or when it is stricter than the user's. */
function chooseMode(user: PermissionMode | undefined, workspace: PermissionMode | undefined, trusted: boolean, problems: string[]): PermissionMode {
  const fallback = user ?? 'default';
  if (workspace === undefined) return fallback;
  if (trusted || modeStrictness(workspace) >= modeStrictness(fallback)) return workspace;
  problems.push(`workspace settings: defaultMode '${workspace}' is ignored because the workspace is not trusted`);
  return fallback;
}

function stringList(value: unknown, where: string, problems: string[]): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push(`${where} must be an array of strings`);
    return [];
  }
  return value.filter((item): item is string => {
    if (typeof item === 'string') return true;
    problems.push(`${where}: ${JSON.stringify(item)} is not a string; ignored`);
    return false;
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
