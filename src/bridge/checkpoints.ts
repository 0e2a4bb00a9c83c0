// The bridge's checkpointed turns as they travel to an agent: `executor/listCheckpoints` entries and
// `executor/undoTurn` answers, from the host's one checkpoint store (src/node/checkpoints).
import type { TurnRecord } from '../node/checkpoints/checkpointStore';
import type { UndoOutcome } from '../node/checkpoints/undo';
import type { CheckpointedTurn, UndoTurnResponse } from './protocol';

export function wireCheckpointedTurn(turn: TurnRecord): CheckpointedTurn {
  return { undoId: turn.turnId, kind: turn.kind, title: turn.title, endedAt: new Date(turn.endedAt).toISOString(), ...(turn.reverses ? { reverses: turn.reverses } : {}) };
}

export function wireUndo(undoId: string, outcome: UndoOutcome): UndoTurnResponse {
  return {
    undone: undoId,
    ...(outcome.record ? { redoId: outcome.record.turnId } : {}),
    restored: outcome.restored.map((entry) => ({ path: entry.path, was: entry.kind })),
    skipped: outcome.skipped.map((entry) => ({ path: entry.path, laterTurns: [...entry.laterTurns] })),
    notRestorable: outcome.notRestorable.map((entry) => ({ path: entry.path, reason: entry.reason })),
    failed: outcome.failed.map((entry) => ({ path: entry.path, error: entry.error })),
    cancelled: outcome.cancelled,
  };
}
