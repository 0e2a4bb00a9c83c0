// One agent request = one executor turn with one call of our tools, so rules, hooks, approvals,
// snapshots, redaction, budgets and artifacts apply to it exactly as to a model's call.
import type { ToolCall } from '../executor/contract/contract';
import type { ToolExecutor } from '../executor/executor';
import type { ApprovalClient } from '../executor/ports/approvalClient';
import type { ToolCallResult } from '../executor/contract/result';
import type { Turn, TurnOptions } from '../executor/turn/turn';

/** What a request's turn gets from the host (VS Code: the chat request's context and label; a renderer). */
export interface TurnHost {
  turnOptions?(sessionId: string): Partial<TurnOptions>;
  /** A turn of the session's requests started (the chat reply draws it). */
  observe?(turn: Turn, call: ToolCall, sessionId: string): void;
}

export interface CallRunner {
  readonly executor: ToolExecutor;
  readonly turns?: TurnHost;
  /** Who answers the approvals of a session's calls. @default the executor's */
  approvalsFor?(sessionId: string): ApprovalClient | undefined;
}

export interface RunOptions {
  readonly sessionId: string;
  readonly signal: AbortSignal;
}

let counter = 0;

/** Runs `name(input)` through the executor as a turn of its own; the result is final (never throws for tool failures). */
export async function runCall(runner: CallRunner, name: string, input: unknown, options: RunOptions): Promise<ToolCallResult> {
  const extra = runner.turns?.turnOptions?.(options.sessionId) ?? {};
  const approvalClient = runner.approvalsFor?.(options.sessionId);
  const turn = runner.executor.beginTurn({ ...extra, ...(approvalClient ? { approvalClient } : {}), signal: options.signal });
  const id = turn.offer({ id: `acp_${++counter}`, name, input });
  runner.turns?.observe?.(turn, { id, name, input }, options.sessionId);
  turn.end();
  const [result] = await turn.results();
  return result!;
}
