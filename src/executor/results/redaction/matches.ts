// Finding secrets in text: every rule's matches, resolved to non-overlapping spans, then replaced.
// One regex scan finds every rule's trigger (issue 13: one pass instead of one per rule); each
// rule's own pattern then runs anchored where its trigger says a match may start. Rules with no
// trigger (environment values, user patterns) scan the whole text on their own.
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

export interface Triggered {
  readonly rule: RedactionRule;
  readonly order: number;
  /** The rule's pattern, sticky: it matches only where `lastIndex` points. */
  readonly sticky: RegExp;
}

/** Rules prepared once: the trigger scan and the rules behind each of its groups. */
export interface CompiledRules {
  readonly scan: RegExp | undefined;
  /** Group `i + 1` of `scan` → the rules it triggers, in rule order. */
  readonly byGroup: readonly (readonly Triggered[])[];
  /**
   * Triggers that are single chars (`[:=]`): found with `indexOf`, which is several times faster
   * than a regex alternative that hits at every `:` of a source file.
   */
  readonly byChar: ReadonlyArray<{ readonly char: string; readonly rules: readonly Triggered[] }>;
  readonly whole: ReadonlyArray<{ readonly rule: RedactionRule; readonly order: number }>;
}

export function compileRules(rules: readonly RedactionRule[]): CompiledRules {
  const sources: string[] = [];
  const byGroup: Triggered[][] = [];
  const byChar: Array<{ char: string; rules: Triggered[] }> = [];
  const whole: Array<{ rule: RedactionRule; order: number }> = [];
  rules.forEach((rule, order) => {
    if (rule.trigger === undefined) {
      whole.push({ rule, order });
      return;
    }
    const sticky = new RegExp(rule.pattern.source, `${rule.pattern.flags.replace(/[gy]/g, '')}y`);
    const chars = singleChars(rule.trigger);
    if (chars) {
      for (const char of chars) {
        let entry = byChar.find((candidate) => candidate.char === char);
        if (!entry) byChar.push((entry = { char, rules: [] }));
        entry.rules.push({ rule, order, sticky });
      }
      return;
    }
    let group = sources.indexOf(rule.trigger);
    if (group < 0) {
      group = sources.push(rule.trigger) - 1;
      byGroup.push([]);
    }
    byGroup[group]!.push({ rule, order, sticky });
  });
  // Rules with the same `startAt` next to each other, so it runs once per hit (order is restored when matches are sorted).
  const firstSeen = new Map<unknown, number>();
  for (const entry of byChar) {
    for (const { rule } of entry.rules) if (!firstSeen.has(rule.startAt)) firstSeen.set(rule.startAt, firstSeen.size);
    entry.rules.sort((a, b) => firstSeen.get(a.rule.startAt)! - firstSeen.get(b.rule.startAt)!);
  }
  const scan = sources.length === 0 ? undefined : new RegExp(sources.map((source) => `(${source})`).join('|'), 'g');
  return { scan, byGroup, byChar, whole };
}

/** `:` → [':'], `[:=]` → [':', '='] for a class of plain chars; undefined for anything else. */
function singleChars(trigger: string): string[] | undefined {
  if (/^[^\\[\](){}.*+?^$|]$/.test(trigger)) return [trigger];
  const klass = /^\[([^\\\]^-]+)\]$/.exec(trigger);
  return klass ? [...klass[1]!] : undefined;
}

type Found = SecretMatch & { order: number };

/**
 * Where rules are to be tried in a text: trigger hits, each with the rules it triggers (in rule order,
 * those sharing a `startAt` in a row). `fromScan` marks hits of the trigger regex (as opposed to single chars).
 */
export interface TriggerHits {
  readonly positions: number[];
  readonly rules: (readonly Triggered[])[];
  readonly fromScan: boolean[];
}

export function emptyTriggerHits(): TriggerHits {
  return { positions: [], rules: [], fromScan: [] };
}

/**
 * Adds to `hits` the trigger regex's hits from `scanFrom` on and the single-char triggers' from `charsFrom` on.
 * A stream that keeps the hits of text it scanned before scans only what is new (see `HoldbackStream`).
 */
export function findTriggers(text: string, compiled: CompiledRules, hits: TriggerHits, scanFrom = 0, charsFrom = 0): void {
  visitTriggers(text, compiled, scanFrom, charsFrom, (at, rules, fromScan) => {
    hits.positions.push(at);
    hits.rules.push(rules);
    hits.fromScan.push(fromScan);
  });
}

/** Calls `visit` at each trigger hit: the trigger regex's from `scanFrom` on, then the single chars' from `charsFrom` on. */
function visitTriggers(
  text: string,
  compiled: CompiledRules,
  scanFrom: number,
  charsFrom: number,
  visit: (at: number, rules: readonly Triggered[], fromScan: boolean) => void,
): void {
  const scan = compiled.scan;
  if (scan) {
    scan.lastIndex = scanFrom;
    for (let hit = scan.exec(text); hit !== null; hit = scan.exec(text)) {
      let group = 1;
      while (hit[group] === undefined) group++;
      visit(hit.index, compiled.byGroup[group - 1]!, true);
    }
  }
  for (const { char, rules } of compiled.byChar) {
    for (let at = text.indexOf(char, charsFrom); at >= 0; at = text.indexOf(char, at + 1)) visit(at, rules, false);
  }
}

/**
 * Non-overlapping matches, by position; at one place the earlier rule, then the longer match, wins.
 * The rules are tried at each hit as it is found: a whole text needs no list of its hits (a stream,
 * which keeps the hits of what it holds back, uses `findTriggers` and `matchesAt`).
 */
export function findSecrets(text: string, compiled: CompiledRules): SecretMatch[] {
  const found: Found[] = [];
  visitTriggers(text, compiled, 0, 0, (at, rules) => tryRulesAt(text, at, rules, found));
  return chosenMatches(text, compiled, found);
}

/** The rules tried at each of `hits`, and the untriggered rules over the whole text: non-overlapping matches, by position. */
export function matchesAt(text: string, compiled: CompiledRules, hits: TriggerHits): SecretMatch[] {
  const found: Found[] = [];
  for (let index = 0; index < hits.positions.length; index++) tryRulesAt(text, hits.positions[index]!, hits.rules[index]!, found);
  return chosenMatches(text, compiled, found);
}

/** The rules a trigger hit at `at` triggers; rules sharing a `startAt` (in a row) ask it once. */
function tryRulesAt(text: string, at: number, rules: readonly Triggered[], found: Found[]): void {
  let lastStartAt: RedactionRule['startAt'];
  let start = -1;
  let first = true;
  for (const triggered of rules) {
    const startAt = triggered.rule.startAt;
    if (first || startAt !== lastStartAt) {
      first = false;
      lastStartAt = startAt;
      start = startAt ? startAt(text, at) : at;
    }
    if (start >= 0) matchAt(text, start, triggered, found);
  }
}

/** The untriggered rules over the whole text too, then the matches that win, by position. */
function chosenMatches(text: string, compiled: CompiledRules, found: Found[]): SecretMatch[] {
  for (const { rule, order } of compiled.whole) {
    const pattern = rule.pattern;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (match[0].length === 0) {
        pattern.lastIndex++;
        continue;
      }
      push(found, rule, order, match, text);
    }
  }
  if (found.length === 0) return [];
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

function matchAt(text: string, start: number, { rule, order, sticky }: Triggered, found: Found[]): void {
  sticky.lastIndex = start;
  const match = sticky.exec(text);
  if (match === null || match[0].length === 0) return;
  push(found, rule, order, match, text);
}

function push(found: Found[], rule: RedactionRule, order: number, match: RegExpExecArray, text: string): void {
  if (rule.accept && !rule.accept(match, text)) return;
  const start = match.index;
  const end = start + match[0].length;
  const span = rule.group ? match.indices?.[rule.group] : undefined;
  const [secretStart, secretEnd] = span ?? [start, end];
  if (secretEnd > secretStart) found.push({ start, end, secretStart, secretEnd, rule: rule.name, order });
}

/** `text[from, to)` with each secret inside it replaced by `[REDACTED:<rule>]`. */
export function replaceSecrets(text: string, matches: readonly SecretMatch[], from = 0, to = text.length): string {
  if (matches.length === 0) return from === 0 && to === text.length ? text : text.slice(from, to);
  let out = '';
  let position = from;
  for (const match of matches) {
    if (match.start < from || match.end > to) continue;
    out += text.slice(position, match.secretStart) + `[REDACTED:${match.rule}]`;
    position = match.secretEnd;
  }
  return out + text.slice(position, to);
}
