// Matching one rule against one checked part of a call: a simple command, a path, a URL, or the tool.
import { pathPatternMatches, parsePathPattern } from '../path/pathMatch';
import type { ResolvedPath } from '../path/judgePath';
import { commandInput, compileWordPattern, isTildeWord, matchTokens, openQuoteHolds, WORD_BOUNDARY, type WordPattern } from './commandPattern';
import { EVERY_TOOL, ruleNamesTool, type CommandPattern, type PermissionRule } from './ruleSyntax';
import type { CommandWord, SimpleCommandPart } from '../shell/shellSplit';

/** `maybe`: the part has words only known at run time where the rule compares words. */
export type RuleMatch = 'yes' | 'no' | 'maybe';

/** Rules on these tools cover every tool that writes (or reads) a file, as in Claude Code. */
export const EDIT_RULE_TOOLS: ReadonlySet<string> = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
export const READ_RULE_TOOLS: ReadonlySet<string> = new Set(['Read']);

/** One thing a call touches, checked on its own; a call is allowed only when all of them are. */
export type Check =
  | { readonly kind: 'tool' }
  | {
      readonly kind: 'command';
      readonly part: SimpleCommandPart;
      /** Every simple command of the line, in order: what a whole-line rule is compared with. */
      readonly line?: readonly SimpleCommandPart[];
    }
  | {
      readonly kind: 'path';
      readonly path: ResolvedPath;
      readonly access: 'read' | 'write';
      /** A redirection inside a command: only Read/Edit rules apply, not the command tool's. */
      readonly fromCommand: boolean;
      /** The redirection's target as written, when the path comes from one (`> out.log`). */
      readonly redirectTarget?: string;
    }
  | { readonly kind: 'artifact'; readonly access: 'read' | 'write'; readonly uri: string }
  | { readonly kind: 'url'; readonly url: URL | undefined; readonly raw: string }
  | { readonly kind: 'opaque'; readonly reason: string; readonly redirect?: 'read' | 'write' }
  /**
   * An argument of an allowed command that may name any file (only known at run time): asks, unless an
   * exact rule names the command as written (`Bash(export PATH="/x:$PATH")`).
   */
  | { readonly kind: 'argument'; readonly reason: string; readonly command?: SimpleCommandPart };

/** Does `rule` speak about this check of a call to `toolName`? */
export function ruleApplies(rule: PermissionRule, check: Check, toolName: string): boolean {
  if (rule.tool === EVERY_TOOL) return true;
  switch (check.kind) {
    case 'command':
    case 'opaque':
      return ruleNamesTool(rule.tool, toolName) || rule.tool === 'Bash';
    case 'path':
      if (rule.command?.redirect && check.redirectTarget !== undefined && ruleNamesTool(rule.tool, toolName)) return true;
      return pathRuleApplies(rule, check, toolName);
    case 'artifact':
      return pathRuleApplies(rule, check, toolName);
    case 'url':
      return ruleNamesTool(rule.tool, toolName) || rule.tool === 'WebFetch';
    case 'tool':
      return ruleNamesTool(rule.tool, toolName);
    case 'argument':
      return false;
  }
}

function pathRuleApplies(rule: PermissionRule, check: Check & { kind: 'path' | 'artifact' }, toolName: string): boolean {
  const aliases = check.access === 'write' ? EDIT_RULE_TOOLS : READ_RULE_TOOLS;
  return aliases.has(rule.tool) || (check.kind === 'path' && !check.fromCommand && ruleNamesTool(rule.tool, toolName));
}

/**
 * Does the rule cover the check? `all` asks whether every real location matches (allow rules);
 * otherwise any location, the lexical one included, is enough (deny and ask rules).
 */
/** Whether an allow rule names this command exactly as written, run-time words included: nothing to guess. */
export function exactRuleCovers(rule: PermissionRule, part: SimpleCommandPart): boolean {
  const pattern = rule.command?.pattern;
  if (!pattern || pattern.rest || pattern.wildcard || pattern.openQuote || rule.command?.line) return false;
  return matchCommand(rule.command!, part.words, false) === 'yes';
}

export function ruleMatches(rule: PermissionRule, check: Check, folders: readonly string[], all: boolean): RuleMatch {
  if (rule.content === undefined && rule.exactPath === undefined) return 'yes';
  switch (check.kind) {
    case 'command':
      if (!rule.command || rule.command.redirect) return 'no';
      if (rule.command.line) return matchLine(rule.command.line, check.line ?? [check.part], !all);
      return matchCommand(rule.command, check.part.words, !all);
    case 'opaque':
      // The command could not be split: a rule on its words might apply; only a whole-tool rule decides.
      if (rule.command?.redirect && check.redirect !== undefined && check.redirect !== rule.command.redirect.access) return 'no';
      return rule.command && !all ? 'maybe' : 'no';
    case 'path': {
      if (rule.command?.redirect) {
        if (check.redirectTarget === undefined || check.access !== rule.command.redirect.access) return 'no';
        const target = { value: check.redirectTarget, literal: true, text: check.redirectTarget };
        return matchTokens(rule.command.redirect.target, commandInput([target])).full || matchTokens(rule.command.redirect.target, check.path.lexical).full ? 'yes' : 'no';
      }
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
 * Compares a rule with one simple command. For deny and ask rules (`skipAssignments`), leading
 * `NAME=value` words are skipped, so `X=1 rm -rf /` still meets `Bash(rm:*)`, and a command whose
 * words are only known at run time is `maybe` when its known start could match; for allow rules
 * assignments count (`PATH=...` changes what runs) and the program must be named as written.
 */
export function matchCommand(pattern: CommandPattern, allWords: readonly CommandWord[], skipAssignments: boolean): RuleMatch {
  let start = 0;
  if (skipAssignments) {
    while (start < allWords.length && /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(allWords[start]!.text)) start += 1;
  }
  return matchWords(compiledPattern(pattern), allWords.slice(start), skipAssignments);
}

function compiledPattern(pattern: CommandPattern): WordPattern {
  return pattern.pattern ?? compileWordPattern(pattern.words.map(quoteWord).join(' '), pattern.prefix);
}

/** A word built in code is plain: quoted so nothing in it reads as a wildcard. */
function quoteWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function matchWords(pattern: WordPattern, words: readonly CommandWord[], mayBe: boolean): RuleMatch {
  const nameAt = words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(word.text));
  const name = nameAt < 0 ? undefined : words[nameAt];
  // A leading `*` never stands for `PATH=…` words, which change what runs: an allow rule must write them.
  const knownName = name !== undefined && (name.literal || isTildeWord(name)) && (mayBe || nameAt === 0 || !startsWithWildcard(pattern));
  const result = matchTokens(pattern, commandInput(words));
  if (result.full && knownName && (mayBe || openQuoteHolds(pattern, words))) return 'yes';
  if (!mayBe) return 'no';
  if (result.full) return 'maybe';
  // The words known before the first run-time one: could the rest make it match?
  const known = words.findIndex((word) => !word.literal && !isTildeWord(word));
  if (known < 0) return 'no';
  // Run-time words may expand to nothing (`git status $X` is `git status` when X is empty).
  const mayVanish = known > 0 && words.slice(known).every((word) => !word.literal && !isTildeWord(word));
  if (mayVanish && matchTokens(pattern, commandInput(words.slice(0, known))).full) return 'maybe';
  const prefix = commandInput(words.slice(0, known)) + (known > 0 ? WORD_BOUNDARY : '');
  return matchTokens(pattern, prefix).viable ? 'maybe' : 'no';
}

function startsWithWildcard(pattern: WordPattern): boolean {
  return pattern.tokens[0] === compileWordPattern('*', false).tokens[0];
}

/**
 * A rule holding a whole command line. An allow rule matches a line of exactly its commands, each
 * matching in turn; a deny or ask rule matches a line holding each of its commands somewhere.
 */
function matchLine(line: readonly WordPattern[], commands: readonly SimpleCommandPart[], mayBe: boolean): RuleMatch {
  const parts = commands.filter((part) => !part.denyOnly);
  if (!mayBe) {
    if (parts.length !== line.length) return 'no';
    return line.every((pattern, index) => matchWords(pattern, parts[index]!.words, false) === 'yes') ? 'yes' : 'no';
  }
  let result: RuleMatch = 'yes';
  for (const pattern of line) {
    const matches = parts.map((part) => matchWords(pattern, part.words, true));
    if (matches.includes('yes')) continue;
    if (!matches.includes('maybe')) return 'no';
    result = 'maybe';
  }
  return result;
}

/** `example.com` matches that host; `*.example.com` matches its subdomains. */
export function domainMatches(domain: string, hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (domain.startsWith('*.')) return host.endsWith(domain.slice(1));
  return host === domain;
}
