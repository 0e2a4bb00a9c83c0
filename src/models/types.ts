// What a chat request and its streamed answer are, apart from any wire format: the VS Code glue
// (src/vscode/models/) turns the chat's messages into these, and each format (openai.ts,
// anthropic.ts) turns these into its own JSON and its stream back into events.

/** The two wire formats an endpoint may speak. */
export type WireFormat = 'openai' | 'anthropic';

export type ChatPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'image'; readonly mimeType: string; readonly base64: string }
  | { readonly kind: 'toolCall'; readonly callId: string; readonly name: string; readonly input: object }
  | { readonly kind: 'toolResult'; readonly callId: string; readonly text: string; readonly isError?: boolean };

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly parts: readonly ChatPart[];
}

export interface ChatTool {
  readonly name: string;
  readonly description: string;
  /** A JSON schema of the input; an object with no properties when the tool declares none. */
  readonly inputSchema?: object;
}

export interface ChatRequest {
  /** The model's name at the endpoint. */
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ChatTool[];
  /** `required`: the model must call a tool (VS Code's LanguageModelChatToolMode.Required). */
  readonly toolMode: 'auto' | 'required';
  readonly maxOutputTokens: number;
}

/** What a stream yields, in the order the model produced it. A tool call comes whole, once its input is. */
export type ChatEvent =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'toolCall'; readonly callId: string; readonly name: string; readonly input: object }
  | { readonly kind: 'usage'; readonly inputTokens?: number; readonly outputTokens?: number };

/** Where a model is and how to reach it: one entry of the setting `agentToolExecutor.models`. */
export interface EndpointModel {
  /** Unique among the entries; what the model picker shows, and the name its API key is kept under. */
  readonly name: string;
  readonly format: WireFormat;
  /** Up to the version path: `http://localhost:11434/v1`, `https://api.anthropic.com/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly toolCalling: boolean;
  readonly imageInput: boolean;
}
