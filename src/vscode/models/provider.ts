// Adapter: the user's own models (the setting `agentToolExecutor.models`) as a VS Code
// LanguageModelChatProvider. A request goes to the entry's endpoint in its wire format (src/models/)
// with the key from SecretStorage; text and tool calls stream back as they arrive; Stop aborts the
// HTTP request; a failure is one sentence. Listing the models reads the setting only: nothing is sent,
// and the wire formats are loaded by the first request (endpointRequests.ts).
import * as vscode from 'vscode';
import type { Logger } from '../../executor';
import type { ChatRequest, EndpointModel } from '../../models';
import { charsOf, partChars, toChatMessages, toChatTools } from './chatMessages';
import { apiKeySecretName, MODELS_SETTING } from './modelSettings';
import { TokenEstimate } from './tokenEstimate';

type EndpointRequests = typeof import('./endpointRequests');

/** The code that talks to endpoints, loaded on first use (`dist/endpoint-models.js` in the bundle). */
export function loadEndpointRequests(): EndpointRequests {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./endpointRequests') as EndpointRequests;
}

export class EndpointModelProvider implements vscode.LanguageModelChatProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private readonly estimate = new TokenEstimate();

  constructor(
    private readonly models: () => readonly EndpointModel[],
    private readonly secrets: vscode.SecretStorage,
    private readonly logger: Logger,
  ) {}

  /** The setting changed: VS Code asks for the list again. */
  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  provideLanguageModelChatInformation(): vscode.LanguageModelChatInformation[] {
    return this.models().map((entry) => ({
      id: entry.name,
      name: entry.name,
      family: entry.model,
      version: entry.format,
      tooltip: `${entry.model} at ${entry.baseUrl} (${entry.format === 'openai' ? 'OpenAI chat completions' : 'Anthropic Messages'}), from ${MODELS_SETTING}`,
      detail: entry.model === entry.name ? entry.format : entry.model,
      maxInputTokens: entry.maxInputTokens,
      maxOutputTokens: entry.maxOutputTokens,
      capabilities: { toolCalling: entry.toolCalling, imageInput: entry.imageInput },
    }));
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const entry = this.models().find((candidate) => candidate.name === model.id);
    if (!entry) throw new Error(`"${model.id}" is no longer in ${MODELS_SETTING}; pick another model in the chat's model picker.`);
    const tools = toChatTools(options.tools);
    if (!entry.toolCalling && options.toolMode === vscode.LanguageModelChatToolMode.Required && tools.length > 0) {
      throw new Error(`${entry.name} is set not to call tools (toolCalling is false in ${MODELS_SETTING}), and this request needs a tool call; pick a model with tool calling.`);
    }
    const apiKey = await this.secrets.get(apiKeySecretName(entry.name));
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    const chat: ChatRequest = {
      model: entry.model,
      messages: toChatMessages(messages, entry.imageInput),
      tools: entry.toolCalling ? tools : [],
      toolMode: options.toolMode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto',
      maxOutputTokens: entry.maxOutputTokens,
    };
    const sentChars = chat.messages.reduce((sum, message) => sum + message.parts.reduce((inner, part) => inner + partChars(part), 0), 0) + JSON.stringify(chat.tools).length;
    this.logger.info('model.request', { model: entry.name, format: entry.format, baseUrl: entry.baseUrl, messages: chat.messages.length, tools: chat.tools.length });
    const onInputTokens = (tokens: number) => this.estimate.calibrate(entry.name, sentChars, tokens);
    await loadEndpointRequests().streamResponse({ entry, apiKey, chat, logger: this.logger, onInputTokens }, progress, token);
  }

  provideTokenCount(model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    return Promise.resolve(this.estimate.count(model.id, charsOf(text)));
  }
}
