// Finding secrets in text: every rule's matches, resolved to non-overlapping spans, then replaced.
import type { RedactionRule } from './rules';

export interface SecretMatch {
  /** The whole match: a stream never cuts inside it. */
  readonly start: number;
  readonly end: number;
  /** The masked part. */
  readonly secretStart: number;
  readonly secretEnd: number;
  readonly rule: string;
}

/** Non-overlapping matches, by position; at one place the earlier rule, then the longer match, wins. */
export function findSecrets(text: string, rules: readonly RedactionRule[]): SecretMatch[] {
  const found: Array<SecretMatch & { order: number }> = [];
  rules.forEach((rule, order) => {
    const pattern = rule.pattern;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (match[0].length === 0) {
        pattern.lastIndex++;
        continue;
      }
      const start = match.index;
      const end = start + match[0].length;
      const span = rule.group ? match.indices?.[rule.group] : undefined;
      const [secretStart, secretEnd] = span ?? [start, end];
      if (secretEnd > secretStart) found.push({ start, end, secretStart, secretEnd, rule: rule.name, order });
    }
  });
  found.sort((a, b) => a.start - b.start || a.order - b.order || b.end - a.end);
  const chosen: SecretMatch[] = [];
  let reached = 0;
  for (const match of found) {
    if (match.start < reached) continue;
    chosen.push({ start: match.start, end: match.end, secretStart: match.secretStart, secretEnd: match.secretEnd, rule: match.rule });
    reached = match.end;
  }
  return chosen;
}

/** `text[from, to)` with each secret inside it replaced by `[REDACTED:<rule>]`. */
export function replaceSecrets(text: string, matches: readonly SecretMatch[], from = 0, to = text.length): string {
  let out = '';
  let position = from;
  for (const match of matches) {
    if (match.start < from || match.end > to) continue;
    out += text.slice(position, match.secretStart) + `[REDACTED:${match.rule}]`;
    position = match.secretEnd;
  }
  return out + text.slice(position, to);
}
