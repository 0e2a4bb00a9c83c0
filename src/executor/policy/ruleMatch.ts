// Matching one rule against one checked part of a call: a simple command, a path, a URL, or the tool.
import { pathPatternMatches, parsePathPattern } from './pathMatch';
import type { ResolvedPath } from './paths';
import { EVERY_TOOL, ruleNamesTool, type CommandPattern, type PermissionRule } from './ruleSyntax';
import type { CommandWord, SimpleCommandPart } from './shellSplit';

/** `maybe`: the part has words only known at run time where the rule compares words. */
export type RuleMatch = 'yes' | 'no' | 'maybe';

/** Rules on these tools cover every tool that writes (or reads) a file, as in Claude Code. */
export const EDIT_RULE_TOOLS: ReadonlySet<string> = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
export const READ_RULE_TOOLS: ReadonlySet<string> = new Set(['Read']);

/** One thing a call touches, checked on its own; a call is allowed only when all of them are. */
export type Check =
  | { readonly kind: 'tool' }
  | { readonly kind: 'command'; readonly part: SimpleCommandPart }
  | {
      readonly kind: 'path';
      readonly path: ResolvedPath;
      readonly access: 'read' | 'write';
      /** A redirection inside a command: only Read/Edit rules apply, not the command tool's. */
      readonly fromCommand: boolean;
    }
  | { readonly kind: 'artifact'; readonly access: 'read' | 'write'; readonly uri: string }
  | { readonly kind: 'url'; readonly url: URL | undefined; readonly raw: string }
  | { readonly kind: 'opaque'; readonly reason: string }
  /** An argument of an allowed command that may name any file (only known at run time): asks, matches no rule. */
  | { readonly kind: 'argument'; readonly reason: string };

/** Does `rule` speak about this check of a call to `toolName`? */
export function ruleApplies(rule: PermissionRule, check: Check, toolName: string): boolean {
  if (rule.tool === EVERY_TOOL) return true;
  switch (check.kind) {
    case 'command':
    case 'opaque':
      return ruleNamesTool(rule.tool, toolName) || rule.tool === 'Bash';
    case 'path':
    case 'artifact': {
      const aliases = check.access === 'write' ? EDIT_RULE_TOOLS : READ_RULE_TOOLS;
      return aliases.has(rule.tool) || (check.kind === 'path' && !check.fromCommand && ruleNamesTool(rule.tool, toolName));
    }
    case 'url':
      return ruleNamesTool(rule.tool, toolName) || rule.tool === 'WebFetch';
    case 'tool':
      return ruleNamesTool(rule.tool, toolName);
    case 'argument':
      return false;
  }
}

/**
 * Does the rule cover the check? `all` asks whether every real location matches (allow rules);
 * otherwise any location, the lexical one included, is enough (deny and ask rules).
 */
export function ruleMatches(rule: PermissionRule, check: Check, folders: readonly string[], all: boolean): RuleMatch {
  if (rule.content === undefined && rule.exactPath === undefined) return 'yes';
  switch (check.kind) {
    case 'command':
      return rule.command ? matchCommand(rule.command, check.part.words, !all) : 'no';
    case 'opaque':
      // The command could not be split: a rule on its words might apply; only a whole-tool rule decides.
      return rule.command && !all ? 'maybe' : 'no';
    case 'path': {
      const candidates = all ? check.path.real : [check.path.lexical, ...check.path.real];
      const test = (candidate: string) =>
        rule.exactPath !== undefined ? candidate === rule.exactPath : pathPatternMatches(parsePathPattern(rule.content!), candidate, folders);
      if (rule.domain !== undefined) return 'no';
      return (all ? candidates.every(test) : candidates.some(test)) ? 'yes' : 'no';
    }
    case 'url':
      return rule.domain !== undefined && check.url !== undefined && domainMatches(rule.domain, check.url.hostname) ? 'yes' : 'no';
    case 'artifact':
    case 'tool':
    case 'argument':
      return 'no';
  }
}

/**
 * Word-by-word comparison. For deny and ask rules (`skipAssignments`), leading `NAME=value` words are
 * skipped, so `X=1 rm -rf /` still meets `Bash(rm:*)`; for allow rules they count, since `PATH=...`
 * changes what runs.
 */
export function matchCommand(pattern: CommandPattern, allWords: readonly CommandWord[], skipAssignments: boolean): RuleMatch {
  let start = 0;
  if (skipAssignments) {
    while (start < allWords.length && /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(allWords[start]!.text)) start += 1;
  }
  const words = allWords.slice(start);
  let unsure = false;
  for (let index = 0; index < pattern.words.length; index += 1) {
    const word = words[index];
    if (!word) return unsure ? 'maybe' : 'no';
    if (!word.literal) unsure = true;
    else if (word.value !== pattern.words[index]) return 'no';
  }
  if (!pattern.prefix && words.length !== pattern.words.length) {
    const extraUnknown = words.slice(pattern.words.length).every((word) => !word.literal);
    return unsure || extraUnknown ? 'maybe' : 'no';
  }
  return unsure ? 'maybe' : 'yes';
}

/** `example.com` matches that host; `*.example.com` matches its subdomains. */
export function domainMatches(domain: string, hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (domain.startsWith('*.')) return host.endsWith(domain.slice(1));
  return host === domain;
}
