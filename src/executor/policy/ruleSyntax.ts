// Permission rules in the syntax Claude Code users already write (policy issue §2):
// `Read`, `Bash(npm test:*)` (prefix), `Bash(git status)` (exact), `Edit(src/**)` (glob),
// `WebFetch(domain:example.com)`, `mcp__server` (every tool of an MCP server).
import { splitCommand } from './shellSplit';

export type RuleBehavior = 'allow' | 'ask' | 'deny';

/** Where a rule comes from; a workspace rule never loosens a user deny (deny always wins). */
export type RuleSource = 'user' | 'workspace' | 'session' | 'cli';

/** A command rule, compared word by word with the literal words of each simple command. */
export interface CommandPattern {
  readonly words: readonly string[];
  /** `:*` (or a trailing ` *`): any further words may follow. */
  readonly prefix: boolean;
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

/** Parses one rule string; errors are values (the settings loader reports them). */
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
  const command = parseCommandPattern(content);
  if (COMMAND_RULE_TOOLS.has(tool) && !command) {
    return { ok: false, error: `rule '${text}': the command must be one simple command of plain words, optionally ending in :*` };
  }
  return { ok: true, rule: command ? { ...base, command } : base };
}

/** `npm test:*` → prefix [npm, test]; `git status` → exact [git, status]. Undefined when not a plain command. */
export function parseCommandPattern(content: string): CommandPattern | undefined {
  let body = content;
  let prefix = false;
  if (body.endsWith(':*')) {
    body = body.slice(0, -2);
    prefix = true;
  } else if (body.endsWith(' *')) {
    body = body.slice(0, -2);
    prefix = true;
  }
  if (body.trim() === '') return undefined;
  const split = splitCommand(body);
  if (!split.ok) return undefined;
  const first = split.parts[0];
  if (!first || first.kind !== 'command' || split.parts.some((part) => part.kind === 'redirect')) return undefined;
  if (split.parts.length > 1 && !isWrapperExpansion(split.parts)) return undefined;
  if (!first.words.every((word) => word.literal)) return undefined;
  return { words: first.words.map((word) => word.value), prefix };
}

/** `sudo rm` splits into `sudo rm` and `rm`: still one command as written. */
function isWrapperExpansion(parts: readonly { kind: string; text?: string }[]): boolean {
  const first = parts[0] as { text: string };
  return parts.slice(1).every((part) => part.kind === 'command' && first.text.endsWith(part.text ?? '\u0000'));
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
