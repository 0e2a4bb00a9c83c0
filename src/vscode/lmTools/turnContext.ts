// What a turn started for a language model tool call carries as `ctx.turn.context`: the same shape as
// `@executor`'s (see chat/modelLoop.ts `ChatTurnContext`), except that the token may be absent (a call
// made outside a chat request).
import type * as vscode from 'vscode';

export interface LmTurnContext {
  readonly toolInvocationToken: vscode.ChatParticipantToolToken | undefined;
}

/** The invocation token of the chat request a handler runs for, when it runs for one. */
export function invocationTokenOf(turnContext: unknown): vscode.ChatParticipantToolToken | undefined {
  if (turnContext === null || typeof turnContext !== 'object') return undefined;
  return (turnContext as Partial<LmTurnContext>).toolInvocationToken;
}
