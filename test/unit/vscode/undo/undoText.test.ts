import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TurnRecord } from '../../../../src/node/checkpoints/checkpointStore';
import type { UndoOutcome } from '../../../../src/node/checkpoints/undo';
import { conflictDetail, MAX_LISTED_CONFLICTS, outcomeText } from '../../../../src/vscode/undo/undoText';

function outcome(kind: TurnRecord['kind'] | undefined, overrides: Partial<UndoOutcome> = {}): UndoOutcome {
  const record: TurnRecord | undefined = kind ? ({ turnId: `${kind}-1`, title: 't', kind, before: 'b', after: 'a', reported: [], startedAt: 0, endedAt: 0 } as unknown as TurnRecord) : undefined;
  const restored = [
    { path: '/w/a.txt', folder: '/w', kind: 'modified', target: undefined, expected: undefined, current: undefined },
    { path: '/w/b.txt', folder: '/w', kind: 'created', target: undefined, expected: undefined, current: undefined },
  ] as const;
  return { record, restored, skipped: [], notRestorable: [], failed: [], cancelled: false, ...overrides };
}

const shown = (file: string) => file.replace('/w/', '');

describe('what an undo or a redo says it did', () => {
  it('an undo of a turn says what it put back and offers Redo', () => {
    const text = outcomeText(outcome('undo'), shown);
    assert.equal(text.message, 'Put back 2 paths.');
    assert.deepEqual(text.actions, ['Show Changes', 'Redo']);
    assert.equal(text.reverse, 'Redo');
    assert.equal(text.pickTitle, 'What the undo put back');
    assert.equal(text.diffCaption, 'before the undo ↔ now');
  });

  it('a redo says it redid the paths and offers Undo (its own reversal), not Redo', () => {
    const text = outcomeText(outcome('redo'), shown);
    assert.equal(text.message, 'Redid 2 paths.');
    assert.deepEqual(text.actions, ['Show Changes', 'Undo']);
    assert.equal(text.reverse, 'Undo');
    assert.equal(text.pickTitle, 'What the redo put back');
    assert.equal(text.diffCaption, 'before the redo ↔ now');
  });

  it('names skipped, unrestorable and failed paths; without a record there is nothing to reverse', () => {
    const skipped = [{ ...outcome('undo').restored[0]!, laterTurns: [] }];
    const text = outcomeText(
      outcome(undefined, {
        restored: outcome('undo').restored.slice(1),
        skipped,
        notRestorable: [{ path: '/w/big.bin', reason: 'too-large' as never }],
        failed: [{ path: '/w/c.txt', error: 'EACCES' }],
      }),
      shown,
    );
    assert.equal(text.message, 'Put back 1 path; skipped 1 changed since; 1 could not be restored (too-large); 1 failed: c.txt: EACCES.');
    assert.deepEqual(text.actions, ['Show Changes']);
    assert.equal(text.reverse, undefined);
  });
});

describe('what the modal says about paths changed since the turn', () => {
  const conflict = (file: string, laterTurns: string[] = []) => ({ ...outcome('undo').restored[0]!, path: `/w/${file}`, laterTurns });

  it('one file the user changed: "it", not "them"', () => {
    assert.equal(
      conflictDetail([conflict('src/greet.js')], shown),
      ['This file has changed since the turn, by you or another program:', '• src/greet.js', '', 'Skip keeps it as it is now; Overwrite puts it back as it was before the turn.'].join('\n'),
    );
  });

  it('several files, one changed by a later turn: "them", the later turn named, past the limit counted', () => {
    const many = [conflict('a.txt', ['t2']), ...Array.from({ length: MAX_LISTED_CONFLICTS + 1 }, (_, index) => conflict(`f${index}.txt`))];
    const lines = conflictDetail(many, shown).split('\n');
    assert.equal(lines[0], 'These files have changed since the turn, by a later turn or by you:');
    assert.equal(lines[1], '• a.txt (changed by a later turn)');
    assert.equal(lines.length, 1 + MAX_LISTED_CONFLICTS + 1 + 2);
    assert.equal(lines.at(-3), '… and 2 more');
    assert.equal(lines.at(-1), 'Skip keeps them as they are now; Overwrite puts them back as they were before the turn.');
  });
});
