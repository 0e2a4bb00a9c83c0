// Bring-your-own-model endpoints: the OpenAI chat completions and Anthropic Messages wire formats over
// HTTP, without VS Code. The provider glue (src/vscode/models/) imports these names only.
export { endpointUrl, listModels, streamChat } from './client';
export { ADD_MODEL_COMMAND_TITLE, maskKey, ModelError, SET_KEY_COMMAND_TITLE, type ModelErrorKind } from './errors';
export { isAbortError } from './http';
export type { ChatEvent, ChatMessage, ChatPart, ChatRequest, ChatTool, EndpointModel, WireFormat } from './types';
