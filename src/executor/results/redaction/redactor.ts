// The redactor (spec §6): built-in secret formats, the values of secret-named environment
// variables, and user patterns; each secret becomes `[REDACTED:<rule>]`. Streams hold back a
// fixed window so a secret split across chunks is still caught.
import type { RedactionStream, Redactor } from '../../ports/redactor';
import { compileRules, emptyTriggerHits, findSecrets, findTriggers, matchesAt, replaceSecrets, type CompiledRules, type TriggerHits } from './matches';
import { BUILTIN_RULES, MAX_PEM_CHARS, OPEN_SECRET_START, type RedactionRule } from './rules';

/** Values shorter than this are not treated as secrets, even under a secret-looking name (issue 5). */
export const MIN_ENV_SECRET_CHARS = 8;
/**
 * A stream holds back at least this many chars, so no secret can straddle what it emitted and
 * what is still to come: longer than every bounded pattern except PEM keys, which `OPEN_SECRET_START` covers.
 */
export const STREAM_HOLDBACK_CHARS = 8192;

/** Names of environment variables whose values are secrets. */
const SECRET_ENV_NAME =
  /(SECRET|TOKEN|PASSW(?:OR)?D|(?:^|_)PASS(?:$|_)|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|(?:^|_)KEY$|CREDENTIAL|(?:^|_)AUTH(?:$|_)|(?:^|_)PAT(?:$|_)|(?:^|_)DSN$|COOKIE|SESSION_?ID)/i;
/** Secret-looking names that hold locations, not secrets. */
const NOT_SECRET_ENV_NAME = /(?:_SOCK|_PATH|_FILE|_DIR|_HOST|_PORT|_URL_PATH)$/i;

export interface UserPattern {
  /** Shown as `[REDACTED:<name>]`; default `user-pattern`. */
  readonly name?: string;
  /** A regular expression source (or RegExp); matches are masked whole. */
  readonly pattern: string | RegExp;
}

export interface RedactorOptions {
  /** Environment whose secret-named values are masked (usually `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly patterns?: readonly (UserPattern | string)[];
  /** @default true */
  readonly builtinRules?: boolean;
}

/** True when an environment variable's value is masked wherever it appears. */
export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name) && !NOT_SECRET_ENV_NAME.test(name);
}

/** Builds the redactor the host wires into the executor. Invalid user patterns throw (a configuration bug). */
export function createRedactor(options: RedactorOptions = {}): Redactor {
  const rules: RedactionRule[] = options.builtinRules === false ? [] : [...BUILTIN_RULES];
  const envRule = environmentRule(options.env ?? {});
  if (envRule) rules.unshift(envRule);
  for (const user of options.patterns ?? []) rules.push(userRule(user));
  const holdback = Math.max(STREAM_HOLDBACK_CHARS, longestEnvValue(options.env ?? {}) * 2);
  const compiled = compileRules(rules);
  return {
    redact: (text) => (text.length === 0 ? text : replaceSecrets(text, findSecrets(text, compiled))),
    createStream: () => new HoldbackStream(compiled, holdback),
  };
}

function environmentRule(env: Readonly<Record<string, string | undefined>>): RedactionRule | undefined {
  const values = Object.entries(env)
    .filter(([name, value]) => value !== undefined && value.length >= MIN_ENV_SECRET_CHARS && isSecretEnvName(name))
    .map(([, value]) => value!)
    .sort((a, b) => b.length - a.length);
  if (values.length === 0) return undefined;
  return { name: 'env', pattern: new RegExp([...new Set(values)].map(escapeRegExp).join('|'), 'g') };
}

function longestEnvValue(env: Readonly<Record<string, string | undefined>>): number {
  let longest = 0;
  for (const [name, value] of Object.entries(env)) {
    if (value && isSecretEnvName(name)) longest = Math.max(longest, value.length);
  }
  return longest;
}

function userRule(user: UserPattern | string): RedactionRule {
  const spec = typeof user === 'string' ? { pattern: user } : user;
  const source = spec.pattern instanceof RegExp ? spec.pattern.source : spec.pattern;
  const flags = spec.pattern instanceof RegExp ? spec.pattern.flags.replace(/[gdy]/g, '') : '';
  return { name: spec.name ?? 'user-pattern', pattern: new RegExp(source, `${flags}g`) };
}

const PEM_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A trigger straddling the end of what was scanned is found again from this far back: longer than any
 * trigger (the longest, `https://hooks\.slack`, is 19 chars).
 */
const TRIGGER_OVERLAP_CHARS = 64;

/**
 * Emits all but the last `holdback` chars of what it has, never cutting inside a match or after
 * the start of a PEM key whose END has not arrived, nor inside a surrogate pair. The trigger hits in
 * what it holds back are kept, so each push scans for triggers only in what is new (the rules are
 * still tried at every kept hit, over the longer text, so a match cut by a chunk's end grows whole).
 */
class HoldbackStream implements RedactionStream {
  private pending = '';
  /** Trigger hits in `pending`, and how much of it was scanned for them. */
  private hits: TriggerHits = emptyTriggerHits();
  private scanned = 0;

  constructor(
    private readonly rules: CompiledRules,
    private readonly holdback: number,
  ) {}

  push(chunk: string): string {
    this.pending += chunk;
    if (this.pending.length <= this.holdback * 2) return '';
    const text = this.pending;
    const matches = this.matches(text);
    let cut = text.length - this.holdback;
    cut = Math.min(cut, openSecretStart(text, cut));
    for (let index = matches.length - 1; index >= 0; index--) {
      const match = matches[index]!;
      if (match.start < cut && match.end > cut) cut = match.start;
    }
    if (cut > 0 && isHighSurrogate(text.charCodeAt(cut - 1))) cut--;
    if (cut <= 0) return '';
    this.pending = text.slice(cut);
    this.keepHitsFrom(cut);
    return replaceSecrets(text, matches, 0, cut);
  }

  end(): string {
    const text = this.pending;
    const matches = text.length === 0 ? [] : this.matches(text);
    this.pending = '';
    this.hits = emptyTriggerHits();
    this.scanned = 0;
    return text.length === 0 ? '' : replaceSecrets(text, matches);
  }

  /** Scans what is new in `text` (the pending text) for triggers, then finds the matches. */
  private matches(text: string): ReturnType<typeof matchesAt> {
    const rescanFrom = Math.max(0, this.scanned - TRIGGER_OVERLAP_CHARS);
    // Regex hits near the old end are found again (one may have been cut there); single chars need no overlap.
    this.keepHits((position, fromScan) => !fromScan || position < rescanFrom);
    findTriggers(text, this.rules, this.hits, rescanFrom, this.scanned);
    this.scanned = text.length;
    return matchesAt(text, this.rules, this.hits);
  }

  /** Keeps the hits at or after `cut`, moved as the text now starts there. */
  private keepHitsFrom(cut: number): void {
    this.keepHits((position) => position >= cut, cut);
    this.scanned -= cut;
  }

  /** Keeps, in place, the hits `keep` accepts, moved back by `shift`. */
  private keepHits(keep: (position: number, fromScan: boolean) => boolean, shift = 0): void {
    const { positions, rules, fromScan } = this.hits;
    let kept = 0;
    for (let index = 0; index < positions.length; index++) {
      if (!keep(positions[index]!, fromScan[index]!)) continue;
      positions[kept] = positions[index]! - shift;
      rules[kept] = rules[index]!;
      fromScan[kept] = fromScan[index]!;
      kept++;
    }
    positions.length = rules.length = fromScan.length = kept;
  }
}

/** The start of a PEM header before `cut` whose END has not arrived yet (its body may still come). */
function openSecretStart(text: string, cut: number): number {
  OPEN_SECRET_START.lastIndex = Math.max(0, text.length - MAX_PEM_CHARS - 200);
  for (let header = OPEN_SECRET_START.exec(text); header !== null; header = OPEN_SECRET_START.exec(text)) {
    if (header.index >= cut) break;
    if (!PEM_END.test(text.slice(header.index))) return header.index;
  }
  return cut;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
