// The built-in secret formats (spec §6). Each rule names the span it masks: the whole match, or
// one capture group when the match includes a harmless prefix (`password=`, `https://user:`).
// Every pattern is bounded in length, so a stream redactor can hold back a fixed window.
// Each rule also names its trigger: a short literal (or a char class) that every match starts with
// or contains at a known place, so one scan for all triggers finds where to try the rules (matches.ts),
// and the trigger's anchors: literals that find it with `indexOf` (V8 looks for a literal's
// first char with memchr, so a literal that starts with a char rare in code and logs, an uppercase
// letter, `_`, `J`, `z`, `x`, is found at several GB/s, where a regex alternation of all triggers
// ran at about 0.45 GB/s).
import { acceptAssignment, ASSIGNMENT_PATTERN } from './assignments';

export interface RedactionRule {
  /** Shown as `[REDACTED:<name>]`. */
  readonly name: string;
  /** Global (`g`) and with indices (`d`) when `group` is set. */
  readonly pattern: RegExp;
  /** The capture group holding the secret; 0 or absent: the whole match. */
  readonly group?: number;
  /**
   * A regex source (no capture groups) found in every match. Absent: the rule's pattern runs over
   * the whole text (environment values, user patterns).
   */
  readonly trigger?: string;
  /**
   * Literals to find the trigger by, each with its offset into a trigger match: every match of
   * `trigger` has one of them at that offset (a unit test checks it against the trigger). Absent:
   * the trigger is found by a regex (single chars by `indexOf`). Rules that share a trigger share its anchors.
   */
  readonly anchors?: readonly TriggerAnchor[];
  /**
   * Where a match may start, given where its trigger was found; -1: no match can be there. For a
   * single-char trigger it reads at most `START_AT_LOOKAHEAD_CHARS` past it; for any other, nothing past
   * the trigger's match. @default the trigger's index
   */
  readonly startAt?: (text: string, triggerAt: number) => number;
  /** A last word on a match the pattern found (false: not a secret). */
  readonly accept?: (match: RegExpExecArray, text: string) => boolean;
}

/** A literal every match of a trigger has `offset` chars after the match's start. */
export type TriggerAnchor = readonly [literal: string, offset: number];

/**
 * How far past a single-char trigger its `startAt` reads (`assignmentStart` reads the char after a `:`
 * or `=` to tell `==`, `=>` and `::` apart): a stream asks it only once that char has arrived.
 */
export const START_AT_LOOKAHEAD_CHARS = 1;

/** Longest PEM private key body we look for (an 8192-bit RSA key is about 6.5 KB). */
export const MAX_PEM_CHARS = 16_384;

/** How every PEM header starts: the private-key rules' trigger. */
export const PEM_HEADER_START = '-----BEGIN ';
const PEM_HEADER = String.raw`${PEM_HEADER_START}[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----`;

/** A PEM header whose body may still be arriving: a stream must not emit past its start. */
export const OPEN_SECRET_START = new RegExp(PEM_HEADER, 'g');

/** Longest name of an assignment (`ASSIGNMENT_PATTERN`) and scheme of a URL walked back over. */
const MAX_NAME_CHARS = 81;
const MAX_SCHEME_CHARS = 21;
const MAX_SEPARATOR_GAP = 7;

/** 1 for the chars of an assignment's name (`[A-Za-z0-9_.-]`), by char code below 128: a table lookup is cheaper than six range tests at every `:`. */
const NAME_CHARS = new Uint8Array(128);
for (let code = 0; code < 128; code++) NAME_CHARS[code] = /[A-Za-z0-9_.-]/.test(String.fromCharCode(code)) ? 1 : 0;

/** The secret words of an assignment's name, tried where one may start (`assignmentStart`). */
const SENSITIVE_WORD = /pass|pwd|secret|token|key|credential|auth/iy;
/**
 * 1 at `(first << 7) | second` for the first two letters, lower case, of a secret word (`pa`, `pw`, `se`,
 * `to`, `ke`, `cr`, `au` of pass, pwd, secret, token, key, credential, auth): one lookup per char of a name
 * instead of seven comparisons.
 */
const SENSITIVE_WORD_STARTS = new Uint8Array(128 * 128);
for (const pair of ['pa', 'pw', 'se', 'to', 'ke', 'cr', 'au']) SENSITIVE_WORD_STARTS[(pair.charCodeAt(0) << 7) | pair.charCodeAt(1)] = 1;

/**
 * From a `:` or `=`, back over spaces and a quote to the start of the name before it; -1 when the name
 * cannot be a secret's. It runs at every `:` and `=` of the text (most of them in logs and code), so the
 * walk back over the name also tries the secret words, in place, only where their first two letters (any
 * case) are: most names (`1.0.0`, `WARN`) have none and are turned down without a regex, and none is
 * copied (the copy and the regex over it were a third of the time of a `key=value` log line's walks,
 * `path=` having `pa`). A word tried inside the name ends inside it: the char after the name is a
 * quote, a space or the separator, none of them a letter.
 */
function assignmentStart(text: string, at: number): number {
  // Operators, not assignments: `==`, `=>`, `!=`, `<=`, `>=`, `::`, `?:`.
  const next = text.charCodeAt(at + 1);
  const previous = text.charCodeAt(at - 1);
  if (next === 0x3d || next === 0x3e || next === 0x3a) return -1;
  if (previous === 0x3d || previous === 0x21 || previous === 0x3c || previous === 0x3e || previous === 0x3f || previous === 0x3a) return -1;
  // Past the text's start `charCodeAt` gives NaN, which is no space, quote or name char: the walks stop there.
  let index = at - 1;
  let code = previous;
  const gapEnd = at - MAX_SEPARATOR_GAP;
  while (index >= gapEnd && (code === 0x20 || code === 0x09)) code = text.charCodeAt(--index);
  if (code === 0x22 || code === 0x27) code = text.charCodeAt(--index);
  const end = index + 1;
  const limit = end - MAX_NAME_CHARS;
  let secret = false;
  // The char after this one, lower case (0 at the name's end): a name char's code below 128 stays below it.
  let right = 0;
  while (index >= limit && code < 128 && NAME_CHARS[code] === 1) {
    const lower = code | 0x20;
    if (!secret && SENSITIVE_WORD_STARTS[(lower << 7) | right] === 1) {
      SENSITIVE_WORD.lastIndex = index;
      secret = SENSITIVE_WORD.test(text);
    }
    right = lower;
    code = text.charCodeAt(--index);
  }
  const start = index + 1;
  return secret && start < end ? start : -1;
}

/** From the `:` of `://`, back over the scheme. */
function urlStart(text: string, at: number): number {
  if (text.charCodeAt(at + 1) !== 0x2f || text.charCodeAt(at + 2) !== 0x2f) return -1;
  let index = at - 1;
  const limit = Math.max(0, at - MAX_SCHEME_CHARS);
  while (index >= limit && /[A-Za-z0-9+.-]/.test(text[index]!)) index--;
  // The scheme starts with a letter at a word boundary (`+https://` in a diff starts at `h`).
  let start = index + 1;
  while (start < at && (!/[A-Za-z]/.test(text[start]!) || (start > 0 && /\w/.test(text[start - 1]!)))) start++;
  return start < at - 1 ? start : -1;
}

/** How far back from its `@` a scheme-less userinfo may start: the password's 200 chars, the user's 64, room. */
const MAX_USERINFO_BACK_CHARS = 300;
/** What a user name is made of (RFC 3986 userinfo, less the sub-delims a shell or a config would quote). */
const USER_CHARS = /[A-Za-z0-9._%+-]/;
/** Chars of a userinfo run (the password's class): no space, `@`, `/`, quote or backtick. */
const USERINFO_RUN_CHARS = /[^\s@/'"`]/;

/**
 * From the `@` of a scheme-less userinfo, back to where the user name starts: the run of userinfo
 * chars before the `@`, its first `:`, and the user-name chars just before that `:`. -1 when there is none.
 */
function userinfoStart(text: string, at: number): number {
  const limit = Math.max(0, at - MAX_USERINFO_BACK_CHARS);
  let run = at;
  while (run > limit && USERINFO_RUN_CHARS.test(text[run - 1]!)) run--;
  const colon = text.indexOf(':', run);
  if (colon < 0 || colon >= at) return -1;
  let start = colon;
  while (start > run && USER_CHARS.test(text[start - 1]!)) start--;
  return start < colon ? start : -1;
}

/**
 * URIs of a scheme, a colon and `user@host`, which name a user and no password (RFC 6068 mailto, RFC 3261 sip, RFC 5122 xmpp)
 * and package managers' `npm:name@version` aliases: the scheme-less userinfo rule must not read them as one.
 */
const NOT_USERINFO_SCHEMES: ReadonlySet<string> = new Set(['mailto', 'sip', 'sips', 'xmpp', 'im', 'pres', 'tel', 'npm', 'jsr', 'workspace', 'link', 'file', 'portal', 'patch', 'git', 'github', 'gitlab', 'bitbucket']);

function acceptUserinfo(match: RegExpExecArray): boolean {
  return !NOT_USERINFO_SCHEMES.has(match[1]!.slice(0, -1).toLowerCase());
}

/** A token glued to `Bearer` (no space) only counts when it looks random: digits and both cases. */
function acceptBearer(match: RegExpExecArray): boolean {
  if (/\s$/.test(match[1]!)) return true;
  const token = match[2]!;
  return (token.match(/\d/g)?.length ?? 0) >= 2 && /[a-z]/.test(token) && /[A-Z]/.test(token);
}

const PEM_ANCHORS: readonly TriggerAnchor[] = [['BEGIN ', 5]];
const SK_ANCHORS: readonly TriggerAnchor[] = [['k-', 1]];

/** Order matters only between rules that match at the same place: the earlier wins. */
export const BUILTIN_RULES: readonly RedactionRule[] = [
  {
    name: 'private-key',
    pattern: new RegExp(`${PEM_HEADER}[\\s\\S]{1,${MAX_PEM_CHARS}}?-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----`, 'g'),
    trigger: PEM_HEADER_START,
    anchors: PEM_ANCHORS,
  },
  // A key cut off before its END line still has its body masked.
  { name: 'private-key', pattern: new RegExp(`${PEM_HEADER}[A-Za-z0-9+/=\\s:,-]{0,${MAX_PEM_CHARS}}`, 'g'), trigger: PEM_HEADER_START, anchors: PEM_ANCHORS },
  // Glued to lowercase letters (`keyAKIA…`) still counts; after capitals or digits it is part of a longer word.
  { name: 'aws-access-key', pattern: /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g, trigger: 'A(?:KI|SI|BI|CC)A', anchors: [['KIA', 1], ['SIA', 1], ['BIA', 1], ['CCA', 1]] },
  {
    name: 'aws-secret-key',
    pattern: /((?<![\w.-])[\w.-]{0,40}aws_?secret_?(?:access_?)?key["']?[ \t]{0,5}[:=][ \t]{0,5}["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/dgi,
    group: 2,
    trigger: '[:=]',
    startAt: assignmentStart,
  },
  // The formats below carry their own prefix: glued to a preceding word (`keyghp_…`) they are still secrets.
  { name: 'github-token', pattern: /(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g, trigger: 'gh[pousr]_|github_pat_', anchors: [['_', 3], ['_pat_', 6]] },
  { name: 'gitlab-token', pattern: /glpat-[A-Za-z0-9_-]{20,255}/g, trigger: 'glpat-', anchors: [['glpat-', 0]] },
  { name: 'slack-token', pattern: /xox[abposre]-[A-Za-z0-9-]{10,250}/g, trigger: 'xox[abposre]-', anchors: [['xox', 0]] },
  { name: 'slack-webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9_/]{20,200}/g, trigger: 'https://hooks\\.slack', anchors: [['://', 5]] },
  { name: 'stripe-key', pattern: /(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,247}\b/g, trigger: '[srp]k_(?:live|test)_', anchors: [['_live_', 2], ['_test_', 2]] },
  { name: 'npm-token', pattern: /npm_[A-Za-z0-9]{36}\b/g, trigger: 'npm_', anchors: [['_', 3]] },
  { name: 'anthropic-key', pattern: /sk-ant-[A-Za-z0-9_-]{20,250}/g, trigger: 'sk-', anchors: SK_ANCHORS },
  // `sk-` alone is too short to trust glued to a word (`task-…`).
  { name: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,250}/g, trigger: 'sk-', anchors: SK_ANCHORS },
  { name: 'google-api-key', pattern: /AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, trigger: 'AIza', anchors: [['za', 2]] },
  { name: 'jwt', pattern: /eyJ[A-Za-z0-9_-]{5,2000}\.eyJ[A-Za-z0-9_-]{5,4000}\.[A-Za-z0-9_-]{10,2000}/g, trigger: 'eyJ', anchors: [['J', 2]] },
  {
    name: 'url-credentials',
    pattern: /\b([a-z][a-z0-9+.-]{1,20}:\/\/[^\s:@/'"]{0,200}:)([^\s@/'"]{1,200})(?=@)/dgi,
    group: 2,
    trigger: '://',
    anchors: [['://', 0]],
    startAt: urlStart,
  },
  // Without a scheme (`curl -x` a proxy's userinfo, `HTTPS_PROXY=` one, corkscrew's): the password follows
  // the user's first colon;
  // the user starts with a letter (not `12:30@home`), and `@sha256:` is an image digest (`node:20@sha256:…`).
  {
    name: 'url-credentials',
    pattern: /(?<![A-Za-z0-9._%+:@-])([A-Za-z][A-Za-z0-9._%+-]{0,63}:)([^\s@/'"`:][^\s@/'"`]{0,199})(?=@(?!sha(?:256|384|512):)[A-Za-z0-9[])/dg,
    group: 2,
    trigger: '@',
    startAt: userinfoStart,
    accept: acceptUserinfo,
  },
  {
    name: 'bearer-token',
    pattern: /\b(Bearer(?:\s+|(?=[A-Za-z0-9._~+/-]{20})))([A-Za-z0-9._~+/-]{20,2000}=*)/dg,
    group: 2,
    trigger: 'Bearer',
    anchors: [['Bearer', 0]],
    accept: acceptBearer,
  },
  { name: 'password', pattern: ASSIGNMENT_PATTERN, group: 5, trigger: '[:=]', startAt: assignmentStart, accept: acceptAssignment },
];
