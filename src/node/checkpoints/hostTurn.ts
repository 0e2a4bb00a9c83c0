// A host's turn as checkpoints see it: the checkpoint before its first write (the executor asks,
// through the `TurnCheckpoint` port) and the one after it ends (the host says when).
import type { TurnCheckpoint } from '../../executor';
import type { CheckpointStore, TurnRecord } from './checkpointStore';

export class HostTurnCheckpoint implements TurnCheckpoint {
  private taken: Promise<void> | undefined;

  constructor(
    private readonly store: CheckpointStore,
    readonly turnId: string,
    private readonly title: string,
    private readonly folders: readonly string[],
  ) {}

  beforeWrite(signal: AbortSignal): Promise<void> {
    // Concurrent writes of one turn wait on the same checkpoint; one that failed is not retried mid-turn.
    this.taken ??= this.store.beginTurn(this.turnId, this.title, this.folders, signal).then(() => undefined);
    return this.taken;
  }

  /** The checkpoint after the turn; undefined when the turn wrote nothing. */
  async end(reported: readonly string[] = []): Promise<TurnRecord | undefined> {
    if (!this.taken) return undefined;
    try {
      await this.taken;
    } catch {
      return undefined;
    }
    return this.store.endTurn(this.turnId, reported);
  }
}
