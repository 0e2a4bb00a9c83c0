// The redactor's fast paths against the plain rules, on random text built to be adversarial:
// trigger prefixes, near misses, assignments with and without secret words, operators, URLs, cut anywhere.
// - Anchors: the `indexOf` scan finds every place a trigger matches, as trying the trigger regex at every position does,
//   and the rules tried there find the same secrets.
// - `startAt`: trying a rule only where it says a match may start finds what the rule's regex finds tried at every position.
// - Streams: the hits a stream keeps (and the ones it turns down once) give the same text as redacting it whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileRules, findSecrets, matchesAt, scanTriggers, SCAN_BLOCK_CHARS, type KeptHits, type RuleGroup } from '../../../../../src/executor/results/redaction/matches';
import { createRedactor } from '../../../../../src/executor/results/redaction/patternRedactor';
import { BUILTIN_RULES, type RedactionRule } from '../../../../../src/executor/results/redaction/rules';
import { random } from '../../random';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** Pieces of secrets, of their surroundings and of the code and logs that look like them (prefixes split so no scanner reads this file as a leak). */
const PIECES = [
  'A' + 'KIA', 'AS' + 'IA', 'AB' + 'IA', 'AC' + 'CA', 'KIA', 'CCA', 'AIz' + 'a', 'za', 'ey' + 'J', 'J',
  'gh' + 'p_', 'gh' + 'o_', 'gh' + 'x_', 'github' + '_pat_', '_pat_', 'gl' + 'pat-', 'glpat', 'xo' + 'xb-', 'xo' + 'xz-', 'xox',
  'https://hooks.' + 'slack.com/services/', 'https://hooks.slack', 'sk' + '_live_', 'rk' + '_test_', 'pk_' + 'live', '_live_', '_test_',
  'np' + 'm_', 'sk' + '-', 'sk' + '-ant-', 'sk' + '-proj-', 'k-', 'Bea' + 'rer ', 'Bearer', 'Authorization: ',
  '-----BEGIN RSA PRIVATE ' + 'KEY-----\n', '-----END RSA PRIVATE KEY-----', 'BEGIN ', '-----',
  'https://', 'postgres://', 'user:', '@db.internal', '://', '@', 'mailto:', '@sha256:', 'proxyauth=', '%', '+',
  'password', 'PASSWORD', 'Password', 'db_password', 'X_SECRET_TOKEN', 'api_key', 'apiKey', 'aws_secret_access_key', 'AWS_SECRET_KEY',
  'token', 'auth', 'AUTH', 'credential', 'passthrough', 'max_tokens', 'token_type', 'pwd', 'key', 'secret',
  ':', '=', ': ', ' = ', '==', '=>', '::', '!=', '<=', '?:', ':-', '${', '"', "'", ' ', '  ', '\t', '\n', '.', '-', '_', '/', '(', '[',
  'string', 'process.env.KEY', 'getToken(', 'ENV_SECRET', '1.0.0', '12:00:01', 'npm WARN deprecated some-package@1.0.0: ',
];

function run(alphabet: string, length: number, next: () => number): string {
  let out = '';
  for (let index = 0; index < length; index++) out += alphabet[Math.floor(next() * alphabet.length)];
  return out;
}

/** Random text of about `length` chars: pieces, random runs of secret-like chars, and ordinary words. */
function adversarial(next: () => number, length: number): string {
  let text = '';
  while (text.length < length) {
    const pick = next();
    if (pick < 0.55) text += PIECES[Math.floor(next() * PIECES.length)];
    else if (pick < 0.75) text += run(ALNUM, 1 + Math.floor(next() * (next() < 0.3 ? 50 : 12)), next);
    else if (pick < 0.85) text += run(UPPER, 16, next);
    else if (pick < 0.95) text += run('abcdefghij ', 1 + Math.floor(next() * 20), next);
    else text += run(ALNUM + '+/=_-.', 1 + Math.floor(next() * 45), next);
  }
  return text;
}

/** Whether the `:` or `=` at `at` is part of an operator rather than an assignment. */
function isOperator(text: string, at: number): boolean {
  return /[=>:]/.test(text.charAt(at + 1)) || /[=!<>?:]/.test(text.charAt(at - 1));
}

/** The rules without their fast paths: no anchors (the trigger regex finds the trigger) or none of them at all (each regex over the whole text). */
const withoutAnchors = (rules: readonly RedactionRule[]): RedactionRule[] => rules.map(({ anchors: _anchors, ...rule }) => rule);

describe('redaction fast paths (property)', () => {
  describe('anchors', () => {
    const compiled = compileRules(BUILTIN_RULES);
    const triggered = BUILTIN_RULES.filter((rule) => rule.anchors !== undefined);
    /** `trigger@at` for each place the anchor scan reports. */
    const scanned = (text: string): string[] => {
      const seen = new Set<string>();
      scanTriggers(text, compiled, { from: 0, charsFrom: text.length, charsTo: text.length }, (at, _start, group) => {
        for (const { rule } of group.rules) seen.add(`${rule.trigger}@${at}`);
      });
      return [...seen].sort();
    };
    /** `trigger@at` for each place a trigger regex matches (and `startAt` allows a match). */
    const expected = (text: string): string[] => {
      const places = new Set<string>();
      for (const rule of triggered) {
        const sticky = new RegExp(rule.trigger!, 'y');
        for (let at = 0; at < text.length; at++) {
          sticky.lastIndex = at;
          const start = rule.startAt ? rule.startAt(text, at) : at;
          if (sticky.test(text) && start >= 0) places.add(`${rule.trigger}@${at}`);
        }
      }
      return [...places].sort();
    };

    it('of every built-in trigger find every place the trigger matches, and nothing else', () => {
      assert.ok(triggered.length >= 10, 'most triggers have anchors');
      const next = random(41);
      for (let trial = 0; trial < 300; trial++) {
        const text = adversarial(next, trial < 3 ? 70_000 : 50 + Math.floor(next() * 2000));
        assert.deepEqual(scanned(text), expected(text), JSON.stringify(text));
      }
    });

    it('are found across the edges of the blocks a long text is scanned in', () => {
      const shifted = (places: string[], by: number) => places.map((place) => place.replace(/@(\d+)$/, (_all, at: string) => `@${Number(at) + by}`)).sort();
      for (const piece of PIECES) {
        const alone = expected(` ${piece}${' '.repeat(64)}`);
        for (let before = 1; before < piece.length; before++) {
          const text = `${' '.repeat(SCAN_BLOCK_CHARS - before)}${piece}${' '.repeat(64)}`;
          assert.deepEqual(scanned(text), shifted(alone, SCAN_BLOCK_CHARS - before - 1), `${JSON.stringify(piece)} ${before} chars before the edge`);
        }
      }
    });
  });

  it('finds the secrets the rules find tried at every place their trigger regex matches', () => {
    const fast = compileRules(BUILTIN_RULES);
    const plain = compileRules(withoutAnchors(BUILTIN_RULES));
    assert.ok(plain.scan && !fast.scan, 'the plain rules have a trigger regex, the built-in ones need none');
    /** Every place each trigger regex matches (overlapping ones too), with the rules it triggers there. */
    const everyHit = (text: string): KeptHits => {
      const hits = { starts: [] as number[], groups: [] as RuleGroup[] };
      const add = (at: number, group: RuleGroup) => {
        const start = group.startAt ? group.startAt(text, at) : at;
        if (start < 0) return;
        hits.starts.push(start);
        hits.groups.push(group);
      };
      for (const group of plain.byGroup.flat()) {
        const trigger = new RegExp(group.rules[0]!.rule.trigger!, 'y');
        for (let at = 0; at < text.length; at++) {
          trigger.lastIndex = at;
          if (trigger.test(text)) add(at, group);
        }
      }
      for (const { char, groups } of plain.byChar) {
        for (let at = text.indexOf(char); at >= 0; at = text.indexOf(char, at + 1)) for (const group of groups) add(at, group);
      }
      return hits;
    };
    const next = random(43);
    for (let trial = 0; trial < 200; trial++) {
      // The first ones longer than the scan's blocks, so triggers straddle their edges.
      const text = adversarial(next, trial < 3 ? 70_000 : 50 + Math.floor(next() * 3000));
      assert.deepEqual(findSecrets(text, fast), matchesAt(text, plain, everyHit(text)), JSON.stringify(text));
    }
  });

  it('trying the assignment and URL rules only where startAt says finds what their regexes find tried at every position', () => {
    const startAtRules = BUILTIN_RULES.filter((rule) => rule.startAt !== undefined);
    assert.deepEqual(startAtRules.map((rule) => rule.name).sort(), ['aws-secret-key', 'password', 'url-credentials', 'url-credentials']);
    const fast = compileRules(startAtRules);
    // A trigger every char matches: each rule's regex is tried at every position. An assignment's
    // separator must not be part of an operator (`==`, `=>`, `!=`, `<=`, `>=`, `::`, `?:`): the rules say so in `startAt` only.
    const everywhere = compileRules(
      startAtRules.map(({ anchors: _anchors, startAt: _startAt, ...rule }) => ({
        ...rule,
        trigger: '[\\s\\S]',
        accept: (match: RegExpExecArray, text: string) =>
          (rule.name === 'url-credentials' || !isOperator(text, match.index + match[1]!.search(/[:=]/))) && (rule.accept?.(match, text) ?? true),
      })),
    );
    const next = random(47);
    let matched = 0;
    for (let trial = 0; trial < 300; trial++) {
      const text = adversarial(next, 50 + Math.floor(next() * 1500));
      const expected = findSecrets(text, everywhere);
      matched += expected.length;
      assert.deepEqual(findSecrets(text, fast), expected, JSON.stringify(text));
    }
    assert.ok(matched > 100, `the texts hold assignments and URLs to find (${matched})`);
  });

  it('a stream decides what a separator at the end of a chunk is only when the next char arrives', () => {
    const redactor = createRedactor();
    for (const [before, after] of [['password=', '=hunter2hunter2'], ['password:', ':hunter2hunter2'], ['token=', '>hunter2hunter2'], ['db_password=', 'hunter2hunter2']]) {
      const text = `${'x'.repeat(20_000)} ${before}${after} done\n${'y'.repeat(20_000)}`;
      const cut = text.indexOf(before) + before.length;
      const stream = redactor.createStream!();
      const out = stream.push(text.slice(0, cut)) + stream.push(text.slice(cut)) + stream.end();
      assert.equal(out, redactor.redact(text), before + after);
    }
  });

  it('a stream gives the text whole-text redaction gives, cut into chunks of any size', () => {
    const redactor = createRedactor();
    const next = random(53);
    for (let trial = 0; trial < 40; trial++) {
      const text = adversarial(next, 20_000 + Math.floor(next() * 60_000));
      const stream = redactor.createStream!();
      let out = '';
      for (let at = 0; at < text.length; ) {
        // Often right after a separator, whose meaning the next char decides (`=` or `==`, `:` or `::`).
        const separator = text.slice(at).search(/[:=]/);
        const size = next() < 0.4 && separator >= 0 ? separator + 1 : 1 + Math.floor(next() * (next() < 0.5 ? 40 : 20_000));
        out += stream.push(text.slice(at, at + size));
        at += size;
      }
      out += stream.end();
      assert.equal(out, redactor.redact(text), `trial ${trial}`);
    }
  });

  it('a stream given long chunks through pushEach (joined only at a seam) gives the text whole-text redaction gives', () => {
    const redactor = createRedactor();
    const next = random(59);
    for (let trial = 0; trial < 30; trial++) {
      const text = adversarial(next, 60_000 + Math.floor(next() * 120_000));
      const stream = redactor.createStream!();
      let out = '';
      for (let at = 0; at < text.length; ) {
        // Long chunks (taken in two steps) and short ones (pushed whole) in any order.
        const size = next() < 0.6 ? 32_768 + Math.floor(next() * 40_000) : 1 + Math.floor(next() * (next() < 0.5 ? 40 : 20_000));
        stream.pushEach!(text.slice(at, at + size), (piece) => (out += piece));
        at += size;
      }
      out += stream.end();
      assert.equal(out, redactor.redact(text), `trial ${trial}`);
    }
  });
});
