// `@executor /compact`: the model summarises the conversation so far; the reply keeps the summary in
// its metadata, and later prompts start from it instead of the whole history (chatMetadata.ts).
import * as vscode from 'vscode';
import { conversationFromHistory, METADATA_VERSION, type ChatTurnMetadata } from './chatMetadata';
import { toChatMessages, windowOf } from './modelCounter';
import { budgetOf } from './prompt/window';
import { ContextMemory } from './modelCounter';
import { modelErrorSentence } from './modelErrors';
import type { ChatHost } from './chatHost';
import { assemble } from './prompt/assemble';
import { userText } from './prompt/promptMessages';

const SUMMARY_REQUEST =
  'Summarise this conversation so far for yourself, to continue from it later without the full history: the task and what the user asked, ' +
  'decisions made, files read or changed (with paths) and what matters in them, what is done, what is left, and any saved-output URIs worth reading again. ' +
  'Plain text, as short as it can be while losing nothing needed to continue. Call no tools.';

export async function compactConversation(host: ChatHost, request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const earlier = conversationFromHistory(context.history, host.participantId);
  if (earlier.length === 0) {
    stream.markdown('Nothing to compact yet: this chat has no earlier prompts of @executor.');
    return {};
  }
  const memory = host.contextMemory ?? new ContextMemory();
  const extra = request.prompt.trim();
  const ask = userText(extra ? `${SUMMARY_REQUEST}\n\nThe user adds: ${extra}` : SUMMARY_REQUEST);
  try {
    const assembled = await assemble({
      instructions: userText('You are summarising a coding conversation between a user and @executor, a coding agent in VS Code.'),
      earlier,
      current: { prompt: ask, rounds: [] },
      toolTokens: 0,
      budget: budgetOf(windowOf(request.model)),
      count: (message) => memory.counter.count(request.model, message, token),
      saved: memory.saved,
      save: async (callId, text) => host.saveResult?.(callId, text),
    });
    if (!assembled.ok) return { errorDetails: { message: `The conversation does not fit ${request.model.name}'s window even shortened; start a new chat.` } };
    const response = await request.model.sendRequest(toChatMessages(assembled.messages), { justification: 'Summarises this chat for /compact.' }, token);
    let summary = '';
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) summary += part.value;
    }
    summary = host.redactor.redact(summary.trim());
    if (!summary) return { errorDetails: { message: `${request.model.name} gave no summary; the conversation is kept as it was.` } };
    stream.markdown(`**Conversation compacted.** Later prompts in this chat start from this summary:\n\n${summary}`);
    const metadata: ChatTurnMetadata = { version: METADATA_VERSION, rounds: [], stopReason: 'done', summary };
    return { metadata };
  } catch (error) {
    if (token.isCancellationRequested) return {};
    const fields = error instanceof vscode.LanguageModelError ? { code: error.code, message: error.message } : { message: error instanceof Error ? error.message : String(error) };
    return { errorDetails: { message: modelErrorSentence(request.model.name, fields) } };
  }
}
