// What of the user's own models talks to an endpoint: a chat request's answer streamed back, and the two
// commands. In the bundle this is `dist/endpoint-models.js` with the wire formats (src/models/), loaded the
// first time a chat sends a request to one of the models or a command runs (`loadEndpointRequests` in
// provider.ts); activation and the model picker need none of it.
import * as vscode from 'vscode';
import type { Logger } from '../../executor';
import { isAbortError, ModelError, streamChat, type ChatRequest, type EndpointModel } from '../../models';

export { ModelCommands } from './commands';

/** A chat request to `entry`, as the provider has made it. */
export interface EndpointRequest {
  readonly entry: EndpointModel;
  readonly apiKey: string | undefined;
  readonly chat: ChatRequest;
  readonly logger: Logger;
  /** The endpoint's count of the prompt's tokens, when it gives one. */
  readonly onInputTokens: (tokens: number) => void;
}

/** Streams the endpoint's answer into `progress`; Stop aborts the HTTP request; a failure is one sentence. */
export async function streamResponse(request: EndpointRequest, progress: vscode.Progress<vscode.LanguageModelResponsePart>, token: vscode.CancellationToken): Promise<void> {
  const { entry, apiKey, chat, logger } = request;
  const controller = new AbortController();
  const listener = token.onCancellationRequested(() => controller.abort());
  try {
    for await (const event of streamChat(entry, apiKey, chat, controller.signal)) {
      if (event.kind === 'text') progress.report(new vscode.LanguageModelTextPart(event.text));
      else if (event.kind === 'toolCall') progress.report(new vscode.LanguageModelToolCallPart(event.callId, event.name, event.input));
      else {
        if (event.inputTokens !== undefined) request.onInputTokens(event.inputTokens);
        logger.info('model.usage', { model: entry.name, inputTokens: event.inputTokens, outputTokens: event.outputTokens });
      }
    }
  } catch (error) {
    if (token.isCancellationRequested || isAbortError(error)) {
      logger.info('model.cancelled', { model: entry.name });
      throw new vscode.CancellationError();
    }
    if (error instanceof ModelError) {
      logger.warn('model.failed', { model: entry.name, kind: error.kind, message: error.message });
      throw new Error(error.message);
    }
    throw error;
  } finally {
    listener.dispose();
    controller.abort();
  }
}
