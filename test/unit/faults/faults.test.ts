// Runs the fault catalogue (test/faults/catalogue.ts): each entry through the built CLI or the core.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FAULT_CATALOGUE, reliabilityTable } from '../../faults/catalogue';
import { readSection, UPDATING, writeSection } from '../../faults/reliabilityDoc';

/** Entries run at once: most of their time is spent waiting on processes, not on the 2 cores. */
const CONCURRENT_ENTRIES = 3;

describe('fault catalogue', { concurrency: CONCURRENT_ENTRIES }, () => {
  for (const entry of FAULT_CATALOGUE) {
    it(`${entry.id}: ${entry.fault} → ${entry.expected}`, () => entry.run());
  }
});

describe('RELIABILITY.md', () => {
  it('lists the catalogue as the suite has it (UPDATE_RELIABILITY=1 rewrites it)', () => {
    const table = reliabilityTable();
    if (UPDATING) writeSection('catalogue', table);
    assert.equal(readSection('catalogue'), table, 'RELIABILITY.md is out of step with test/faults/catalogue.ts: run UPDATE_RELIABILITY=1 npm run test:unit');
  });

  it('has at least 80 entries, covering every defect class', () => {
    assert.ok(FAULT_CATALOGUE.length >= 80, `${FAULT_CATALOGUE.length} entries`);
    for (const defectClass of [1, 2, 3, 4, 5, 6, 7, 9, 12]) assert.ok(FAULT_CATALOGUE.some((entry) => entry.defectClass === defectClass), `class ${defectClass}`);
    assert.equal(new Set(FAULT_CATALOGUE.map((entry) => entry.id)).size, FAULT_CATALOGUE.length, 'ids are unique');
  });
});
