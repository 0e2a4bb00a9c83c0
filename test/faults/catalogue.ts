// The fault catalogue (hardening issue): every bad input and fault a hostile tester tried, and more of
// each defect class, with the result it must give. Each entry runs through the built CLI (or, for what
// only a host sees, through the core) and `checkInvariants` holds for every CLI entry. RELIABILITY.md's
// table is generated from this list (`reliabilityTable`), and a test fails when the two differ.
// The class files add their entries as they are imported, in this order.
import './classes/0-malformed';
import './classes/1-settings';
import './classes/2-termination';
import './classes/3-customTools';
import './classes/4-secrets';
import './classes/5-processes';
import './classes/6-errors';
import './classes/7-sizes';
import './classes/9-races';
import './classes/wire';
import './classes/12-guards';
import { CLASS_NAMES, entries, type FaultEntry } from './define';

export { CLASS_NAMES, type DefectClass, type FaultEntry } from './define';

/** Every entry, in catalogue order. */
export const FAULT_CATALOGUE: readonly FaultEntry[] = entries;

/** The test that runs an entry, as RELIABILITY.md names it. */
export const CATALOGUE_TEST = 'test/unit/faults/faults.test.ts';

/** The RELIABILITY.md section listing the catalogue (generated; a test keeps the file in step). */
export function reliabilityTable(): string {
  const lines = [
    `${FAULT_CATALOGUE.length} entries (${FAULT_CATALOGUE.filter((entry) => entry.via === 'cli').length} through the built CLI, ${FAULT_CATALOGUE.filter((entry) => entry.via === 'core').length} through the core), by defect class:`,
    '',
    '| class | entries |',
    '|---|---|',
    ...([1, 2, 3, 4, 5, 6, 7, 9, 12, 0] as const).map((defectClass) => `| ${defectClass === 0 ? '–' : defectClass}. ${CLASS_NAMES[defectClass]} | ${FAULT_CATALOGUE.filter((entry) => entry.defectClass === defectClass).length} |`),
    '',
    '| # | class | input or fault | expected result | test |',
    '|---|---|---|---|---|',
    ...FAULT_CATALOGUE.map((entry, index) => `| ${index + 1} | ${entry.defectClass === 0 ? '–' : entry.defectClass} | ${cell(entry.fault)} | ${cell(entry.expected)} | \`${CATALOGUE_TEST}\` › ${entry.id} (${entry.via}) |`),
  ];
  return lines.join('\n');
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

