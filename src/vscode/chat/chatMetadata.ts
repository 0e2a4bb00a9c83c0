// What a reply of `@executor` keeps for the next prompt: each round's model text, tool calls
// and the (redacted, budgeted) results the model got, in `ChatResult.metadata`; and the conversation
// rebuilt from `context.history` with it, so a follow-up continues where the last turn ended.
import * as vscode from 'vscode';
import type { ConversationTurn } from './prompt/conversationUnits';
import { fingerprint, userText } from './prompt/promptMessages';

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
  /** Where the whole output can be read again, when it was saved (by the executor's budget, or when cut to fit). */
  readonly artifactUri?: string;
}

export interface ChatRound {
  readonly text: string;
  readonly calls: readonly ChatRoundCall[];
  readonly results: readonly ChatRoundResult[];
}

export type ChatStopReason = 'done' | 'roundLimit' | 'cancelled' | 'modelError' | 'contextFull';

export interface ChatTurnMetadata {
  readonly version: typeof METADATA_VERSION;
  readonly rounds: readonly ChatRound[];
  readonly stopReason: ChatStopReason;
  /** `/compact`'s summary: the conversation before it is this text from then on. */
  readonly summary?: string;
}

export function isChatTurnMetadata(value: unknown): value is ChatTurnMetadata {
  return typeof value === 'object' && value !== null && (value as ChatTurnMetadata).version === METADATA_VERSION && Array.isArray((value as ChatTurnMetadata).rounds);
}

/** The slash command whose reply replaces the conversation before it with a summary. */
export const COMPACT_COMMAND = 'compact';

/**
 * The earlier prompts and replies as turns for the context budget: each prompt with the rounds of
 * its reply. A `/compact` reply starts the list over from its summary; other slash commands are skipped.
 */
export function conversationFromHistory(history: vscode.ChatContext['history'], participantId: string): ConversationTurn[] {
  let turns: ConversationTurn[] = [];
  let pending: string | undefined;
  history.forEach((turn, index) => {
    if (turn.participant !== participantId) return;
    if (turn instanceof vscode.ChatRequestTurn) {
      pending = turn.command ? undefined : promptWithReferences(turn);
      return;
    }
    const metadata = turn.result.metadata;
    if (turn.command === COMPACT_COMMAND && isChatTurnMetadata(metadata) && metadata.summary) {
      turns = [{ prompt: userText(`Summary of the conversation so far (made by /compact):\n\n${metadata.summary}`, `c:${index}:${fingerprint(metadata.summary)}`), rounds: [] }];
      return;
    }
    if (turn.command || pending === undefined) return;
    const prompt = userText(pending, `p:${index}:${fingerprint(pending)}`);
    pending = undefined;
    if (isChatTurnMetadata(metadata)) {
      turns.push({ prompt, rounds: metadata.rounds });
    } else {
      const text = responseText(turn);
      turns.push({ prompt, rounds: text ? [{ text, calls: [], results: [] }] : [] });
    }
  });
  return turns;
}

/** An earlier prompt, with the names of what was attached to it (their text went with that request only). */
function promptWithReferences(turn: vscode.ChatRequestTurn): string {
  const names = turn.references.map((reference) => (reference.value instanceof vscode.Uri ? reference.value.fsPath : reference.value instanceof vscode.Location ? reference.value.uri.fsPath : (reference.modelDescription ?? reference.id)));
  return names.length > 0 ? `${turn.prompt}\n\n[Attached then: ${names.join(', ')}]` : turn.prompt;
}

/** The markdown of a reply that kept no rounds (an older reply, or one that failed early). */
function responseText(turn: vscode.ChatResponseTurn): string {
  return turn.response
    .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
    .join('')
    .trim();
}
