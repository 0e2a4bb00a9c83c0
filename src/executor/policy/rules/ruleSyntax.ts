// Permission rules in the syntax Claude Code users already write:
// `Read`, `Bash(npm test:*)` (prefix), `Bash(git status)` (exact), `Edit(src/**)` (glob),
// `WebFetch(domain:example.com)`, `mcp__server` (every tool of an MCP server).
import { compileWordPattern, hasShellOperator, splitRest, type WordPattern } from './commandPattern';
import { splitCommand } from '../shell/shellSplit';

export type RuleBehavior = 'allow' | 'ask' | 'deny';

/** Where a rule comes from; a workspace rule never loosens a user deny (deny always wins). */
export type RuleSource = 'user' | 'workspace' | 'session' | 'cli';

/** A command rule: a pattern for one simple command, a whole command line, or a redirection. */
export interface CommandPattern {
  /** The words as written (for messages and plain rules built in code). */
  readonly words: readonly string[];
  /** `:*` (or a trailing ` *`): any further words may follow. */
  readonly prefix: boolean;
  /** The compiled pattern; built from `words` and `prefix` when absent. */
  readonly pattern?: WordPattern;
  /** A rule holding a whole command line: its simple commands, in order. */
  readonly line?: readonly WordPattern[];
  /** A redirection-only rule (`> *`, `>>:*`): the redirections it names. */
  readonly redirect?: { readonly access: 'read' | 'write'; readonly target: WordPattern };
}

export interface PermissionRule {
  /** As written, for messages and the decision record. */
  readonly text: string;
  readonly behavior: RuleBehavior;
  readonly source: RuleSource;
  readonly tool: string;
  /** What is inside the parentheses; undefined for a rule on the whole tool. */
  readonly content?: string;
  /** The content read as a command pattern, when it is one. */
  readonly command?: CommandPattern;
  /** `domain:example.com` (lower case; `*.example.com` for subdomains). */
  readonly domain?: string;
  /** Set on session rules for one exact, already resolved, path. */
  readonly exactPath?: string;
}

export type RuleParse = { readonly ok: true; readonly rule: PermissionRule } | { readonly ok: false; readonly error: string };

const TOOL_NAME = /^[A-Za-z0-9_.\-*]+$/;
/** A deny or ask rule on every tool: what a broken settings section becomes (fail closed). */
export const EVERY_TOOL = '*';
/** Tools whose rule content is a command line (others' content is a path or a domain). */
export const COMMAND_RULE_TOOLS: ReadonlySet<string> = new Set(['Bash']);

/** Parses one rule string; errors are values (the policy skips the rule, or reads a deny conservatively). */
export function parseRule(text: string, behavior: RuleBehavior, source: RuleSource): RuleParse {
  const trimmed = text.trim();
  const open = trimmed.indexOf('(');
  if (open < 0) {
    if (trimmed === EVERY_TOOL && behavior === 'allow') return { ok: false, error: `rule '${text}': an allow rule must name a tool` };
    if (!TOOL_NAME.test(trimmed)) return { ok: false, error: `rule '${text}' is not a tool name or Tool(specifier)` };
    return { ok: true, rule: { text: trimmed, behavior, source, tool: trimmed } };
  }
  if (!trimmed.endsWith(')')) return { ok: false, error: `rule '${text}' has no closing parenthesis` };
  const tool = trimmed.slice(0, open);
  if (!TOOL_NAME.test(tool)) return { ok: false, error: `rule '${text}' does not start with a tool name` };
  const content = trimmed.slice(open + 1, -1).trim();
  if (content === '' || content === '*') return { ok: true, rule: { text: trimmed, behavior, source, tool } };
  const base = { text: trimmed, behavior, source, tool, content };
  if (content.startsWith('domain:')) {
    const domain = content.slice('domain:'.length).trim().toLowerCase();
    if (domain === '') return { ok: false, error: `rule '${text}' names no domain` };
    return { ok: true, rule: { ...base, domain } };
  }
  const read = readCommandPattern(content);
  if (COMMAND_RULE_TOOLS.has(tool)) {
    if (!read.ok) return { ok: false, error: `rule '${text}': ${read.error}` };
    if (read.cut && behavior === 'allow') return { ok: false, error: `rule '${text}': a quote is left open with no * after it` };
    // Any command could ride along a `*` in a rule of several commands: only exact lines may allow.
    if (read.pattern.line && behavior === 'allow' && (read.pattern.prefix || read.pattern.line.some((part) => part.wildcard))) {
      return { ok: false, error: `rule '${text}': a rule holding several commands may allow only an exact line, with no *` };
    }
  }
  return { ok: true, rule: read.ok ? { ...base, command: read.pattern } : base };
}

export type PatternRead = { readonly ok: true; readonly pattern: CommandPattern; readonly cut: boolean } | { readonly ok: false; readonly error: string };

/** A redirection-only pattern: `> *`, `>>:*`, `2> /tmp/*`. */
const REDIRECT_ONLY = /^(?:\*\s*)?\d*(>>|>\||&>>|&>|>|<)\s*([^<>&|;]*)$/;

/**
 * Reads the content of a command rule: `npm test:*`, `git * main`, `ls*`, `python3 -c ' *`,
 * `cd api && npm run verify:api`, `> *`. An error when it cannot be read at all.
 */
export function readCommandPattern(content: string): PatternRead {
  const redirect = REDIRECT_ONLY.exec(content.trim());
  if (redirect) {
    const target = splitRest(redirect[2]!.trim());
    const access = redirect[1] === '<' ? 'read' : 'write';
    const pattern = target.body.trim() === '' ? compileWordPattern('*', false) : compileWordPattern(target.body, target.rest);
    return { ok: true, cut: false, pattern: { words: [content.trim()], prefix: false, redirect: { access, target: pattern } } };
  }
  const { body, rest } = splitRest(content);
  if (body.trim() === '') return { ok: false, error: 'the pattern names no command' };
  const words = body.trim().split(/\s+/);
  if (hasShellOperator(body)) {
    const split = splitCommand(body);
    if (!split.ok) return { ok: false, error: `the command line does not parse (${split.reason})` };
    const commands = split.parts.filter((part) => part.kind === 'command' && !part.denyOnly);
    if (commands.length === 0) return { ok: false, error: 'the pattern names no command' };
    const line = commands.map((part, index) => compileWordPattern(part.kind === 'command' ? part.text : '', index === commands.length - 1 && rest));
    if (line.length === 1) return { ok: true, cut: false, pattern: { words, prefix: rest, pattern: line[0] } };
    return { ok: true, cut: false, pattern: { words, prefix: rest, line } };
  }
  const pattern = compileWordPattern(body, rest);
  if (pattern.tokens.length === 0) return { ok: false, error: 'the pattern names no command' };
  return { ok: true, cut: pattern.unterminated === true, pattern: { words, prefix: rest, pattern } };
}

/** `npm test:*` → prefix [npm, test]; `git status` → exact [git, status]. Undefined when it cannot be read. */
export function parseCommandPattern(content: string): CommandPattern | undefined {
  const read = readCommandPattern(content);
  return read.ok ? read.pattern : undefined;
}

/**
 * The most conservative reading of a deny or ask command rule that cannot be read: the words before
 * the first thing we cannot read, followed by anything (`rm -rf "/x` → `rm -rf *`). It denies every
 * command the rule could have meant, and more; Claude Code skips such a rule, so it never allows more.
 * Undefined when nothing at its start can be read: the caller then asks for every call of the tool.
 */
export function conservativeCommandPattern(content: string): CommandPattern | undefined {
  const cut = /['"\\;&|<>()`$\n]/.exec(content);
  const readable = (cut ? content.slice(0, cut.index) : content).replace(/:?\*?$/, '');
  const words = readable.trim().split(/\s+/).filter((word) => word !== '');
  if (words.length === 0) return undefined;
  return { words, prefix: true, pattern: compileWordPattern(`${readable.trimStart()}*`, false) };
}

/** Does the rule name this tool? `mcp__server` and `mcp__server__*` cover the server's tools. */
export function ruleNamesTool(ruleTool: string, toolName: string): boolean {
  if (ruleTool === toolName || ruleTool === EVERY_TOOL) return true;
  if (ruleTool.startsWith('mcp__')) {
    const server = ruleTool.endsWith('__*') ? ruleTool.slice(0, -3) : ruleTool;
    return server.split('__').length === 2 && toolName.startsWith(`${server}__`);
  }
  return false;
}
