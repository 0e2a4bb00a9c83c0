// Finding secrets in text: every rule's matches, resolved to non-overlapping spans, then replaced.
// Each rule names a trigger; the scan finds every trigger hit, and each rule's own pattern then runs
// anchored where its trigger says a match may start. Rules with no trigger (environment values, user
// patterns) scan the whole text on their own.
// For speed, the scan is native `indexOf` wherever it can be: a trigger with anchors (literals that
// start with a rare char) is found by them, a single-char trigger (`[:=]`) by that char; only
// triggers without anchors share one regex alternation, which runs at a fraction of that speed.
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

/** Rules that share a trigger and a `startAt`, in rule order: `startAt` runs once per hit for all of them. */
export interface RuleGroup {
  readonly startAt: RedactionRule['startAt'];
  readonly rules: readonly Triggered[];
}

/** One anchor literal: at each place it is found, the triggers it may belong to are checked. */
interface AnchorScan {
  readonly literal: string;
  readonly probes: ReadonlyArray<{
    /** How far into a trigger match the literal sits. */
    readonly offset: number;
    /** The trigger, sticky: whether a trigger match starts at the literal's place minus `offset`. */
    readonly trigger: RegExp;
    readonly groups: readonly RuleGroup[];
  }>;
}

/** Rules prepared once: how each trigger is found, and the rules behind it. */
export interface CompiledRules {
  /** The triggers that have no anchors, in one alternation (one capture group each). */
  readonly scan: RegExp | undefined;
  /** Group `i + 1` of `scan` → the rules it triggers. */
  readonly byGroup: readonly (readonly RuleGroup[])[];
  readonly anchors: readonly AnchorScan[];
  /** The longest anchor literal's length (at least 1). */
  readonly longestAnchor: number;
  /** Triggers that are single chars (`[:=]`), found with `indexOf`. */
  readonly byChar: ReadonlyArray<{ readonly char: string; readonly groups: readonly RuleGroup[] }>;
  readonly whole: ReadonlyArray<{ readonly rule: RedactionRule; readonly order: number }>;
}

export function compileRules(rules: readonly RedactionRule[]): CompiledRules {
  // 1. Rules by trigger and anchors (rules with the same trigger but other anchors are scanned apart).
  const triggers = new Map<string, { trigger: string; anchors: RedactionRule['anchors']; rules: Triggered[] }>();
  const whole: Array<{ rule: RedactionRule; order: number }> = [];
  rules.forEach((rule, order) => {
    if (rule.trigger === undefined) {
      whole.push({ rule, order });
      return;
    }
    const sticky = new RegExp(rule.pattern.source, `${rule.pattern.flags.replace(/[gy]/g, '')}y`);
    const key = `${rule.trigger}\u0000${JSON.stringify(rule.anchors ?? [])}`;
    let entry = triggers.get(key);
    if (!entry) triggers.set(key, (entry = { trigger: rule.trigger, anchors: rule.anchors, rules: [] }));
    entry.rules.push({ rule, order, sticky });
  });
  // 2. Each trigger goes to the fastest scan that finds it: its char, its anchors, or the alternation.
  const sources: string[] = [];
  const byGroup: RuleGroup[][] = [];
  const anchors = new Map<string, Array<AnchorScan['probes'][number]>>();
  const byChar: Array<{ char: string; groups: RuleGroup[] }> = [];
  for (const { trigger, anchors: literals, rules: triggered } of triggers.values()) {
    const groups = groupByStartAt(triggered);
    const chars = singleChars(trigger);
    if (chars) {
      for (const char of chars) {
        let entry = byChar.find((candidate) => candidate.char === char);
        if (!entry) byChar.push((entry = { char, groups: [] }));
        entry.groups.push(...groups);
      }
    } else if (literals && literals.length > 0) {
      const sticky = new RegExp(trigger, 'y');
      for (const [literal, offset] of literals) {
        let probes = anchors.get(literal);
        if (!probes) anchors.set(literal, (probes = []));
        probes.push({ offset, trigger: sticky, groups });
      }
    } else {
      sources.push(trigger);
      byGroup.push(groups);
    }
  }
  const scan = sources.length === 0 ? undefined : new RegExp(sources.map((source) => `(${source})`).join('|'), 'g');
  const longestAnchor = Math.max(1, ...[...anchors.keys()].map((literal) => literal.length));
  return { scan, byGroup, anchors: [...anchors].map(([literal, probes]) => ({ literal, probes })), longestAnchor, byChar, whole };
}

/** Rules with the same `startAt` together, each group in rule order (order is restored when matches are sorted). */
function groupByStartAt(triggered: readonly Triggered[]): RuleGroup[] {
  const groups: Array<{ startAt: RedactionRule['startAt']; rules: Triggered[] }> = [];
  for (const entry of triggered) {
    const group = groups.find((candidate) => candidate.startAt === entry.rule.startAt);
    if (group) group.rules.push(entry);
    else groups.push({ startAt: entry.rule.startAt, rules: [entry] });
  }
  return groups;
}

/** `:` → [':'], `[:=]` → [':', '='] for a class of plain chars; undefined for anything else. */
function singleChars(trigger: string): string[] | undefined {
  if (/^[^\\[\](){}.*+?^$|]$/.test(trigger)) return [trigger];
  const klass = /^\[([^\\\]^-]+)\]$/.exec(trigger);
  return klass ? [...klass[1]!] : undefined;
}

type Found = SecretMatch & { order: number };

/**
 * A text is scanned in blocks of this many chars, each literal and char over one block before the
 * next: the block stays in the CPU's cache while all of them are looked for in it (32 Ki chars, 64 KiB
 * as UTF-16, fit in the L2 cache of any current CPU). Looking for each literal over a whole 10 MiB
 * text streamed it from memory once per literal (docs/MEASUREMENTS.md, "Redaction").
 */
export const SCAN_BLOCK_CHARS = 32 * 1024;

/** Where the scan is to look: trigger matches starting at or after `from`, single chars in [`charsFrom`, `charsTo`). */
export interface ScanRange {
  readonly from: number;
  readonly charsFrom: number;
  readonly charsTo: number;
}

/**
 * Calls `visit` at each trigger hit in `range` whose `startAt` allows a match: `at` where the trigger
 * was found, `start` where the group's rules are to be tried, `fromChar` for single-char hits. Hits
 * come by kind, not by position.
 */
export function scanTriggers(
  text: string,
  compiled: CompiledRules,
  range: ScanRange,
  visit: (at: number, start: number, group: RuleGroup, fromChar: boolean) => void,
): void {
  const scan = compiled.scan;
  if (scan) {
    scan.lastIndex = range.from;
    for (let hit = scan.exec(text); hit !== null; hit = scan.exec(text)) {
      let group = 1;
      while (hit[group] === undefined) group++;
      visitGroups(text, hit.index, compiled.byGroup[group - 1]!, false, visit);
    }
  }
  // Block by block, every literal and char in one block before the next (a slice is a view, not a copy).
  const from = Math.min(range.from, range.charsFrom);
  for (let blockStart = from; blockStart < text.length; blockStart += SCAN_BLOCK_CHARS) {
    const blockEnd = Math.min(text.length, blockStart + SCAN_BLOCK_CHARS);
    // A literal that starts in the block may end past it.
    const block = blockStart === 0 && blockEnd + compiled.longestAnchor > text.length ? text : text.slice(blockStart, blockEnd + compiled.longestAnchor - 1);
    const size = blockEnd - blockStart;
    for (const { literal, probes } of compiled.anchors) {
      for (let found = block.indexOf(literal); found >= 0 && found < size; found = block.indexOf(literal, found + 1)) {
        for (const { offset, trigger, groups } of probes) {
          const at = blockStart + found - offset;
          if (at < range.from) continue;
          trigger.lastIndex = at;
          if (trigger.test(text)) visitGroups(text, at, groups, false, visit);
        }
      }
    }
    const charsFrom = Math.max(0, range.charsFrom - blockStart);
    const charsTo = Math.min(size, range.charsTo - blockStart);
    for (const { char, groups } of compiled.byChar) {
      for (let found = block.indexOf(char, charsFrom); found >= 0 && found < charsTo; found = block.indexOf(char, found + 1)) visitGroups(text, blockStart + found, groups, true, visit);
    }
  }
}

function visitGroups(
  text: string,
  at: number,
  groups: readonly RuleGroup[],
  fromChar: boolean,
  visit: (at: number, start: number, group: RuleGroup, fromChar: boolean) => void,
): void {
  for (const group of groups) {
    const start = group.startAt ? group.startAt(text, at) : at;
    if (start >= 0) visit(at, start, group, fromChar);
  }
}

/**
 * Non-overlapping matches, by position; at one place the earlier rule, then the longer match, wins.
 * The rules are tried at each hit as it is found: a whole text needs no list of its hits (a stream,
 * which keeps the hits of what it holds back, uses `scanTriggers` and `matchesAt`).
 */
export function findSecrets(text: string, compiled: CompiledRules): SecretMatch[] {
  const found: Found[] = [];
  scanTriggers(text, compiled, { from: 0, charsFrom: 0, charsTo: text.length }, (_at, start, group) => tryRules(text, start, group, found));
  return chosenMatches(text, compiled, found);
}

/** Where a stream's kept hits are to be tried again: each `starts[i]` with `groups[i]`'s rules. */
export interface KeptHits {
  readonly starts: readonly number[];
  readonly groups: readonly RuleGroup[];
}

/** The rules of each kept hit, and the untriggered rules over the whole text: non-overlapping matches, by position. */
export function matchesAt(text: string, compiled: CompiledRules, hits: KeptHits): SecretMatch[] {
  const found: Found[] = [];
  for (let index = 0; index < hits.starts.length; index++) tryRules(text, hits.starts[index]!, hits.groups[index]!, found);
  return chosenMatches(text, compiled, found);
}

function tryRules(text: string, start: number, group: RuleGroup, found: Found[]): void {
  for (const triggered of group.rules) matchAt(text, start, triggered, found);
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
