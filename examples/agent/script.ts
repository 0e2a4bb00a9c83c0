// The reference agent's scripted sessions: for each prompt, the steps a model would have taken.
import type { WireCall } from '../../src/bridge/protocol';

export type ScriptStep =
  /** Text for the user (`agent/progress`, or stdout headless). */
  | { readonly say: string }
  | { readonly sleepMs: number }
  /** `executor/listTools`, and say what came back. */
  | { readonly listTools: true }
  /** `executor/listCheckpoints`, then `executor/undoTurn` of the newest turn that is not itself an undo; say what it put back. */
  | { readonly undoLast: { readonly force?: boolean } }
  /** `executor/executeBatch`: the one-shot form. */
  | { readonly batch: readonly WireCall[] }
  /**
   * `executor/beginTurn`, one `executor/offer` per call (as a model streams them), then `executor/endTurn`.
   * `cancel`: `executor/cancelTurn` before ending. `crash: 'beforeEnd'`: the process exits after the offers.
   */
  | { readonly turn: readonly WireCall[]; readonly offerDelayMs?: number; readonly cancel?: boolean; readonly crash?: 'beforeEnd' };

export interface AgentScript {
  readonly prompts: readonly {
    /** Plays when the user's prompt contains this text; without it, for any prompt. The first match wins. */
    readonly when?: string;
    readonly steps: readonly ScriptStep[];
  }[];
}
