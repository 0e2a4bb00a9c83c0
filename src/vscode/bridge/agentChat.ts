// `@executor` with an agent configured: the prompt goes to the agent as `agent/prompt`; its
// `agent/progress` text is shown (redacted, a line at a time) and each turn it runs through the executor
// is drawn by the same `ReplyRenderer` as the built-in loop's — progress, approvals, outcome lines,
// Open diff, saved outputs. When the agent's process dies mid-reply, its calls end as cancelled and
// the reply says so, and that it is being restarted. The prompt's turns share one checkpoint, so the
// reply ends with the same undo buttons as the built-in loop's.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { PromptRequest, type PromptParams } from '../../bridge/protocol';
import type { TurnObserver } from '../../bridge/service';
import type { Redactor } from '../../executor';
import type { RedactionStream } from '../../executor';
import { redactionStreamOf } from '../../executor';
import type { Turn } from '../../executor';
import type { DiffLinks } from '../chat/diffLinks';
import { ReplyRenderer } from '../chat/replyRenderer';
import { oneLine } from '../chat/replyText';
import type { ChatTurnCheckpoint } from '../undo/turnUndo';
import { endReplyCheckpoint } from '../undo/undoButtons';
import type { AgentCrash, AgentHost } from './agentHost';

/** The prompt shown in a turn's label (Tool Calls view) is cut here (as the built-in loop's). */
const TURN_LABEL_MAX_CHARS = 50;

export interface AgentChatOptions {
  readonly participantId: string;
  readonly redactor: Redactor;
  readonly diffLinks: DiffLinks;
  workspaceFolders(): readonly string[];
  /** Checkpoints each prompt before its first write, so the reply can offer to undo it. */
  readonly checkpoints?: { begin(title: string): ChatTurnCheckpoint | undefined };
}

interface ActivePrompt {
  readonly id: string;
  readonly stream: vscode.ChatResponseStream;
  readonly request: vscode.ChatRequest;
  readonly text: RedactionStream;
  /** Settles when each turn's results are final (and its lines are in the reply). */
  readonly turns: Promise<unknown>[];
  readonly checkpoint?: ChatTurnCheckpoint;
  /** What the prompt's calls reported changed: undo names those no checkpoint holds. */
  readonly reported: string[];
  crash?: AgentCrash;
  onCrash?: (crash: AgentCrash) => void;
}

export class AgentChat {
  private active: ActivePrompt | undefined;
  /** A crash while no prompt was running, told at the next prompt. */
  private notice: string | undefined;

  constructor(
    private readonly agent: AgentHost,
    private readonly options: AgentChatOptions,
  ) {
    agent.setBridgeHost({ turnOptions: () => this.turnOptions(), observe: (turn) => this.observe(turn) });
    agent.onProgress((params) => {
      const prompt = this.active;
      if (!prompt || params.promptId !== prompt.id || typeof params.text !== 'string') return;
      const ready = prompt.text.push(params.text);
      if (ready) prompt.stream.markdown(ready);
    });
    agent.onDidCrash((crash) => {
      if (this.active) this.active.onCrash?.(crash);
      else this.notice = crash.message;
    });
  }

  /** `@executor` forwards prompts to the agent while one is configured. */
  enabled(): boolean {
    return this.agent.configured();
  }

  async handle(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    if (this.notice) {
      stream.markdown(`*${this.notice}*\n\n`);
      this.notice = undefined;
    }
    const client = await this.agent.ready(token);
    if (typeof client === 'string') return { errorDetails: { message: client } };
    const checkpoint = this.options.checkpoints?.begin(oneLine(this.options.redactor.redact(request.prompt), TURN_LABEL_MAX_CHARS));
    const prompt: ActivePrompt = { id: randomUUID(), stream, request, text: redactionStreamOf(this.options.redactor), turns: [], reported: [], ...(checkpoint ? { checkpoint } : {}) };
    const crashed = new Promise<AgentCrash>((resolve) => (prompt.onCrash = resolve));
    this.active = prompt;
    const params: PromptParams = { promptId: prompt.id, prompt: request.prompt, history: this.history(context) };
    try {
      const outcome = await Promise.race([client.sendRequest(PromptRequest, params, token).then((answer) => ({ answer }), (error: unknown) => ({ error })), crashed.then((crash) => ({ crash }))]);
      this.flushText(prompt);
      // The turns' last lines (cancelled calls after a crash included) come before what ends the reply.
      await Promise.all(prompt.turns);
      if ('crash' in outcome) {
        stream.markdown(`\n\n**${outcome.crash.message}**`);
        return { metadata: { agent: true, stopReason: 'agentCrashed' } };
      }
      if ('error' in outcome) {
        if (token.isCancellationRequested) return { metadata: { agent: true, stopReason: 'cancelled' } };
        const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
        return { errorDetails: { message: `The agent failed: ${this.options.redactor.redact(message)}` }, metadata: { agent: true, stopReason: 'error' } };
      }
      if (outcome.answer.stopReason === 'error') {
        return { errorDetails: { message: this.options.redactor.redact(outcome.answer.message ?? 'The agent reported an error.') }, metadata: { agent: true, stopReason: 'error' } };
      }
      return { metadata: { agent: true, stopReason: outcome.answer.stopReason } };
    } finally {
      if (this.active === prompt) this.active = undefined;
      await endReplyCheckpoint(prompt.checkpoint, prompt.turns, prompt.reported, prompt.stream);
    }
  }

  private turnOptions() {
    const prompt = this.active;
    if (!prompt) return {};
    return {
      label: `@executor agent: ${oneLine(this.options.redactor.redact(prompt.request.prompt), TURN_LABEL_MAX_CHARS)}`,
      ...(prompt.checkpoint ? { checkpoint: prompt.checkpoint.checkpoint } : {}),
    };
  }

  private observe(turn: Turn): TurnObserver | undefined {
    const prompt = this.active;
    if (!prompt) return undefined;
    // The agent's text so far comes before the turn's lines.
    this.flushText(prompt);
    const renderer = new ReplyRenderer(prompt.stream, turn, { redactor: this.options.redactor, diffLinks: this.options.diffLinks, workspaceFolders: () => this.options.workspaceFolders() });
    prompt.checkpoint?.bind(turn.id);
    prompt.turns.push(
      turn
        .results()
        .then((results) => {
          for (const result of results) for (const change of result.changes) prompt.reported.push(change.absolutePath);
        })
        .catch(() => undefined),
    );
    return {
      offered: (call) => renderer.expect(call.id, call.name, call.input),
      closed: () => renderer.dispose(),
    };
  }

  private flushText(prompt: ActivePrompt): void {
    const rest = prompt.text.end();
    if (rest) prompt.stream.markdown(rest);
  }

  /** Earlier prompts to `@executor` and the text of their replies, oldest first. */
  private history(context: vscode.ChatContext): PromptParams['history'] {
    const history: { prompt: string; response: string }[] = [];
    let prompt: string | undefined;
    for (const turn of context.history) {
      if (turn instanceof vscode.ChatRequestTurn && turn.participant === this.options.participantId) prompt = turn.prompt;
      else if (turn instanceof vscode.ChatResponseTurn && turn.participant === this.options.participantId && prompt !== undefined) {
        const response = turn.response
          .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
          .join('');
        history.push({ prompt, response });
        prompt = undefined;
      }
    }
    return history;
  }
}
