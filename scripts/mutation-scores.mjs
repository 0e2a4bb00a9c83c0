// Reads StrykerJS's JSON report and prints each mutated file's score, its survivors, and fails when a file
// is under the bar: Stryker's own `thresholds.break` checks only the score of all files together.
import { readFileSync } from 'node:fs';

/** The bar for the code that guards users (policy, paths, redaction). */
const MIN_SCORE = 85;
const REPORT = process.argv[2] ?? 'reports/mutation/mutation.json';

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

const report = JSON.parse(readFileSync(REPORT, 'utf8'));
let failed = false;
const rows = [];
for (const [file, { mutants }] of Object.entries(report.files)) {
  const detected = mutants.filter((mutant) => DETECTED.has(mutant.status)).length;
  const undetected = mutants.filter((mutant) => UNDETECTED.has(mutant.status));
  const score = (100 * detected) / (detected + undetected.length || 1);
  if (score < MIN_SCORE) failed = true;
  rows.push({ file, score, detected, undetected });
}
for (const { file, score, detected, undetected } of rows) {
  console.log(`${score.toFixed(1).padStart(5)}%  ${file}  (${detected} detected, ${undetected.length} survived)${score < MIN_SCORE ? `  < ${MIN_SCORE}%` : ''}`);
  for (const mutant of undetected) {
    const { line, column } = mutant.location.start;
    console.log(`        ${line}:${column} ${mutant.mutatorName} ${mutant.status}: ${JSON.stringify(mutant.replacement ?? '')}`);
  }
}
if (failed) {
  console.error(`[mutation] a file scores under ${MIN_SCORE}%: write the tests that kill its survivors (docs/MUTATION.md lists the ones that cannot be killed)`);
  process.exit(1);
}
