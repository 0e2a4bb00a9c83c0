// The two commands of the user's own models: "Set API Key…" keeps a key in SecretStorage (never in
// settings.json), and "Add Model from Endpoint…" lists an endpoint's models and adds the one picked to
// `agentToolExecutor.models` in user settings.
import * as vscode from 'vscode';
import type { Logger } from '../../executor';
import { listModels, type EndpointModel, type WireFormat } from '../../models';
import { apiKeySecretName, DEFAULT_MAX_INPUT_TOKENS, DEFAULT_MAX_OUTPUT_TOKENS, MODELS_SETTING } from './modelSettings';

/** Where each kind of endpoint usually is; the URL can be edited before listing. */
const PRESETS: readonly { label: string; format: WireFormat; baseUrl: string; needsKey: boolean }[] = [
  { label: 'Ollama', format: 'openai', baseUrl: 'http://localhost:11434/v1', needsKey: false },
  { label: 'LM Studio', format: 'openai', baseUrl: 'http://localhost:1234/v1', needsKey: false },
  { label: 'OpenAI-compatible (OpenAI, vLLM, llama.cpp, a gateway)', format: 'openai', baseUrl: 'https://api.openai.com/v1', needsKey: true },
  { label: 'Anthropic', format: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', needsKey: true },
];

/** What a caller (a test, another extension) may fill in instead of asking; a key is always typed in. */
export interface AddModelArgs {
  readonly format?: WireFormat;
  readonly baseUrl?: string;
  readonly model?: string;
  readonly name?: string;
}

export class ModelCommands {
  constructor(
    private readonly models: () => readonly EndpointModel[],
    private readonly secrets: vscode.SecretStorage,
    private readonly logger: Logger,
  ) {}

  /** Asks which model and its key (a password box); an empty key removes the stored one. */
  async setApiKey(args?: { readonly name?: string }): Promise<void> {
    const names = this.models().map((entry) => entry.name);
    if (names.length === 0) {
      void vscode.window.showInformationMessage(`No model in ${MODELS_SETTING} yet: add one with "Agent Tool Executor: Add Model from Endpoint…" first.`);
      return;
    }
    const name = args?.name && names.includes(args.name) ? args.name : await vscode.window.showQuickPick(names, { title: 'Set API Key', placeHolder: 'The model whose endpoint the key is for' });
    if (!name) return;
    const key = await this.askKey(name);
    if (key === undefined) return;
    await this.storeKey(name, key);
    void vscode.window.showInformationMessage(key ? `The API key for ${name} is stored in VS Code's secret storage.` : `The API key for ${name} is removed.`);
  }

  /** Asks for the endpoint, lists its models, and adds the one picked (`args` skips the questions it answers). */
  async addFromEndpoint(args: AddModelArgs = {}): Promise<EndpointModel | undefined> {
    let format = args.format;
    let baseUrl = args.baseUrl;
    let needsKey = false;
    if (!format || !baseUrl) {
      const preset = await vscode.window.showQuickPick(
        PRESETS.map((item) => ({ label: item.label, description: item.baseUrl, item })),
        { title: 'Add Model from Endpoint', placeHolder: 'What kind of endpoint?' },
      );
      if (!preset) return undefined;
      format = preset.item.format;
      needsKey = preset.item.needsKey;
      baseUrl = await vscode.window.showInputBox({ title: 'Base URL', value: preset.item.baseUrl, prompt: 'Up to the version path, such as http://localhost:11434/v1', ignoreFocusOut: true });
      if (!baseUrl) return undefined;
    }
    baseUrl = baseUrl.trim().replace(/\/+$/, '');
    const known = this.models().find((entry) => entry.baseUrl === baseUrl);
    let apiKey = known ? await this.secrets.get(apiKeySecretName(known.name)) : undefined;
    if (needsKey && apiKey === undefined) {
      apiKey = await vscode.window.showInputBox({ title: `API key for ${baseUrl}`, password: true, prompt: 'Kept in VS Code\'s secret storage, never in settings.json. Empty: none.', ignoreFocusOut: true });
      if (apiKey === undefined) return undefined;
    }
    const endpointFormat = format;
    const endpointUrl = baseUrl;
    const key = apiKey || undefined;
    let offered: string[];
    try {
      offered = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Listing the models of ${endpointUrl}…`, cancellable: true }, (_progress, token) => {
        const controller = new AbortController();
        const listener = token.onCancellationRequested(() => controller.abort());
        return listModels(endpointFormat, endpointUrl, key, controller.signal).finally(() => listener.dispose());
      });
    } catch (error) {
      this.logger.warn('models.list_failed', { baseUrl: endpointUrl, error: (error as Error).message });
      void vscode.window.showErrorMessage((error as Error).message);
      return undefined;
    }
    if (offered.length === 0) {
      void vscode.window.showWarningMessage(`${endpointUrl} lists no models.`);
      return undefined;
    }
    let model = args.model;
    if (model !== undefined && !offered.includes(model)) {
      void vscode.window.showErrorMessage(`${endpointUrl} has no model "${model}"; it lists ${offered.slice(0, 10).join(', ')}${offered.length > 10 ? ', …' : ''}.`);
      return undefined;
    }
    model ??= await vscode.window.showQuickPick(offered, { title: `Models of ${endpointUrl}`, placeHolder: 'The model to add' });
    if (!model) return undefined;
    const taken = new Set(this.models().map((entry) => entry.name));
    let name = args.name ?? uniqueName(model, taken);
    if (!args.name) {
      const typed = await vscode.window.showInputBox({ title: 'Name in the model picker', value: name, validateInput: (value) => (taken.has(value.trim()) ? 'Another model has this name.' : value.trim() ? undefined : 'A name is needed.') });
      if (!typed) return undefined;
      name = typed.trim();
    }
    const entry: EndpointModel = { name, format: endpointFormat, baseUrl: endpointUrl, model, maxInputTokens: DEFAULT_MAX_INPUT_TOKENS, maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS, toolCalling: true, imageInput: false };
    const config = vscode.workspace.getConfiguration();
    const current = config.inspect<unknown[]>(MODELS_SETTING)?.globalValue ?? [];
    await config.update(MODELS_SETTING, [...current, entry], vscode.ConfigurationTarget.Global);
    if (key) await this.storeKey(name, key);
    this.logger.info('models.added', { name, format: endpointFormat, baseUrl: endpointUrl, model });
    void vscode.window.showInformationMessage(`Added ${name}: pick it in the chat's model picker (set maxInputTokens in ${MODELS_SETTING} to its real window).`);
    return entry;
  }

  private async askKey(name: string): Promise<string | undefined> {
    return vscode.window.showInputBox({ title: `API key for ${name}`, password: true, prompt: 'Kept in VS Code\'s secret storage, never in settings.json. Empty: remove the stored key.', ignoreFocusOut: true });
  }

  private async storeKey(name: string, key: string): Promise<void> {
    if (key) await this.secrets.store(apiKeySecretName(name), key);
    else await this.secrets.delete(apiKeySecretName(name));
    this.logger.info(key ? 'models.key_stored' : 'models.key_removed', { name });
  }
}

function uniqueName(model: string, taken: ReadonlySet<string>): string {
  if (!taken.has(model)) return model;
  for (let n = 2; ; n++) if (!taken.has(`${model} (${n})`)) return `${model} (${n})`;
}
