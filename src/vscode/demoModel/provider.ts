// Adapter: the scripted demo model (script.ts) as a VS Code LanguageModelChatProvider. It streams
// each response as a real model does: text in a few chunks, each tool call as its own part, with
// short pauses between parts during which a cancellation stops it.
import * as vscode from 'vscode';
import { chunkText } from './chunks';
import { estimateTokens, toDemoMessage, type DemoMessage, type DemoOutputPart } from './conversation';
import { nextStep } from './script';

/** The vendor package.json contributes under `languageModelChatProviders`. */
export const DEMO_VENDOR = 'agent-tool-executor-demo';
/** Pause before each streamed part: streaming stays visible, and Stop lands between parts. */
export const PART_DELAY_MS = 60;
/** Advertised limits unless `agentToolExecutor.demoModel.windowTokens` says otherwise; a long conversation fits. */
export const DEMO_WINDOW_TOKENS = 128_000;
const MAX_OUTPUT_TOKENS = 4_096;

/** The one model; its name says it is scripted, so nobody mistakes its answers for a real model's. */
export const DEMO_MODEL: vscode.LanguageModelChatInformation = {
  id: 'scripted-demo',
  name: 'Scripted demo (offline)',
  family: 'agent-tool-executor-demo',
  version: '1',
  tooltip: 'A deterministic, offline stand-in for a model, from Agent Tool Executor. Say "tour", "slow" or "fail".',
  detail: 'scripted',
  maxInputTokens: DEMO_WINDOW_TOKENS,
  maxOutputTokens: MAX_OUTPUT_TOKENS,
  capabilities: { toolCalling: true },
};

export class DemoModelProvider implements vscode.LanguageModelChatProvider {
  private readonly info: vscode.LanguageModelChatInformation;

  /** `windowTokens`: the window it declares and, as a real provider does, refuses requests over. */
  constructor(private readonly windowTokens = DEMO_WINDOW_TOKENS) {
    this.info = windowTokens === DEMO_WINDOW_TOKENS ? DEMO_MODEL : { ...DEMO_MODEL, maxInputTokens: windowTokens, detail: `scripted, ${windowTokens}-token window` };
  }

  provideLanguageModelChatInformation(): vscode.LanguageModelChatInformation[] {
    return [this.info];
  }

  async provideLanguageModelChatResponse(
    _model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const demo = messages.map(toDemo);
    const tokens = demo.reduce((sum, message) => sum + estimateTokens(message), 0) + (options.tools ?? []).reduce((sum, tool) => sum + estimateTokens(JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema ?? {} })), 0);
    if (tokens > this.windowTokens) throw new Error(`Request Failed: 400 prompt token count of ${tokens} exceeds the limit of ${this.windowTokens}`);
    const step = nextStep({ messages: demo, tools: (options.tools ?? []).map((tool) => tool.name) });
    if (step.kind === 'fail') {
      throw vscode.LanguageModelError.Blocked(step.message);
    }
    for (const part of step.parts) {
      for (const piece of toResponseParts(part)) {
        await pause(PART_DELAY_MS, token);
        progress.report(piece);
      }
    }
  }

  provideTokenCount(
    _model: vscode.LanguageModelChatInformation,
    text: string | vscode.LanguageModelChatRequestMessage,
    _token: vscode.CancellationToken,
  ): Promise<number> {
    return Promise.resolve(estimateTokens(typeof text === 'string' ? text : toDemo(text)));
  }
}

function toDemo(message: vscode.LanguageModelChatRequestMessage): DemoMessage {
  return toDemoMessage(message.role === vscode.LanguageModelChatMessageRole.Assistant, message.content);
}

function toResponseParts(part: DemoOutputPart): vscode.LanguageModelResponsePart[] {
  if (part.kind === 'text') {
    return chunkText(part.text).map((chunk) => new vscode.LanguageModelTextPart(chunk));
  }
  return [new vscode.LanguageModelToolCallPart(part.callId, part.name, { ...part.input })];
}

/** Waits `ms`; throws CancellationError as soon as `token` is cancelled, and leaves no listener behind. */
function pause(ms: number, token: vscode.CancellationToken): Promise<void> {
  if (token.isCancellationRequested) return Promise.reject(new vscode.CancellationError());
  return new Promise((resolve, reject) => {
    const listener = token.onCancellationRequested(() => {
      clearTimeout(timer);
      listener.dispose();
      reject(new vscode.CancellationError());
    });
    const timer = setTimeout(() => {
      listener.dispose();
      resolve();
    }, ms);
  });
}
