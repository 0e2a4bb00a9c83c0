// What a reply of `@executor` keeps for the next prompt (issue 11): each round's model text, tool calls
// and the (redacted, budgeted) results the model got, in `ChatResult.metadata`; and the conversation
// rebuilt from `context.history` with it, so a follow-up continues where the last turn ended.
import * as vscode from 'vscode';

export const METADATA_VERSION = 1;

export interface ChatRoundCall {
  readonly id: string;
  readonly name: string;
  /** The arguments as the model sent them (what it must see again). */
  readonly input: object;
}

export interface ChatRoundResult {
  readonly callId: string;
  /** Exactly what the model received. */
  readonly content: string;
  readonly isError: boolean;
}

export interface ChatRound {
  readonly text: string;
  readonly calls: readonly ChatRoundCall[];
  readonly results: readonly ChatRoundResult[];
}

export type ChatStopReason = 'done' | 'roundLimit' | 'cancelled' | 'modelError';

export interface ChatTurnMetadata {
  readonly version: typeof METADATA_VERSION;
  readonly rounds: readonly ChatRound[];
  readonly stopReason: ChatStopReason;
}

export function isChatTurnMetadata(value: unknown): value is ChatTurnMetadata {
  return typeof value === 'object' && value !== null && (value as ChatTurnMetadata).version === METADATA_VERSION && Array.isArray((value as ChatTurnMetadata).rounds);
}

/** The earlier prompts and replies of this participant, as model messages; slash-command turns are skipped. */
export function messagesFromHistory(history: vscode.ChatContext['history'], participantId: string): vscode.LanguageModelChatMessage[] {
  const messages: vscode.LanguageModelChatMessage[] = [];
  for (const turn of history) {
    if (turn.participant !== participantId || turn.command) continue;
    if (turn instanceof vscode.ChatRequestTurn) {
      messages.push(vscode.LanguageModelChatMessage.User(turn.prompt));
      continue;
    }
    const metadata = turn.result.metadata;
    if (isChatTurnMetadata(metadata)) {
      messages.push(...messagesOfRounds(metadata.rounds));
    } else {
      const text = responseText(turn);
      if (text) messages.push(vscode.LanguageModelChatMessage.Assistant(text));
    }
  }
  return messages;
}

/** One round: the model's text and calls, then (when it called tools) the results it got. */
export function messagesOfRounds(rounds: readonly ChatRound[]): vscode.LanguageModelChatMessage[] {
  const messages: vscode.LanguageModelChatMessage[] = [];
  for (const round of rounds) {
    const parts: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = [];
    if (round.text) parts.push(new vscode.LanguageModelTextPart(round.text));
    for (const call of round.calls) parts.push(new vscode.LanguageModelToolCallPart(call.id, call.name, call.input));
    if (parts.length > 0) messages.push(vscode.LanguageModelChatMessage.Assistant(parts));
    if (round.results.length > 0) {
      messages.push(vscode.LanguageModelChatMessage.User(round.results.map((result) => new vscode.LanguageModelToolResultPart(result.callId, [new vscode.LanguageModelTextPart(result.content)]))));
    }
  }
  return messages;
}

/** The markdown of a reply that kept no rounds (an older reply, or one that failed early). */
function responseText(turn: vscode.ChatResponseTurn): string {
  return turn.response
    .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
    .join('')
    .trim();
}
