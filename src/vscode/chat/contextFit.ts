// The context budget of one `@executor` reply, on the model in use: each request assembled to fit
// `maxInputTokens` less the reply's reserve (prompt/assemble.ts), counted by the model's own
// counter (modelCounter.ts); each incoming result cut to its share of the window (prompt/resultCut.ts).
import * as vscode from 'vscode';
import type { ChatRound, ChatRoundResult, ConversationTurn } from './chatMetadata';
import { ContextMemory, toChatMessages, windowOf } from './modelCounter';
import type { ChatHost } from './chatHost';
import { assemble } from './prompt/assemble';
import { roundMessages } from './prompt/conversationUnits';
import type { PromptPart } from './prompt/promptMessages';
import { cutToShare } from './prompt/resultCut';
import { budgetOf, resultShare } from './prompt/window';
import type { PreparedPrompt } from './promptContext';
import { escapeMarkdown, inlineCode } from './replyText';
import { lmToolNameOf } from '../lmTools/toolNames';

export type FitRequest =
  | { readonly ok: true; readonly messages: vscode.LanguageModelChatMessage[]; readonly tokens: number; readonly stubbed: readonly number[]; readonly dropped: number }
  | { readonly ok: false; readonly sentence: string };

export class ContextFit {
  readonly window: number;
  private readonly budget: number;
  private readonly memory: ContextMemory;
  /** The tools of the latest request, by the counter: the next round's results share what is left. */
  private toolTokens = 0;

  constructor(
    private readonly host: ChatHost,
    private readonly model: vscode.LanguageModelChat,
    private prepared: PreparedPrompt,
    private readonly earlier: readonly ConversationTurn[],
    private readonly rounds: readonly ChatRound[],
    private readonly token: vscode.CancellationToken,
  ) {
    this.window = windowOf(model);
    this.budget = budgetOf(this.window);
    this.memory = host.contextMemory ?? new ContextMemory();
  }

  /** The messages of the next request, fitted to the window with these tools offered. */
  async request(tools: readonly vscode.LanguageModelChatTool[]): Promise<FitRequest> {
    const counter = this.memory.counter;
    const started = performance.now();
    const [countMsBefore, countCallsBefore] = [counter.providerMs, counter.providerCalls];
    const toolTokens = await counter.countTools(this.model, tools, this.token);
    this.toolTokens = toolTokens;
    const assembled = await assemble({
      instructions: this.prepared.instructions,
      earlier: this.earlier,
      current: { prompt: this.prepared.prompt, rounds: this.rounds },
      toolTokens,
      budget: this.budget,
      count: (message) => counter.count(this.model, message, this.token),
      saved: this.memory.saved,
      save: (callId, text) => this.save(callId, text),
    });
    // What counting costs, apart from our own work: the provider's share is its `countTokens` calls.
    const countMs = counter.providerMs - countMsBefore;
    this.host.logger?.info('chat.context', {
      model: this.model.id,
      window: this.window,
      budget: this.budget,
      tokens: assembled.tokens,
      ...(assembled.ok ? { stubbed: assembled.stubbed.length, dropped: assembled.dropped } : { fits: false }),
      saves: assembled.saves,
      countCalls: counter.providerCalls - countCallsBefore,
      countMs: Math.round(countMs * 10) / 10,
      assemblyMs: Math.round((performance.now() - started - countMs) * 10) / 10,
    });
    if (!assembled.ok) {
      return {
        ok: false,
        sentence: `This request does not fit ${this.model.name}'s context window of ${this.window} tokens even with older context left out (it needs about ${assembled.tokens}); start a new chat, use /compact, or pick a model with a larger window in the model picker.`,
      };
    }
    return { ok: true, messages: toChatMessages(assembled.messages), tokens: assembled.tokens, stubbed: assembled.stubbed, dropped: assembled.dropped };
  }

  /**
   * Cuts each attachment bigger than its share of the window (as a round's results are cut), with its
   * whole text saved; call before the first request.
   */
  async fitAttachments(tools: readonly vscode.LanguageModelChatTool[]): Promise<void> {
    const [words, ...attached] = this.prepared.prompt.parts;
    const texts = attached.filter((part) => part.kind === 'text');
    if (!words || texts.length === 0) return;
    const counter = this.memory.counter;
    const fixed = (await counter.countTools(this.model, tools, this.token)) + (await counter.count(this.model, this.prepared.instructions, this.token)) + (await counter.count(this.model, { role: 'user', parts: [words], key: `w:${this.prepared.prompt.key}` }, this.token));
    const share = resultShare(this.budget, fixed, texts.length);
    const parts: PromptPart[] = [words];
    for (const [index, part] of attached.entries()) {
      if (part.kind !== 'text') {
        parts.push(part);
        continue;
      }
      const id = `${this.prepared.prompt.key}-attachment-${index}`;
      const cut = await cutToShare({ text: part.text, maxTokens: share, count: (text) => counter.countResult(this.model, id, text, this.token), save: () => this.save(id, part.text) });
      parts.push(cut.cut ? { kind: 'text', text: cut.text } : part);
    }
    this.prepared = { ...this.prepared, prompt: { ...this.prepared.prompt, parts, key: `${this.prepared.prompt.key}:fitted` } };
  }

  /** A finished round with each result cut to its share of the window, and the whole text saved where it was cut. */
  async intake(round: ChatRound): Promise<ChatRound> {
    if (round.results.length === 0) return round;
    const counter = this.memory.counter;
    const calls = roundMessages({ ...round, results: [] });
    let fixed = this.toolTokens;
    for (const message of [this.prepared.instructions, this.prepared.prompt, ...calls]) fixed += await counter.count(this.model, message, this.token);
    const share = resultShare(this.budget, fixed, round.results.length);
    const results: ChatRoundResult[] = [];
    for (const result of round.results) {
      const cut = await cutToShare({
        text: result.content,
        maxTokens: share,
        count: (text) => counter.countResult(this.model, result.callId, text, this.token),
        savedUri: result.artifactUri ?? this.memory.saved.get(result.callId) ?? undefined,
        save: () => this.save(result.callId, result.content),
      });
      results.push(cut.cut ? { ...result, content: cut.text, ...(cut.uri ? { artifactUri: cut.uri } : {}) } : result);
    }
    return { ...round, results };
  }

  private async save(callId: string, text: string): Promise<string | undefined> {
    const uri = await this.host.saveResult?.(callId, text);
    this.memory.saved.set(callId, uri ?? null);
    return uri;
  }
}

/** The one line a reply shows when older context was shortened to fit. */
export function shortenedLine(model: string, window: number, stubbed: number, dropped: number): string {
  const parts: string[] = [];
  if (stubbed > 0) parts.push(`${stubbed} earlier round${stubbed === 1 ? "'s results stand" : "s' results stand"} as one-line notes (saved; the model can read them again)`);
  if (dropped > 0) parts.push(`the ${dropped} oldest part${dropped === 1 ? ' was' : 's were'} left out`);
  return `_Context shortened to fit ${escapeMarkdown(model)}'s window of ${window.toLocaleString('en-US')} tokens: ${parts.join('; ')}._`;
}

/**
 * The tools `#tool` mentions name, mapped to ours: they are offered anyway; one mentioned tool is
 * required in the first round (`toolMode: Required` works with a single tool: "some providers only
 * support a single tool when using this mode"). A mention of a tool we cannot run is said in the reply.
 */
export function toolChoice(references: readonly vscode.ChatLanguageModelToolReference[], tools: readonly vscode.LanguageModelChatTool[], say: (line: string) => void): { required?: string } {
  const named: string[] = [];
  for (const reference of references) {
    const tool = tools.find((candidate) => candidate.name === reference.name || lmToolNameOf(candidate.name) === reference.name);
    if (tool) named.push(tool.name);
    else say(`\n\n${inlineCode(`#${reference.name}`)} is not a tool @executor runs; add it to \`agentToolExecutor.externalTools.include\` to offer it.\n`);
  }
  const distinct = [...new Set(named)];
  return distinct.length === 1 ? { required: distinct[0] } : {};
}
