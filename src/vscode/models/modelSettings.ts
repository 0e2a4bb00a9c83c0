// The setting `agentToolExecutor.models`: the user's own models, one entry each. Read from user settings
// only (the setting's scope is `application`): a workspace must not point a stored API key at another
// host. No `vscode` here, so the parsing is unit-tested; the glue passes the raw value in.
import type { EndpointModel, WireFormat } from '../../models';

export const MODELS_SETTING = 'agentToolExecutor.models';
export const SET_KEY_COMMAND = 'agentToolExecutor.models.setApiKey';
export const ADD_MODEL_COMMAND = 'agentToolExecutor.models.addFromEndpoint';
/** The vendor package.json contributes under `languageModelChatProviders`. */
export const ENDPOINT_VENDOR = 'agent-tool-executor-models';
/** Unset: a window most local servers are started with or above (Ollama's and LM Studio's defaults are smaller: raise theirs, or set this). */
export const DEFAULT_MAX_INPUT_TOKENS = 32_000;
/** Unset: what Anthropic's smallest current models may produce in one answer. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8_192;

const FORMATS: readonly WireFormat[] = ['openai', 'anthropic'];

/** The valid entries, and a sentence for each entry left out. */
export function parseModelEntries(raw: unknown): { readonly models: EndpointModel[]; readonly problems: string[] } {
  const models: EndpointModel[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { models, problems };
  if (!Array.isArray(raw)) return { models, problems: [`${MODELS_SETTING} is not a list; no model of it is offered.`] };
  raw.forEach((item: unknown, index) => {
    const entry = (item ?? {}) as Record<string, unknown>;
    const where = `${MODELS_SETTING}[${index}]`;
    const name = typeof entry.name === 'string' ? entry.name.trim() : '';
    const model = typeof entry.model === 'string' ? entry.model.trim() : '';
    const baseUrl = typeof entry.baseUrl === 'string' ? entry.baseUrl.trim().replace(/\/+$/, '') : '';
    const format = FORMATS.find((known) => known === entry.format);
    const missing = [!name && 'name', !format && 'format ("openai" or "anthropic")', !baseUrl && 'baseUrl', !model && 'model'].filter(Boolean);
    if (missing.length > 0) return void problems.push(`${where} is left out: it needs ${missing.join(', ')}.`);
    if (!/^https?:\/\/[^/]/i.test(baseUrl) || !validUrl(baseUrl)) return void problems.push(`${where} ("${name}") is left out: baseUrl must be an http:// or https:// URL.`);
    if (models.some((other) => other.name === name)) return void problems.push(`${where} is left out: another entry is named "${name}".`);
    models.push({
      name,
      format: format as WireFormat,
      baseUrl,
      model,
      maxInputTokens: positive(entry.maxInputTokens) ?? DEFAULT_MAX_INPUT_TOKENS,
      maxOutputTokens: positive(entry.maxOutputTokens) ?? DEFAULT_MAX_OUTPUT_TOKENS,
      toolCalling: entry.toolCalling !== false,
      imageInput: entry.imageInput === true,
    });
  });
  return { models, problems };
}

/** The name a model's API key is kept under in SecretStorage. */
export function apiKeySecretName(modelName: string): string {
  return `${MODELS_SETTING}.apiKey/${modelName}`;
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function validUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}
