// Claude Code's `settings.json`, read as it is: `permissions.allow|ask|deny`,
// `permissions.defaultMode`, `permissions.additionalDirectories` and `hooks`, so a user's existing file
// works unchanged. Parsing is pure; problems are values, listed for the host to show.
import type { IgnoredPaths } from '../ports/workspace/ignoredPaths';
import * as path from 'node:path';
import type { HookEventName } from '../ports/hooks';
import { modeStrictness, parsePermissionMode, type PermissionMode } from './modes';
import { RulesPolicy, type RuleLists } from './rulesPolicy';
import { EVERY_TOOL } from './rules/ruleSyntax';

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
  /**
   * What cannot be used as written. Each names the origin, the key and the problem. A broken part never
   * widens what runs: what it could have denied (or asked for) is denied (or asked for) as a whole.
   */
  readonly problems: readonly string[];
  /** The problems that narrow nothing (hook events the executor does not run): shown, never refused. */
  readonly notices: readonly string[];
}

/** What a broken deny or ask list becomes: a rule on every tool. Fail closed: never looser than meant. */
const EVERY_TOOL_RULE = EVERY_TOOL;

/** Reads a parsed settings object. `origin` names it in problems (a file path, "user settings"). */
export function parseSettings(value: unknown, origin: string): ParsedSettings {
  const problems: string[] = [];
  const notices: string[] = [];
  if (!isRecord(value)) {
    return { rules: { deny: [EVERY_TOOL_RULE] }, defaultMode: 'plan', additionalDirectories: [], hooks: [], notices: [], problems: [`${origin}: settings must be a JSON object; every tool is denied until it is fixed`] };
  }
  const permissions = value.permissions;
  let rules: RuleLists = {};
  let defaultMode: PermissionMode | undefined;
  let additionalDirectories: string[] = [];
  if (permissions !== undefined) {
    if (!isRecord(permissions)) {
      problems.push(`${origin}: permissions must be an object, got ${describe(permissions)}; every tool is denied until it is fixed`);
      rules = { deny: [EVERY_TOOL_RULE] };
    } else {
      rules = {
        allow: stringList(permissions.allow, `${origin}: permissions.allow`, problems, 'drop'),
        ask: stringList(permissions.ask, `${origin}: permissions.ask`, problems, 'ask'),
        deny: stringList(permissions.deny, `${origin}: permissions.deny`, problems, 'deny'),
      };
      additionalDirectories = stringList(permissions.additionalDirectories, `${origin}: permissions.additionalDirectories`, problems, 'drop');
      if (permissions.defaultMode !== undefined) {
        defaultMode = parsePermissionMode(permissions.defaultMode);
        if (!defaultMode) {
          // It may have meant plan: the strictest mode is the one that cannot be looser than meant.
          // Claude Code has modes we do not (dontAsk, auto): a warning, never a reason to refuse the file.
          const message = `${origin}: permissions.defaultMode ${JSON.stringify(permissions.defaultMode)} is not one of default, acceptEdits, plan, bypassPermissions; plan mode until it is fixed`;
          problems.push(message);
          notices.push(message);
          defaultMode = 'plan';
        }
      }
    }
  }
  const hooks = parseHookSettings(value.hooks, origin);
  return { rules, defaultMode, additionalDirectories, hooks: hooks.hooks, problems: [...problems, ...hooks.problems, ...hooks.notices], notices: [...notices, ...hooks.notices] };
}

/** Reads a `hooks` object: `{EventName: [{matcher?, hooks: [{type: 'command', command, timeout?}]}]}`. */
export function parseHookSettings(value: unknown, origin: string): { hooks: CommandHookConfig[]; problems: string[]; notices: string[] } {
  const hooks: CommandHookConfig[] = [];
  const problems: string[] = [];
  const notices: string[] = [];
  if (value === undefined) return { hooks, problems, notices };
  if (!isRecord(value)) return { hooks, problems: [`${origin}: hooks must be an object, got ${describe(value)}`], notices };
  for (const [event, groups] of Object.entries(value)) {
    if (!(SUPPORTED_HOOK_EVENTS as readonly string[]).includes(event)) {
      notices.push(`${origin}: hooks.${event} is not run by the executor (it runs ${SUPPORTED_HOOK_EVENTS.join(', ')})`);
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
  return { hooks, problems, notices };
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
  /** How problems name each source (its file path). @default 'user settings' / 'workspace settings' */
  readonly origins?: { readonly user?: string; readonly workspace?: string };
  /** Agents' ignore files (`.aiignore`, …). */
  readonly ignored?: IgnoredPaths;
  /** Git files beyond git's names, absolute (`RulesPolicyOptions.gitPaths`). */
  readonly gitPaths?: readonly string[];
}

/** Builds the policy from Claude-Code-shaped settings; settings problems land in `policy.problems`. */
export function createPolicyFromSettings(options: PolicySettingsOptions): RulesPolicy {
  const userOrigin = options.origins?.user ?? 'user settings';
  const workspaceOrigin = options.origins?.workspace ?? 'workspace settings';
  const user = options.user === undefined ? undefined : parseSettings(options.user, userOrigin);
  const workspace = options.workspace === undefined ? undefined : parseSettings(options.workspace, workspaceOrigin);
  const problems = [...(user?.problems ?? []), ...(workspace?.problems ?? [])];
  const notices = [...(user?.notices ?? []), ...(workspace?.notices ?? [])];
  const ignoredModes: string[] = [];
  const mode = options.mode ?? chooseMode(user?.defaultMode, workspace?.defaultMode, options.workspaceTrusted, ignoredModes);
  problems.push(...ignoredModes);
  notices.push(...ignoredModes);
  const base = options.workspaceFolders?.[0] ?? process.cwd();
  const directories = [...(user?.additionalDirectories ?? []), ...(options.workspaceTrusted ? workspace?.additionalDirectories ?? [] : [])];
  const policy = new RulesPolicy({
    mode,
    user: user?.rules,
    workspace: workspace?.rules,
    workspaceTrusted: options.workspaceTrusted,
    additionalDirectories: directories.map((directory) => path.resolve(base, directory)),
    origins: { user: userOrigin, workspace: workspaceOrigin },
    ignored: options.ignored,
    gitPaths: options.gitPaths,
  });
  policy.problems.unshift(...problems);
  policy.notices.push(...notices);
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

/**
 * A list of strings. What is broken in it is dropped when dropping narrows what runs (`drop`: allow
 * rules, folders), or becomes a rule on every tool when the list could have denied or asked.
 */
function stringList(value: unknown, where: string, problems: string[], broken: 'drop' | 'deny' | 'ask'): string[] {
  const consequence = broken === 'drop' ? 'ignored' : broken === 'deny' ? 'every tool is denied until it is fixed' : 'every tool asks until it is fixed';
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push(`${where} must be an array of strings, got ${describe(value)}; ${consequence}`);
    return broken === 'drop' ? [] : [EVERY_TOOL_RULE];
  }
  const out: string[] = [];
  value.forEach((item: unknown, index) => {
    if (typeof item === 'string') {
      out.push(item);
      return;
    }
    problems.push(`${where}[${index}] must be a string, got ${describe(item)}; ${consequence}`);
    if (broken !== 'drop') out.push(EVERY_TOOL_RULE);
  });
  return out;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return `${typeof value} ${text.length > 80 ? `${text.slice(0, 80)}…` : text}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
