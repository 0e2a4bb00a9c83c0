// What undo says: the modal about paths changed since the turn, and the notification after an undo
// or a redo with the button that reverses it (a redo is undone by "Undo", an undo by "Redo").
import type { Conflict, PlannedPath, UndoOutcome, UndoPlan } from '../../node/checkpoints/undo';

/** Conflicts listed in the modal; the rest are counted. */
export const MAX_LISTED_CONFLICTS = 10;

/** The modal's detail: the paths changed since the turn, and what each answer does to them. */
export function conflictDetail(conflicts: readonly Conflict[], shown: (file: string) => string): string {
  const later = [...new Set(conflicts.flatMap((conflict) => conflict.laterTurns))];
  const lines = conflicts.slice(0, MAX_LISTED_CONFLICTS).map((conflict) => `• ${shown(conflict.path)}${conflict.laterTurns.length > 0 ? ' (changed by a later turn)' : ''}`);
  if (conflicts.length > MAX_LISTED_CONFLICTS) lines.push(`… and ${conflicts.length - MAX_LISTED_CONFLICTS} more`);
  return [
    `${conflicts.length === 1 ? 'This file has' : 'These files have'} changed since the turn${later.length > 0 ? `, ${later.length === 1 ? 'by a later turn' : `by ${later.length} later turns`} or by you` : ', by you or another program'}:`,
    ...lines,
    '',
    conflicts.length === 1
      ? 'Skip keeps it as it is now; Overwrite puts it back as it was before the turn.'
      : 'Skip keeps them as they are now; Overwrite puts them back as they were before the turn.',
  ].join('\n');
}

export interface OutcomeText {
  readonly message: string;
  /** The notification's buttons: Show Changes, then the reversal when there is one. */
  readonly actions: readonly string[];
  /** The button that undoes this undo or redo; undefined when it recorded nothing. */
  readonly reverse: 'Redo' | 'Undo' | undefined;
  /** The title of the list of what it put back. */
  readonly pickTitle: string;
  /** The caption of a diff of one path it put back. */
  readonly diffCaption: string;
}

export function outcomeText(outcome: UndoOutcome, shown: (file: string) => string): OutcomeText {
  const redo = outcome.record?.kind === 'redo';
  const count = outcome.restored.length;
  const parts = [`${redo ? 'Redid' : 'Put back'} ${count} path${count === 1 ? '' : 's'}`];
  if (outcome.skipped.length > 0) parts.push(`skipped ${outcome.skipped.length} changed since`);
  if (outcome.notRestorable.length > 0) parts.push(`${outcome.notRestorable.length} could not be restored (${[...new Set(outcome.notRestorable.map((entry) => entry.reason))].join(', ')})`);
  if (outcome.failed.length > 0) parts.push(`${outcome.failed.length} failed: ${outcome.failed.map((entry) => `${shown(entry.path)}: ${entry.error}`).join('; ')}`);
  const reverse = outcome.record ? (redo ? 'Undo' : 'Redo') : undefined;
  const what = redo ? 'redo' : 'undo';
  return {
    message: `${parts.join('; ')}.`,
    actions: reverse ? ['Show Changes', reverse] : ['Show Changes'],
    reverse,
    pickTitle: `What the ${what} put back`,
    diffCaption: `before the ${what} ↔ now`,
  };
}

/** Paths an agent's undo request lists in the approval; the rest are counted. */
export const MAX_LISTED_AGENT_PATHS = 20;

const AGENT_VERB: Record<PlannedPath['kind'], string> = { created: 'remove', modified: 'put back', deleted: 'bring back' };

/** What an agent's undo would write, for the approval it needs: each path and what happens to it. */
export function agentUndoDetail(plan: UndoPlan, force: boolean, shown: (file: string) => string): string {
  const writes: (PlannedPath & { readonly changedSince?: boolean })[] = [...plan.safe, ...(force ? plan.conflicts.map((conflict) => ({ ...conflict, changedSince: true })) : [])];
  const lines = writes.slice(0, MAX_LISTED_AGENT_PATHS).map((entry) => `• ${AGENT_VERB[entry.kind]} ${shown(entry.path)}${entry.changedSince ? ' (changed since the turn: you are asked next)' : ''}`);
  if (writes.length > MAX_LISTED_AGENT_PATHS) lines.push(`… and ${writes.length - MAX_LISTED_AGENT_PATHS} more`);
  const kept = force ? [] : plan.conflicts;
  return [
    `The agent asks to undo "${plan.turn.title}". This would:`,
    ...lines,
    ...(kept.length > 0 ? ['', `${kept.length} file${kept.length === 1 ? '' : 's'} changed since the turn ${kept.length === 1 ? 'stays' : 'stay'} as ${kept.length === 1 ? 'it is' : 'they are'}.`] : []),
  ].join('\n');
}
