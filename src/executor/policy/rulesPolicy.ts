// The executor's permission policy: modes, allow/ask/deny rules from the user,
// the workspace and the session, resolved paths, sensitive files, and compound commands split part by
// part. Per part, in order:
//   1. a deny rule that matches → deny          2. plan mode and a tool that is not read-only → deny
//   3. a sensitive file → forced ask            4. a deny rule that might match (run-time words) → ask
//   5. an ask rule (not in bypass) → ask        6. bypass → allow
//   7. what cannot be parsed → ask              8. outside the workspace folders → ask, unless an
//   9. an allow rule → allow                       absolute allow rule covers it
//  10. the mode's default
// A call is denied if any part is, asks if any part asks, and runs only when every part is allowed.
import type { PermissionSubject } from '../contract/contract';
import type { CallFlags } from '../contract/events';
import { flagsOf } from '../contract/flags';
import { workDirOf } from './path/modelPath';
import type { IgnoredPaths } from '../ports/workspace/ignoredPaths';
import type { PermissionDecision, PermissionPolicy, PermissionRequest } from '../ports/permissionPolicy';
import { lastingRuleTexts } from './rules/lastingRules';
import { isAbsolutePattern, literalGlob, parsePathPattern } from './path/pathMatch';
import { containingFolder, judgePath, judgeShellPath, realFolders, type PathJudge } from './path/judgePath';
import { exactRuleCovers, ruleApplies, ruleMatches, type Check, type RuleMatch } from './rules/ruleMatch';
import { parseRule, type PermissionRule, type RuleBehavior, type RuleParse, type RuleSource } from './rules/ruleSyntax';
import type { PermissionMode } from './modes';
import { prefixRuleFor } from './rules/ruleSuggestion';
import { conservativeDeny } from './rules/unreadableRule';
import { combine, sensitiveReason } from './rules/verdicts';
import { splitCommand, type CommandWord } from './shell/shellSplit';
import { argumentChecks } from './shell/shellArguments';
import { subjectsOf } from './subjects';

/** Rule strings by behaviour, as in Claude Code's `permissions`. */
export interface RuleLists {
  readonly allow?: readonly string[];
  readonly ask?: readonly string[];
  readonly deny?: readonly string[];
}

export interface RulesPolicyOptions {
  /** @default 'default' */
  readonly mode?: PermissionMode;
  readonly user?: RuleLists;
  readonly workspace?: RuleLists;
  /** Rules given on the command line or by the host; treated like user rules. */
  readonly cli?: RuleLists;
  /** In an untrusted workspace, workspace allow rules are ignored. @default true */
  readonly workspaceTrusted?: boolean;
  /** Folders that count as inside, besides the workspace folders (`permissions.additionalDirectories`). */
  readonly additionalDirectories?: readonly string[];
  /** Agents' ignore files: a command whose arguments or redirections name what they exclude asks. */
  readonly ignored?: IgnoredPaths;
  /**
   * Git files beyond git's names (`src/tools/sandbox/gitPaths.ts`: files a repository's config includes,
   * submodule checkouts' `.git` files), absolute: writing one always asks.
   */
  readonly gitPaths?: readonly string[];
  /** How problems name the user's and the workspace's rules (their files). */
  readonly origins?: { readonly user?: string; readonly workspace?: string };
}

type Verdict = PermissionDecision;

/** Builtins that change the directory later relative redirections resolve against. */
const CHANGES_DIRECTORY: ReadonlySet<string> = new Set(['cd', 'pushd', 'popd']);


export class RulesPolicy implements PermissionPolicy {
  /** The current mode; the host may switch it at any time. */
  mode: PermissionMode;
  /** Whether the workspace is trusted; the host may change it (VS Code's workspace trust). */
  workspaceTrusted: boolean;
  /**
   * Calls the OS sandbox confines and lets run unasked (Bash with `autoAllowBashIfSandboxed`).
   * The sandbox enforces what their paths would ask for (outside the folders, secret and memory files,
   * what cannot be parsed), so those asks are lifted; deny rules, ask rules, ignore files and plan mode
   * still apply. The host sets it.
   */
  sandboxed?: (request: PermissionRequest) => boolean;
  /**
   * Settings that could not be used as written, as messages; the host shows them (the CLI refuses to
   * start). Each broken deny or ask rule was replaced by one on its whole tool, or on every tool.
   */
  readonly problems: string[] = [];
  /** The problems that narrow nothing (also listed in `problems`): shown, never a reason to refuse. */
  readonly notices: string[] = [];
  private readonly rules: PermissionRule[] = [];
  private readonly additionalDirectories: readonly string[];
  private readonly ignored: IgnoredPaths | undefined;
  private readonly gitPaths: ReadonlySet<string>;
  private readonly origins: { readonly user?: string; readonly workspace?: string };

  constructor(options: RulesPolicyOptions = {}) {
    this.mode = options.mode ?? 'default';
    this.workspaceTrusted = options.workspaceTrusted ?? true;
    this.additionalDirectories = options.additionalDirectories ?? [];
    this.ignored = options.ignored;
    this.gitPaths = new Set(options.gitPaths ?? []);
    this.origins = options.origins ?? {};
    for (const [source, lists] of [['user', options.user], ['workspace', options.workspace], ['cli', options.cli]] as const) {
      for (const behavior of ['deny', 'ask', 'allow'] as const) {
        for (const text of lists?.[behavior] ?? []) this.addRule(text, behavior, source);
      }
    }
  }

  /**
   * Adds a rule; a rule that does not parse is returned as an error and listed in `problems`. A broken
   * deny or ask rule fails closed: it becomes that rule on its whole tool (or on every tool).
   */
  addRule(text: string, behavior: RuleBehavior, source: RuleSource): RuleParse {
    const parsed = parseRule(text, behavior, source);
    if (parsed.ok) {
      this.rules.push(parsed.rule);
      return parsed;
    }
    const origin = source === 'user' || source === 'workspace' ? this.origins[source] ?? `${source} settings` : `${source} rules`;
    // A rule we cannot read never stops the file: allow and ask are skipped, deny is read conservatively.
    if (behavior !== 'deny') {
      this.warn(`${origin}: permissions.${behavior}: ${parsed.error}; skipped, the rest of the file applies`);
      return parsed;
    }
    const reading = conservativeDeny(text, source);
    this.rules.push(reading.rule);
    this.warn(`${origin}: permissions.deny: ${parsed.error}; read as ${reading.description} until it is fixed`);
    return parsed;
  }

  /** A problem that narrows nothing, or narrows in the safe direction: shown, never a reason to refuse. */
  private warn(message: string): void {
    this.problems.push(message);
    this.notices.push(message);
  }

  /** Takes over the "allow for this session" rules of a policy this one replaces (settings reloaded). */
  adoptSessionRules(previous: RulesPolicy): void {
    this.rules.push(...previous.rules.filter((rule) => rule.source === 'session'));
  }

  /** Every rule in force, session rules included. */
  get allRules(): readonly PermissionRule[] {
    return this.rules;
  }

  async evaluate(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision> {
    // Only paths are compared with the folders; calls without one touch no file system here. A folder
    // that holds a path's real location as written is real itself, so with one folder (the usual
    // case) it is resolved only for a path outside it, after the path. With more, one of them
    // seldom holds it: they are resolved while the path is (one wait instead of two).
    const subjects = subjectsOf(request.tool, request.input);
    const allFolders = [...request.workspaceFolders, ...this.additionalDirectories];
    const namesPath = subjects.ok && subjects.subjects.some((subject) => subject.kind === 'path');
    const resolving = namesPath && allFolders.length > 1 ? realFolders(allFolders) : undefined;
    // Awaited below only when a path check needs it; a rejection is never left unhandled.
    resolving?.catch(() => {});
    const checks = await this.checksOf(request, signal, subjects);
    const located = checks.flatMap((check) => (check.kind === 'path' ? check.path.real : []));
    const folders = checks.some((check) => check.kind === 'path') ? await (resolving ?? realFolders(allFolders, located)) : [];
    signal.throwIfAborted();
    const flags = flagsOf(request.tool);
    const sandboxed = this.sandboxed?.(request) ?? false;
    return combine(checks.map((check) => this.decide(check, request.tool.name, flags, folders, sandboxed)));
  }

  /** "Allow for this session": an allow rule for exactly what this call touches (never a wider pattern). */
  async rememberSessionApproval(request: PermissionRequest, signal?: AbortSignal): Promise<void> {
    this.rules.push(...(await this.approvalRules(request, signal)));
  }

  /**
   * The allow rules for exactly what this call touches (never a wider pattern), as session rules;
   * "allow in this workspace" writes their `text` to the workspace's settings.
   */
  async approvalRules(request: PermissionRequest, signal?: AbortSignal): Promise<PermissionRule[]> {
    const name = request.tool.name;
    const rules: PermissionRule[] = [];
    for (const check of await this.checksOf(request, signal ?? new AbortController().signal)) {
      const base = { behavior: 'allow' as const, source: 'session' as const };
      switch (check.kind) {
        case 'command':
          if (check.part.words.every((word) => word.literal)) {
            const words = check.part.words.map((word) => word.value);
            rules.push({ ...base, tool: name, text: `${name}(${check.part.text})`, content: check.part.text, command: { words, prefix: false } });
          }
          break;
        case 'path': {
          const tool = check.fromCommand ? (check.access === 'write' ? 'Edit' : 'Read') : name;
          // Written to a settings file this text is read as a glob: its specials are escaped.
          for (const real of check.path.real) rules.push({ ...base, tool, text: `${tool}(/${literalGlob(real)})`, exactPath: real });
          break;
        }
        case 'url':
          if (check.url) {
            const domain = check.url.hostname.toLowerCase();
            rules.push({ ...base, tool: name, text: `${name}(domain:${domain})`, content: `domain:${domain}`, domain });
          }
          break;
        case 'tool':
          rules.push({ ...base, tool: name, text: name });
          break;
        default:
          break;
      }
    }
    return rules;
  }

  /**
   * What "allow in this workspace" writes for this call: the texts of `approvalRules`, when each reads back as
   * exactly its rule (lastingRules.ts); undefined when one would not, and then nothing is written.
   */
  async workspaceRuleTexts(request: PermissionRequest, signal?: AbortSignal): Promise<string[] | undefined> {
    return lastingRuleTexts(await this.approvalRules(request, signal));
  }

  /** Whether "allow in this workspace" can be offered for this call: its rules can be written exactly. */
  async workspaceApprovalPossible(request: PermissionRequest, signal?: AbortSignal): Promise<boolean> {
    return (await this.workspaceRuleTexts(request, signal)) !== undefined;
  }

  /** Drops a session rule (the rules list of the VS Code host); rules from files are removed from their file. */
  forgetSessionRule(text: string): boolean {
    const index = this.rules.findIndex((rule) => rule.source === 'session' && rule.text === text);
    if (index < 0) return false;
    this.rules.splice(index, 1);
    return true;
  }

  private async checksOf(request: PermissionRequest, signal: AbortSignal, subjects = subjectsOf(request.tool, request.input)): Promise<Check[]> {
    if (!subjects.ok) return [{ kind: 'opaque', reason: subjects.reason }];
    const checks: Check[] = [];
    for (const subject of subjects.subjects) {
      checks.push(...(await this.checksOfSubject(subject, request.workspaceFolders, request.judgePath ?? judgePath)));
      signal.throwIfAborted();
    }
    return checks.length > 0 ? checks : [{ kind: 'tool' }];
  }

  private async checksOfSubject(subject: PermissionSubject, folders: readonly string[], judge: PathJudge): Promise<Check[]> {
    switch (subject.kind) {
      case 'path': {
        // The same reading, with the same folders, as the tool's own (`resolveToolPath`).
        const judged = await judge(subject.path, folders);
        switch (judged.kind) {
          case 'file':
            return [{ kind: 'path', path: judged.path, access: subject.access, fromCommand: false }];
          case 'artifact':
            return [{ kind: 'artifact', access: subject.access, uri: judged.uri }];
          case 'refused':
            // The tool refuses it with the same error and touches nothing; the call is judged as a whole.
            return [];
        }
      }
      case 'url':
        return [{ kind: 'url', url: parseUrl(subject.url), raw: subject.url }];
      case 'command': {
        const split = splitCommand(subject.command);
        if (!split.ok) return [{ kind: 'opaque', reason: `the command cannot be checked part by part: ${split.reason}` }];
        const checks: Check[] = [];
        // After a `cd`, a relative redirection is relative to a folder we do not know.
        const movesAround = split.parts.some((part) => part.kind === 'command' && CHANGES_DIRECTORY.has(commandName(part.words)));
        const cwd = workDirOf(folders);
        if (split.unjudgeable) checks.push({ kind: 'opaque', reason: split.unjudgeable });
        const line = split.parts.filter((part) => part.kind === 'command');
        for (const part of split.parts) {
          if (part.kind === 'command') {
            checks.push({ kind: 'command', part, line });
            // What the command's arguments name is checked like a Read: an allow rule on the program is not one on every file.
            checks.push(...(await argumentChecks(part, cwd, movesAround, undefined, this.ignored)));
          } else if (!part.target.literal) checks.push({ kind: 'opaque', reason: `the ${part.operator} redirection target ${part.target.text} is only known at run time`, redirect: part.access });
          else if (movesAround && !part.target.value.startsWith('/')) checks.push({ kind: 'opaque', reason: `the command changes directory, so ${part.target.text} may be anywhere`, redirect: part.access });
          // The shell opens redirections itself, relative to its working directory (the tools' `workDir`).
          else checks.push({ kind: 'path', path: await judgeShellPath(part.target.value, cwd), access: part.access, fromCommand: true, redirectTarget: part.target.value });
        }
        return checks;
      }
    }
  }

  private decide(check: Check, toolName: string, flags: CallFlags, folders: readonly string[], sandboxed = false): Verdict {
    const deny = this.firstMatch('deny', check, toolName, folders, false);
    if (deny?.match === 'yes') return { behavior: 'deny', by: 'rule', rule: deny.rule.text, reason: `${ruleLabel(deny.rule)} matches ${describe(check)}` };
    if (check.kind === 'command' && check.part.denyOnly) return { behavior: 'allow', by: 'mode', reason: '' };
    if (this.mode === 'plan' && !flags.readOnly) {
      return { behavior: 'deny', by: 'mode', reason: `plan mode runs only read-only tools, and ${toolName} is not read-only` };
    }
    const sensitive = sandboxed ? undefined : sensitiveReason(check, this.ignored?.names?.(), this.gitPaths);
    if (sensitive) return { behavior: 'ask', by: 'rule', rule: 'sensitive file', reason: sensitive, forced: true };
    // The file tools refuse what an agent ignore file excludes; a command reaching it asks, every time.
    const excluded = check.kind === 'path' && check.fromCommand ? this.excludedReason(check.path.real) : undefined;
    if (excluded) return { behavior: 'ask', by: 'rule', rule: 'ignore file', reason: excluded, forced: true };
    if (deny) return { behavior: 'ask', by: 'rule', rule: deny.rule.text, reason: `${describe(check)} has words only known at run time, so ${ruleLabel(deny.rule)} may match` };
    if (this.mode !== 'bypass') {
      const ask = this.firstMatch('ask', check, toolName, folders, false);
      if (ask) return { behavior: 'ask', by: 'rule', rule: ask.rule.text, reason: `${ruleLabel(ask.rule)} matches ${describe(check)}` };
    }
    if (this.mode === 'bypass') return { behavior: 'allow', by: 'mode', reason: 'bypass mode' };
    if (sandboxed) return { behavior: 'allow', by: 'mode', reason: 'it runs in the OS sandbox' };
    if (check.kind === 'argument' && check.command) {
      const exact = this.rules.find((rule) => rule.behavior === 'allow' && ruleApplies(rule, { kind: 'command', part: check.command! }, toolName) && (rule.source !== 'workspace' || this.workspaceTrusted) && exactRuleCovers(rule, check.command!));
      if (exact) return { behavior: 'allow', by: 'rule', rule: exact.text, reason: `${ruleLabel(exact)} names ${check.command.text} exactly as written` };
    }
    if (check.kind === 'opaque' || check.kind === 'argument') return { behavior: 'ask', by: 'rule', reason: check.reason };
    const allow = this.firstMatch('allow', check, toolName, folders, true);
    if (check.kind === 'path' && check.path.real.some((real) => !containingFolder(real, folders))) {
      const outside = check.path.real.find((real) => !containingFolder(real, folders))!;
      if (allow && reachesOutside(allow.rule)) return { behavior: 'allow', by: 'rule', rule: allow.rule.text, reason: `${ruleLabel(allow.rule)} matches ${outside}` };
      return { behavior: 'ask', by: 'mode', reason: `${outside} is outside the workspace folders` };
    }
    if (check.kind === 'url' && (!check.url || !/^https?:$/.test(check.url.protocol))) {
      return { behavior: 'ask', by: 'mode', reason: `${check.raw} is not an http(s) URL` };
    }
    if (allow) return { behavior: 'allow', by: 'rule', rule: allow.rule.text, reason: `${ruleLabel(allow.rule)} matches ${describe(check)}` };
    return this.modeDefault(check, toolName, flags);
  }

  private excludedReason(paths: readonly string[]): string | undefined {
    for (const real of paths) {
      const by = this.ignored?.excludedBy(real);
      if (by) return `${real} is excluded by ${by}`;
    }
    return undefined;
  }

  private modeDefault(check: Check, toolName: string, flags: CallFlags): Verdict {
    if (flags.readOnly || ((check.kind === 'path' || check.kind === 'artifact') && check.access === 'read')) {
      return { behavior: 'allow', by: 'mode', reason: check.kind === 'path' ? `reading ${describe(check)} inside the workspace` : `${toolName} only reads` };
    }
    // As in Claude Code: a redirection may write inside the workspace (protected files asked earlier).
    if (check.kind === 'path' && check.fromCommand && check.access === 'write') {
      return { behavior: 'allow', by: 'mode', reason: `the redirection writes ${describe(check)} inside the workspace` };
    }
    if (this.mode === 'acceptEdits') {
      if (check.kind === 'path') return { behavior: 'allow', by: 'mode', reason: `acceptEdits mode allows editing ${describe(check)}` };
      if (check.kind === 'tool' && flags.sideEffectScope === 'workspace' && !flags.destructive) {
        return { behavior: 'allow', by: 'mode', reason: 'acceptEdits mode allows workspace edits' };
      }
    }
    switch (check.kind) {
      case 'command':
      {
        const suggested = prefixRuleFor(toolName, check.part);
        const offer = suggested ? `; ${suggested} would allow it` : '';
        return { behavior: 'ask', by: 'mode', reason: `no rule allows ${check.part.text}${offer}`, ...(suggested ? { suggestedRules: [suggested] } : {}) };
      }
      case 'url':
        return { behavior: 'ask', by: 'mode', reason: `${this.mode} mode asks before fetching ${check.raw}` };
      case 'path':
      case 'artifact':
        return { behavior: 'ask', by: 'mode', reason: `${this.mode} mode asks before writing ${describe(check)}` };
      default:
        return { behavior: 'ask', by: 'mode', reason: `${toolName} may change files or reach outside the workspace` };
    }
  }

  private firstMatch(behavior: RuleBehavior, check: Check, toolName: string, folders: readonly string[], all: boolean): { rule: PermissionRule; match: RuleMatch } | undefined {
    let maybe: { rule: PermissionRule; match: RuleMatch } | undefined;
    for (const rule of this.rules) {
      if (rule.behavior !== behavior || !ruleApplies(rule, check, toolName)) continue;
      if (behavior === 'allow' && rule.source === 'workspace' && !this.workspaceTrusted) continue;
      const match = ruleMatches(rule, check, folders, all);
      if (match === 'yes') return { rule, match };
      if (match === 'maybe' && !all) maybe ??= { rule, match };
    }
    return maybe;
  }
}

/** Only absolute (`//`, `~/`) and exact session rules may allow a path outside the workspace folders. */
function reachesOutside(rule: PermissionRule): boolean {
  if (rule.exactPath !== undefined) return true;
  return rule.content !== undefined && isAbsolutePattern(parsePathPattern(rule.content));
}

function describe(check: Check): string {
  switch (check.kind) {
    case 'command':
      return check.part.text;
    case 'path':
      return check.path.real[0] ?? check.path.lexical;
    case 'artifact':
      return check.uri;
    case 'url':
      return check.raw;
    case 'opaque':
    case 'argument':
      return 'the command';
    case 'tool':
      return 'the call';
  }
}

function ruleLabel(rule: PermissionRule): string {
  const owner = rule.source === 'user' ? "the user's" : rule.source === 'workspace' ? "the workspace's" : rule.source === 'session' ? 'the session' : 'the';
  return `${owner} ${rule.behavior} rule ${rule.text}`;
}

function parseUrl(raw: string): URL | undefined {
  try {
    return new URL(raw.trim());
  } catch {
    return undefined;
  }
}

/** The program a simple command runs: its first word after `NAME=value` assignments. */
function commandName(words: readonly CommandWord[]): string {
  return words.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text))?.value ?? '';
}
