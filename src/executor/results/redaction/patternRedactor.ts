// The redactor (spec §6): built-in secret formats, the values of secret-named environment
// variables, and user patterns; each secret becomes `[REDACTED:<rule>]`. Streams hold back a
// fixed window so a secret split across chunks is still caught.
import type { RedactionStream, Redactor } from '../../ports/redactor';
import { detachedSlice } from '../../format/text';
import { compileRules, findSecrets, matchesAt, replaceSecrets, scanTriggers, type CompiledRules, type RuleGroup } from './matches';
import { BUILTIN_RULES, MAX_PEM_CHARS, OPEN_SECRET_START, PEM_HEADER_START, START_AT_LOOKAHEAD_CHARS, type RedactionRule } from './rules';

/** Values shorter than this are not treated as secrets, even under a secret-looking name. */
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
  // A mask is `[REDACTED:<rule>]`: ASCII unless a user pattern's name is not.
  const keepsAscii = rules.every((rule) => /^[\x00-\x7f]*$/.test(rule.name));
  return {
    redact: (text) => (text.length === 0 ? text : replaceSecrets(text, findSecrets(text, compiled))),
    createStream: () => new HoldbackStream(compiled, holdback, keepsAscii),
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

/** Held-back text shorter than this stays a string: copying a few KB at a collection costs V8 little. */
const PARK_MIN_CHARS = 1024;

/**
 * Emits all but the last `holdback` chars of what it has, never cutting inside a match or after
 * the start of a PEM key whose END has not arrived, nor inside a surrogate pair. Each push scans only
 * what is new for triggers, and keeps the hits whose `startAt` allows a match (most `:` and `=` hits
 * of a log or a source file are turned down there, once); the rules are tried again at every kept hit,
 * over the longer text, so a match cut by a chunk's end grows whole.
 */
class HoldbackStream implements RedactionStream {
  /** The held-back text, unless it is parked (`parkedChars` > 0: it is the first `parkedChars` bytes of `parked`). */
  private pending = '';
  private parked: Buffer | undefined;
  private parkedChars = 0;
  /** Kept hits in `pending`: where the trigger was found, where the rules are tried, which rules, and whether a single char found it. */
  private readonly at: number[] = [];
  private readonly starts: number[] = [];
  private readonly groups: RuleGroup[] = [];
  private readonly fromChar: boolean[] = [];
  /** How much of `pending` was scanned for triggers, and for single-char triggers (whose `startAt` reads past them). */
  private scanned = 0;
  private charsScanned = 0;
  private readonly record = (at: number, start: number, group: RuleGroup, fromChar: boolean): void => {
    this.at.push(at);
    this.starts.push(start);
    this.groups.push(group);
    this.fromChar.push(fromChar);
  };

  constructor(
    private readonly rules: CompiledRules,
    private readonly holdback: number,
    readonly keepsAscii: boolean,
  ) {}

  push(chunk: string): string {
    this.pending = this.heldText() + chunk;
    return this.release();
  }

  /**
   * `push` in two steps for a long chunk: first its start (`2 × holdback` chars) joined to the held-back
   * text, then the rest, which is the same as pushing the chunk as two (any chunking gives the same text).
   * After the first step, what is held back is the end of the chunk's start, so the text to go on with is
   * the chunk from there: a slice of it, not a join. Joining each 64 Ki-char chunk to the held-back text
   * copied both into a new 72 Ki-char string, as much garbage again as decoding the chunk, and V8 grew the
   * semi-spaces of its young generation; joining only the seam keeps them as they were
   * (docs/MEASUREMENTS.md, "Redaction").
   */
  pushEach(chunk: string, emit: (text: string) => void): void {
    const start = this.holdback * 2;
    if (chunk.length < start * 2) {
      emit(this.push(chunk));
      return;
    }
    emit(this.push(chunk.slice(0, start)));
    const held = this.parkedChars > 0 ? this.parkedChars : this.pending.length;
    if (held > start) {
      emit(this.push(chunk.slice(start)));
      return;
    }
    // What is held back is the last `held` chars of the chunk's start: the same text as this slice's start.
    this.parkedChars = 0;
    this.pending = chunk.slice(start - held);
    emit(this.release());
  }

  /** Emits what no match or secret still to come can reach, and keeps the rest of `pending`. */
  private release(): string {
    if (this.pending.length <= this.holdback * 2) return '';
    const text = this.pending;
    const matches = this.matches(text, text.length - START_AT_LOOKAHEAD_CHARS);
    let cut = text.length - this.holdback;
    cut = Math.min(cut, openSecretStart(text, cut));
    for (let index = matches.length - 1; index >= 0; index--) {
      const match = matches[index]!;
      if (match.start < cut && match.end > cut) cut = match.start;
    }
    if (cut > 0 && isHighSurrogate(text.charCodeAt(cut - 1))) cut--;
    if (cut <= 0) return '';
    this.hold(text, cut);
    this.keepHitsFrom(cut);
    return replaceSecrets(text, matches, 0, cut);
  }

  peek(): string {
    const text = this.parkedChars === 0 ? this.pending : this.parked!.toString('latin1', 0, this.parkedChars);
    return text.length === 0 ? '' : replaceSecrets(text, findSecrets(text, this.rules));
  }

  end(): string {
    const text = this.heldText();
    const matches = text.length === 0 ? [] : this.matches(text, text.length);
    this.pending = '';
    this.keepHits(() => false);
    this.scanned = this.charsScanned = 0;
    return text.length === 0 ? '' : replaceSecrets(text, matches);
  }

  /**
   * Holds back `text` from `from` on until the next push. ASCII waits in a buffer outside the JS heap: the
   * held-back text lives from one chunk to the next, so nearly every young-generation collection (they
   * come while a chunk is decoded) found it alive and copied it, 8-16 KB a time, and after a hundred or
   * so of them V8 doubled its young generation, which raised the peak RSS of a command with much output.
   * Other text is kept as a copy that does not keep the chunk alive.
   */
  private hold(text: string, from: number): void {
    const chars = text.length - from;
    const rest = text.slice(from);
    if (chars >= PARK_MIN_CHARS && Buffer.byteLength(rest) === chars) {
      if (!this.parked || this.parked.length < chars) this.parked = Buffer.allocUnsafe(Math.max(chars, this.holdback * 2));
      this.parked.write(rest, 0, chars, 'latin1');
      this.parkedChars = chars;
      this.pending = '';
      return;
    }
    this.parkedChars = 0;
    this.pending = detachedSlice(text, from);
  }

  /** The held-back text, as a string again if it was parked. */
  private heldText(): string {
    if (this.parkedChars === 0) return this.pending;
    const text = this.parked!.toString('latin1', 0, this.parkedChars);
    this.parkedChars = 0;
    return text;
  }

  /** Scans what is new in `text` (the pending text; single chars up to `charsTo`) for triggers, then finds the matches. */
  private matches(text: string, charsTo: number): ReturnType<typeof matchesAt> {
    const rescanFrom = Math.max(0, this.scanned - TRIGGER_OVERLAP_CHARS);
    // Regex and anchor hits near the old end are found again (one may have been cut there); single chars need no overlap.
    this.keepHits((index) => this.fromChar[index]! || this.at[index]! < rescanFrom);
    const charsFrom = this.charsScanned;
    scanTriggers(text, this.rules, { from: rescanFrom, charsFrom, charsTo }, this.record);
    this.scanned = text.length;
    this.charsScanned = Math.max(charsFrom, charsTo);
    return matchesAt(text, this.rules, { starts: this.starts, groups: this.groups });
  }

  /**
   * Keeps the hits whose matches would start at or after `cut`, moved as the text now starts there. A
   * hit after `cut` whose match would start before it had its match turned down: the text around it
   * was there in full (at least `holdback` chars after `cut`), and a match accepted there would have kept `cut` before it.
   */
  private keepHitsFrom(cut: number): void {
    this.keepHits((index) => this.starts[index]! >= cut, cut);
    this.scanned -= cut;
    this.charsScanned -= cut;
  }

  /** Keeps, in place, the hits `keep` accepts, moved back by `shift`. */
  private keepHits(keep: (index: number) => boolean, shift = 0): void {
    const { at, starts, groups, fromChar } = this;
    let kept = 0;
    for (let index = 0; index < at.length; index++) {
      if (!keep(index)) continue;
      at[kept] = at[index]! - shift;
      starts[kept] = starts[index]! - shift;
      groups[kept] = groups[index]!;
      fromChar[kept] = fromChar[index]!;
      kept++;
    }
    at.length = starts.length = groups.length = fromChar.length = kept;
  }
}

/** The start of a PEM header before `cut` whose END has not arrived yet (its body may still come). */
function openSecretStart(text: string, cut: number): number {
  const first = headerStart(text, Math.max(0, text.length - MAX_PEM_CHARS - 200));
  if (first < 0 || first >= cut) return cut;
  OPEN_SECRET_START.lastIndex = first;
  for (let header = OPEN_SECRET_START.exec(text); header !== null; header = OPEN_SECRET_START.exec(text)) {
    if (header.index >= cut) break;
    if (!PEM_END.test(text.slice(header.index))) return header.index;
  }
  return cut;
}

/**
 * Where the first `-----BEGIN ` at or after `from` starts, -1 if none: most text has no PEM header, and
 * this turns it down before the regex walks the last 16 Ki chars. `BEGIN ` is looked for, then its dashes
 * checked: V8 finds it with a `memchr` of its `B`, far faster than the regex, where `-----BEGIN ` whole
 * is slower than the regex (docs/MEASUREMENTS.md, "Redaction").
 */
function headerStart(text: string, from: number): number {
  for (let found = text.indexOf(PEM_WORD, from + PEM_DASHES.length); found >= 0; found = text.indexOf(PEM_WORD, found + 1)) {
    if (text.startsWith(PEM_DASHES, found - PEM_DASHES.length)) return found - PEM_DASHES.length;
  }
  return -1;
}

/** `-----BEGIN ` as its dashes and its word. */
const PEM_DASHES = PEM_HEADER_START.slice(0, PEM_HEADER_START.indexOf('B'));
const PEM_WORD = PEM_HEADER_START.slice(PEM_DASHES.length);

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
