// Port: the content checkpoint a host takes before its turn's first write, so the turn can be undone whole.
export interface TurnCheckpoint {
  /** Resolves once the checkpoint is taken; every later call of the turn gets the same promise. */
  beforeWrite(signal: AbortSignal): Promise<void>;
}
