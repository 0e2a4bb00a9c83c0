// The model loop of `@executor`, one round at a time:
//   1. send the conversation and our tools to the model the user picked (`request.model`): the
//      instructions first, then as much of the conversation as fits its window (contextFit.ts);
//   2. stream its reply: text as markdown, each tool call offered to a `Turn` as soon as it is
//      complete (qualifying calls start while the model still streams);
//   3. end the turn and wait for its results (the reply shows them as they come); a result bigger
//      than its share of the window is cut, with its whole text saved;
//   4. send the results back; stop when the model calls no tool, at the round limit, on the stop
//      button, on a model error (one sentence, never a stack trace), or when even the latest round
//      cannot fit the window.
// Each round's calls and results go into the reply's metadata for the next prompt.
import type { ChatTurnCheckpoint } from '../undo/turnUndo';
import { offerUndo } from '../undo/undoButtons';
import * as vscode from 'vscode';
import type { ToolCall } from '../../executor';
import type { ToolCallResult } from '../../executor';
import { redactionStreamOf } from '../../executor';
import { modelCallsTools } from './attachments';
import { conversationFromHistory, METADATA_VERSION, type ChatRound, type ChatStopReason, type ChatTurnMetadata } from './chatMetadata';
import type { ChatHost } from './chatHost';
import { ContextFit, shortenedLine, toolChoice } from './contextFit';
import { modelErrorSentence, noToolCallingSentence } from './modelErrors';
import { preparePrompt } from './promptContext';
import { ReplyRenderer } from './replyRenderer';
import { oneLine } from './replyText';

/** Rounds of tool calls in one reply unless `agentToolExecutor.chat.maxRounds` says otherwise. */
export const DEFAULT_MAX_ROUNDS = 25;
/** The prompt shown in a turn's label (Tool Calls view) is cut here. Ours. */
export const TURN_LABEL_MAX_CHARS = 50;

export async function runModelLoop(
  host: ChatHost,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const rounds: ChatRound[] = [];
  const result = (stopReason: ChatStopReason, errorMessage?: string): vscode.ChatResult => {
    const metadata: ChatTurnMetadata = { version: METADATA_VERSION, rounds, stopReason };
    return errorMessage ? { metadata, errorDetails: { message: errorMessage } } : { metadata };
  };
  if (!modelCallsTools(request.model)) return result('modelError', noToolCallingSentence(request.model.name));
  const controller = new AbortController();
  const onCancel = token.onCancellationRequested(() => controller.abort());
  const checkpoint = host.checkpoints?.begin(oneLine(host.redactor.redact(request.prompt), TURN_LABEL_MAX_CHARS));
  // What the request's calls reported changed: undo names those no checkpoint holds (ignored files).
  const reported: string[] = [];
  try {
    const earlier = conversationFromHistory(context.history, host.participantId);
    host.refreshTools?.();
    const tools: vscode.LanguageModelChatTool[] = host.executor.registry.describe().map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
    const prepared = await preparePrompt(host, request, earlier, stream, controller.signal);
    const fit = new ContextFit(host, request.model, prepared, earlier, rounds, token);
    await fit.fitAttachments(tools);
    const choice = toolChoice(request.toolReferences ?? [], tools, (line) => stream.markdown(line));
    let saidShortened = false;
    const maxRounds = Math.max(1, host.maxRounds());
    for (let index = 0; index < maxRounds; index++) {
      if (token.isCancellationRequested) return result('cancelled');
      const offered = index === 0 && choice.required ? tools.filter((tool) => tool.name === choice.required) : tools;
      const assembled = await fit.request(offered);
      if (!assembled.ok) return result('contextFull', assembled.sentence);
      if (!saidShortened && (assembled.stubbed.length > 0 || assembled.dropped > 0)) {
        stream.markdown(`\n\n${shortenedLine(request.model.name, fit.window, assembled.stubbed.length, assembled.dropped)}\n\n`);
        saidShortened = true;
      }
      const options: vscode.LanguageModelChatRequestOptions = { tools: offered, justification: 'Runs the tools you approve in this workspace.' };
      if (index === 0 && choice.required) options.toolMode = vscode.LanguageModelChatToolMode.Required;
      const label = `@executor ${oneLine(host.redactor.redact(request.prompt), TURN_LABEL_MAX_CHARS)}${index > 0 ? ` (round ${index + 1})` : ''}`;
      const round = await runRound(host, request, assembled.messages, options, stream, token, controller.signal, label, checkpoint, reported);
      rounds.push(await fit.intake(round.round));
      if (round.error !== undefined) {
        if (token.isCancellationRequested) return result('cancelled');
        return result('modelError', modelErrorSentence(request.model.name, errorFields(round.error)));
      }
      if (round.round.calls.length === 0) return result('done');
    }
    stream.markdown(`\n\nStopped after ${maxRounds} rounds of tool calls (the limit set by \`agentToolExecutor.chat.maxRounds\`). Ask me to continue if there is more to do.`);
    return result('roundLimit');
  } catch (error) {
    if (token.isCancellationRequested) return result('cancelled');
    return result('modelError', modelErrorSentence(request.model.name, errorFields(error)));
  } finally {
    onCancel.dispose();
    const record = await checkpoint?.end(reported).catch((error: unknown) => {
      host.logger?.warn('chat.checkpoint.failed', { error: String(error) });
      return undefined;
    });
    if (record) offerUndo(stream, record.turnId);
  }
}

interface RoundOutcome {
  readonly round: ChatRound;
  /** The model request failed (after the calls it made were finished). */
  readonly error?: unknown;
}

async function runRound(
  host: ChatHost,
  request: vscode.ChatRequest,
  messages: vscode.LanguageModelChatMessage[],
  options: vscode.LanguageModelChatRequestOptions,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  signal: AbortSignal,
  label: string,
  checkpoint: ChatTurnCheckpoint | undefined,
  reported: string[],
): Promise<RoundOutcome> {
  const turn = host.executor.beginTurn({ signal, offeredTools: new Set((options.tools ?? []).map((tool) => tool.name)), label, ...(checkpoint ? { checkpoint: checkpoint.checkpoint } : {}) });
  checkpoint?.bind(turn.id);
  const renderer = new ReplyRenderer(stream, turn, { redactor: host.redactor, diffLinks: host.diffLinks, workspaceFolders: () => host.workspaceFolders() });
  const calls: ToolCall[] = [];
  let text = '';
  let error: unknown;
  // The model's text is shown redacted too, a whole line at a time (not through the executor's
  // hold-back stream, which would keep kilobytes of the reply back while it streams).
  const shown = redactionStreamOf({ redact: (chunk) => host.redactor.redact(chunk) });
  try {
    const response = await request.model.sendRequest(messages, options, token);
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) {
        text += part.value;
        const ready = shown.push(part.value);
        if (ready) stream.markdown(ready);
      } else if (part instanceof vscode.LanguageModelToolCallPart) {
        // The text before a call is shown before the call's lines.
        const before = shown.end();
        if (before) stream.markdown(before);
        const call: ToolCall = { id: part.callId, name: part.name, input: part.input };
        calls.push(call);
        renderer.expect(call.id, call.name, call.input);
        turn.offer(call);
      }
    }
  } catch (caught) {
    error = caught;
  } finally {
    turn.end();
    const rest = shown.end();
    if (rest) stream.markdown(rest);
  }
  try {
    const results = await turn.results();
    for (const result of results) for (const change of result.changes) reported.push(change.absolutePath);
    return { round: roundOf(text, calls, results), error };
  } finally {
    renderer.dispose();
  }
}

function roundOf(text: string, calls: readonly ToolCall[], results: readonly ToolCallResult[]): ChatRound {
  return {
    text,
    calls: calls.map((call) => ({ id: call.id, name: call.name, input: typeof call.input === 'object' && call.input !== null ? call.input : {} })),
    results: results.map((result) => ({ callId: result.callId, content: result.modelContent, isError: result.isError, ...(result.artifact ? { artifactUri: result.artifact.uri } : {}) })),
  };
}

function errorFields(error: unknown): { code?: unknown; message?: unknown } | undefined {
  if (error instanceof vscode.LanguageModelError) return { code: error.code, message: error.message };
  if (error instanceof Error) return { message: error.message };
  if (typeof error === 'string') return { message: error };
  // Errors that crossed from another extension host arrive as plain objects.
  return typeof error === 'object' && error !== null ? { code: (error as { code?: unknown }).code, message: (error as { message?: unknown }).message ?? JSON.stringify(error) } : undefined;
}
