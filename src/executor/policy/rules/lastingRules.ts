// "Allow in this workspace" writes a session rule's text to a settings file, where it is read again as a
// pattern (ruleSyntax.ts, pathMatch.ts). The text must cover exactly what the session rule covers, as the
// session rule did: the one resolved path (its glob characters escaped), the command's words, the domain, or
// the whole tool. A text that would read back as anything else is not written.
import { isDeepStrictEqual } from 'node:util';
import { isLiteralGlob, parsePathPattern, pathPatternMatches } from '../path/pathMatch';
import { parseRule, type PermissionRule } from './ruleSyntax';

/** The rule's text when it reads back as exactly the same rule; undefined when it would not. */
export function lastingRuleText(rule: PermissionRule): string | undefined {
  const parsed = parseRule(rule.text, 'allow', 'workspace');
  if (!parsed.ok || parsed.rule.tool !== rule.tool) return undefined;
  const back = parsed.rule;
  if (rule.exactPath !== undefined) {
    if (back.content === undefined) return undefined;
    const pattern = parsePathPattern(back.content);
    const exact = pattern.anchor === 'absolute' && isLiteralGlob(pattern.glob) && pathPatternMatches(pattern, rule.exactPath, []);
    return exact ? rule.text : undefined;
  }
  if (rule.command) return commandReadsBack(back.command, rule.command.words) ? rule.text : undefined;
  if (rule.domain !== undefined) return back.domain === rule.domain ? rule.text : undefined;
  return rule.content === undefined && back.content === undefined ? rule.text : undefined;
}

/** Whether a command rule read back is literal and names exactly these words (no `*`, no prefix, one command). */
function commandReadsBack(back: PermissionRule['command'], words: readonly string[]): boolean {
  const pattern = back?.pattern;
  if (!back || back.prefix || back.line || back.redirect || !pattern || pattern.rest || pattern.wildcard || pattern.openQuote !== undefined) return false;
  return isDeepStrictEqual([...pattern.tokens], Array.from(words.join('\u0000')));
}

/** The texts of these rules, or undefined when any of them cannot be written exactly (then none is). */
export function lastingRuleTexts(rules: readonly PermissionRule[]): string[] | undefined {
  const texts = rules.map(lastingRuleText);
  return texts.length > 0 && texts.every((text) => text !== undefined) ? (texts as string[]) : undefined;
}
