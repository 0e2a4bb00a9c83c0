// ACP grants (what the user allowed through session/request_permission) cover their own kind of operation
// only, and an answer to the agent is never wider than the user's: over real stdio pipes (harness.ts).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Acp } from '../../../src/acp/sdk';
import type { Step } from '../../../test/acp/scriptedAgent';
import { acpTests, entries } from './harness';

const acp = acpTests();

describe('ACP grants cover their own operation only', () => {
  const permission = (kind: 'delete' | 'edit' | 'execute', path: string, options?: readonly Acp.PermissionOptionKind[]): Step => ({
    permission: { kind, title: `${kind} ${path}`, path },
    ...(options ? { options } : {}),
  });

  it('a delete the user allowed does not let a write of the same file through', async () => {
    writeFileSync(join(acp.dir(), 'notes.txt'), 'original\n');
    const harness = await acp.start({ answers: [{ kind: 'allowOnce' }, { kind: 'deny' }] });
    await harness.prompt([permission('delete', 'notes.txt'), { write: 'notes.txt', content: 'overwritten\n' }]);
    assert.equal(harness.approvals.asked.length, 2, 'the write is asked for');
    assert.equal(readFileSync(join(acp.dir(), 'notes.txt'), 'utf8'), 'original\n');
  });

  it('a delete allowed for the session does not become a session rule for writes', async () => {
    writeFileSync(join(acp.dir(), 'notes.txt'), 'original\n');
    const harness = await acp.start({ answers: [{ kind: 'allowSession' }, { kind: 'deny' }] });
    await harness.prompt([permission('delete', 'notes.txt'), { write: 'notes.txt', content: 'overwritten\n' }]);
    assert.deepEqual(entries(harness, 'permission')[0]!.outcome, { outcome: 'selected', optionId: 'always' });
    assert.equal(harness.approvals.asked.length, 2, 'the write is asked for');
    assert.equal(readFileSync(join(acp.dir(), 'notes.txt'), 'utf8'), 'original\n');
  });

  it('Allow (once) is never answered with allow_always; the dialog offers only what the agent takes', async () => {
    writeFileSync(join(acp.dir(), 'notes.txt'), 'original\n');
    const harness = await acp.start({ answers: [{ kind: 'allowOnce' }, { kind: 'deny' }] });
    await harness.prompt([permission('edit', 'notes.txt', ['allow_always', 'reject_once']), { write: 'notes.txt', content: 'changed\n' }]);
    assert.equal(harness.approvals.asked[0]!.onceAllowed, false);
    assert.equal(harness.approvals.asked[0]!.sessionAllowed, true);
    assert.deepEqual(entries(harness, 'permission')[0]!.outcome, { outcome: 'selected', optionId: 'no' });
    // Nothing was granted: the write asks again.
    assert.equal(harness.approvals.asked.length, 2);
    assert.equal(readFileSync(join(acp.dir(), 'notes.txt'), 'utf8'), 'original\n');
  });

  it('an allow rule does not answer allow_always either: the user is asked', async () => {
    const harness = await acp.start({ rules: { allow: ['Bash(npm test:*)'] }, answers: [{ kind: 'allowSession' }] });
    await harness.prompt([{ permission: { kind: 'execute', title: 'npm test', rawInput: { command: 'npm test' } }, options: ['allow_always', 'reject_once'] }]);
    assert.equal(harness.approvals.asked.length, 1);
    assert.deepEqual(entries(harness, 'permission')[0]!.outcome, { outcome: 'selected', optionId: 'always' });
  });

  it("Allow for Session on a request our rules can remember answers allow_once: the agent's always may be wider (Claude's is every edit of the session)", async () => {
    const harness = await acp.start({ answers: [{ kind: 'allowSession' }, { kind: 'deny' }] });
    const write = (file: string): Step => ({ permission: { kind: 'edit', title: `Write ${file}`, rawInput: { file_path: join(acp.dir(), file), content: 'new\n' } } });
    await harness.prompt([write('notes.txt'), write('notes.txt'), write('other.txt')]);
    // The same file again runs on our session rule, unasked; another file asks (and is denied).
    assert.equal(harness.approvals.asked.length, 2);
    assert.deepEqual(
      entries(harness, 'permission').map((entry) => entry.outcome),
      [
        { outcome: 'selected', optionId: 'yes' },
        { outcome: 'selected', optionId: 'yes' },
        { outcome: 'selected', optionId: 'no' },
      ],
    );
  });
});
