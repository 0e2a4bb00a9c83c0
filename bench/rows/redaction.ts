// Row 8: redaction of 10 MiB with 200 planted secrets of 10 formats, against one combined regex
// over the same rules (and secretlint's recommended preset, when it is installed).
import { createRedactor } from '../../src/executor/results/redaction/patternRedactor';
import { BUILTIN_RULES } from '../../src/executor/results/redaction/rules';
import { ISSUE_RULE_SOURCES } from '../issueRules';
import { buildCorpus, countFound, countMasks } from '../redactionCorpus';
import { fmt, REPEATS, stat, type Row } from '../lib';

const MIB = 1024 * 1024;
/** A pass takes about 0.1 s: more repeats than the other rows, so one disturbed pass does not move the median. */
const REDACTION_REPEATS = 3 * REPEATS;

function timed<T>(fn: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = fn();
  return { value, ms: performance.now() - started };
}

/** secretlint's recommended preset over the text: findings that cover a planted secret. */
async function secretlint(text: string): Promise<{ found: number; ms: number } | undefined> {
  try {
    const coreName = '@secretlint/core';
    const presetName = '@secretlint/secretlint-rule-preset-recommend';
    const core = await import(coreName);
    const preset = await import(presetName);
    const started = performance.now();
    const result = await core.lintSource({
      source: { filePath: '/bench/corpus.txt', content: text, contentType: 'text' },
      options: { config: { rules: [{ id: presetName, rule: preset.creator }] } },
    });
    return { found: result.messages.length, ms: performance.now() - started };
  } catch {
    return undefined;
  }
}

export async function redactionRow(): Promise<Row> {
  const corpus = buildCorpus();
  const mib = corpus.text.length / MIB;
  const redactor = createRedactor({});
  // Case-sensitive: one regex has one set of flags.
  const combined = new RegExp(ISSUE_RULE_SOURCES.map((source) => `(?:${source})`).join('|'), 'g');
  const combinedToday = new RegExp(BUILTIN_RULES.map((rule) => `(?:${rule.pattern.source})`).join('|'), 'g');
  redactor.redact(corpus.text.slice(0, MIB));
  corpus.text.slice(0, MIB).replace(combined, '[REDACTED]');
  const ours: number[] = [];
  const theirs: number[] = [];
  const today: number[] = [];
  const ratio: number[] = [];
  let redacted = '';
  let combinedOut = '';
  for (let repeat = 0; repeat < REDACTION_REPEATS; repeat++) {
    const base = timed(() => corpus.text.replace(combined, '[REDACTED]'));
    const run = timed(() => redactor.redact(corpus.text));
    const baseToday = timed(() => corpus.text.replace(combinedToday, '[REDACTED]'));
    combinedOut = base.value;
    redacted = run.value;
    theirs.push(mib / (base.ms / 1000));
    today.push(mib / (baseToday.ms / 1000));
    ours.push(mib / (run.ms / 1000));
    ratio.push(base.ms / run.ms);
  }
  const found = countFound(redacted, corpus.planted);
  // The clean text has `[REDACTED` of its own (this redactor's source): only new masks count.
  const falsePositives = countMasks(redactor.redact(corpus.clean)) - countMasks(corpus.clean);
  const combinedFound = countFound(combinedOut, corpus.planted);
  const lint = await secretlint(corpus.text);
  const lintText = lint ? `; secretlint ${(mib / (lint.ms / 1000)).toFixed(1)} MiB/s, ${Math.min(lint.found, corpus.planted.length)}/${corpus.planted.length}` : '; secretlint not installed';
  const r = stat(ratio);
  return {
    measure: `redaction of ${mib.toFixed(0)} MiB with ${corpus.planted.length} planted secrets of 10 formats`,
    baseline: `one combined regex over the issue's 17 rules ${fmt(stat(theirs), 1, ' MiB/s')}, ${combinedFound}/${corpus.planted.length} (over today's rules ${fmt(stat(today), 1, ' MiB/s')})${lintText}`,
    now: `${fmt(stat(ours), 1, ' MiB/s')} (${fmt(r, 2, '×')}), ${found}/${corpus.planted.length}, ${falsePositives} false positives`,
    goal: '≥ 1.3× the combined regex, ≥ 198/200, 0 false positives',
    met: r.median >= 1.3 && found >= 198 && falsePositives === 0,
  };
}
