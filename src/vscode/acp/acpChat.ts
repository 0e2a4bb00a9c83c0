// `@executor` with an ACP agent chosen: `agentToolExecutor.chat.agent` or `/agent NAME` picks
// the built-in loop, the bridge agent or an ACP agent; the prompt goes to the ACP agent as
// `session/prompt`; its session updates are drawn by `UpdateRenderer`, and the requests it makes of us
// (each a turn of the executor) by the same `ReplyRenderer` as the built-in loop's — approvals, outcome
// lines, Open diff. The chat's stop button sends `session/cancel`. The reply's header names the agent's
// mode (acpModes.ts); attachments go as acpPromptContent.ts makes them; an auth_required answer signs in.
// A prompt is checkpointed before the first write or command the agent asks of us and after it ends, so
// the reply ends with the undo buttons.
import * as vscode from 'vscode';
import type { TurnHost } from '../../acp/calls';
import { promptContent } from '../../acp/mapping';
import { withSignIn } from '../../acp/session/auth';
import type { ToolCall } from '../../executor';
import type { Redactor } from '../../executor';
import type { Turn } from '../../executor';
import type { DiffLinks } from '../chat/diffLinks';
import { ReplyRenderer } from '../chat/replyRenderer';
import { oneLine } from '../chat/replyText';
import type { ChatTurnCheckpoint } from '../undo/turnUndo';
import { endReplyCheckpoint } from '../undo/undoButtons';
import type { AcpAgents } from './acpAgents';
import { BRIDGE_AGENT, BUILTIN_AGENT, chosenAgentSetting } from './acpAgentSettings';
import { commandsText, deniedByOf, UpdateRenderer, usageFooter } from './updateRenderer';
import { modeChangedText, modeCommand, modeHeader } from './acpModes';
import { promptAttachments } from './acpPromptContent';
import { ATTACHMENT_REASON_MAX_CHARS } from '../chat/attachments';
/** The prompt shown in a turn's label (Tool Calls view) is cut here (as the built-in loop's). */
const TURN_LABEL_MAX_CHARS = 50;

/** Who takes a prompt: the built-in loop, the bridge agent when one is configured (the default), or an ACP agent. */
export type Route = { readonly kind: 'builtin' } | { readonly kind: 'default' } | { readonly kind: 'acp'; readonly name: string };

export interface AcpChatOptions {
  readonly redactor: Redactor;
  readonly diffLinks: DiffLinks;
  workspaceFolders(): readonly string[];
  /** Checkpoints each prompt before its first write or command, so the reply can offer to undo it. */
  readonly checkpoints?: { begin(title: string): ChatTurnCheckpoint | undefined };
}

interface ActivePrompt {
  readonly agent: string;
  readonly request: vscode.ChatRequest;
  readonly stream: vscode.ChatResponseStream;
  readonly updates: UpdateRenderer;
  /** Settles when each of our turns is final (and its lines are in the reply). */
  readonly turns: Promise<unknown>[];
  readonly checkpoint?: ChatTurnCheckpoint;
  /** What the prompt's requests reported changed: undo names those no checkpoint holds. */
  readonly reported: string[];
}

export class AcpChat implements TurnHost {
  /** `/agent NAME` for this window; undefined: the setting. */
  private override: string | undefined;
  private active: ActivePrompt | undefined;

  constructor(
    private readonly agents: AcpAgents,
    private readonly options: AcpChatOptions,
  ) {
    agents.setTurnHost(this);
  }

  route(): Route {
    const chosen = this.override ?? chosenAgentSetting();
    if (chosen === BUILTIN_AGENT) return { kind: 'builtin' };
    if (chosen === '' || chosen === BRIDGE_AGENT) return { kind: 'default' };
    return { kind: 'acp', name: chosen };
  }

  /** `/agent`: says who takes prompts and what there is; `/agent NAME` switches for this window. */
  chooseAgent(argument: string, stream: vscode.ChatResponseStream): vscode.ChatResult {
    const wanted = argument.trim();
    const choices = [BUILTIN_AGENT, BRIDGE_AGENT, ...this.agents.names()];
    if (wanted !== '') {
      if (!choices.includes(wanted)) {
        return { errorDetails: { message: `There is no agent ${JSON.stringify(wanted)}. Choose one of: ${choices.join(', ')} (ACP agents come from agentToolExecutor.acp.agents).` } };
      }
      this.override = wanted;
    }
    const current = this.override ?? (chosenAgentSetting() || `${BRIDGE_AGENT} when agentToolExecutor.agent.command is set, else ${BUILTIN_AGENT}`);
    stream.markdown(`Prompts to \`@executor\` go to: **${current}**.\n\nChoices: ${choices.map((choice) => `\`${choice}\``).join(', ')}.`);
    return { metadata: { agentChoice: current } };
  }

  /** `/commands`: the slash commands the chosen ACP agent offered (starting it when needed). */
  async listCommands(stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const route = this.route();
    if (route.kind !== 'acp') return { errorDetails: { message: 'No ACP agent takes prompts here: choose one with /agent NAME to see its commands.' } };
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    try {
      const agent = await this.agents.ready(route.name, controller.signal);
      if (typeof agent === 'string') return { errorDetails: { message: agent } };
      stream.markdown(commandsText(route.name, agent.connection.availableCommands(agent.sessionId)));
      return { metadata: { acp: route.name } };
    } finally {
      cancel.dispose();
    }
  }

  /** `/mode` while an ACP agent takes prompts: the agent's modes and options; other words go to `otherwise`. */
  async chooseMode(words: string, stream: vscode.ChatResponseStream, token: vscode.CancellationToken, otherwise: () => Promise<vscode.ChatResult>): Promise<vscode.ChatResult> {
    const route = this.route();
    if (route.kind !== 'acp') return otherwise();
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    try {
      const agent = await this.agents.ready(route.name, controller.signal);
      if (typeof agent === 'string') return { errorDetails: { message: agent } };
      return await modeCommand(agent, route.name, words, stream, otherwise, controller.signal);
    } finally {
      cancel.dispose();
    }
  }

  async handle(request: vscode.ChatRequest, name: string, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    try {
      stream.progress(`Starting the ACP agent ${name}…`);
      const agent = await this.agents.ready(name, controller.signal);
      if (typeof agent === 'string') return { errorDetails: { message: agent } };
      const updates = new UpdateRenderer(stream, { redactor: this.options.redactor, diffLinks: this.options.diffLinks, workDir: this.options.workspaceFolders()[0] });
      const checkpoint = this.options.checkpoints?.begin(oneLine(this.options.redactor.redact(request.prompt), TURN_LABEL_MAX_CHARS));
      const prompt: ActivePrompt = { agent: name, request, stream, updates, turns: [], reported: [], ...(checkpoint ? { checkpoint } : {}) };
      this.active = prompt;
      const sessionId = agent.sessionId;
      const header = modeHeader(name, agent.connection.settings.get(sessionId));
      if (header) stream.markdown(header);
      const unsubscribe = agent.connection.onUpdate((notification) => {
        if (notification.sessionId !== sessionId || this.active !== prompt) return;
        if (notification.update.sessionUpdate === 'current_mode_update') {
          updates.flush();
          stream.markdown(modeChangedText(agent.connection.settings.get(sessionId)));
        }
        updates.render(notification.update);
      });
      const unsubscribeDenials = agent.connection.onDenied((denial) => {
        if (denial.sessionId === agent.sessionId && this.active === prompt) updates.denied(denial.toolCallId, denial.by, denial.title);
      });
      try {
        const read = (file: string, lines?: { first: number; last: number }) => agent.connection.readForPrompt(sessionId, file, lines, controller.signal);
        const attached = await promptContent(await promptAttachments(request, this.options.redactor), agent.connection.agentInfo?.agentCapabilities?.promptCapabilities, read);
        await Promise.all(prompt.turns);
        for (const line of attached.notSent) stream.markdown(`\n\n*Not sent: ${this.options.redactor.redact(oneLine(line, ATTACHMENT_REASON_MAX_CHARS))}*\n\n`);
        const blocks = [{ type: 'text' as const, text: request.prompt }, ...attached.blocks];
        const answer = await withSignIn(agent.connection, this.agents.signIn(name), () => agent.connection.prompt(sessionId, blocks, controller.signal), controller.signal);
        updates.flush();
        await Promise.all(prompt.turns);
        if (answer.stopReason === 'refusal') return { errorDetails: { message: `The agent ${name} refused to go on.` }, metadata: { acp: name, stopReason: answer.stopReason } };
        if (answer.stopReason === 'max_tokens' || answer.stopReason === 'max_turn_requests') stream.markdown(`\n\n*The agent stopped: ${answer.stopReason}.*`);
        const usage = usageFooter(answer);
        if (usage) stream.markdown(`\n\n*${usage}*`);
        return { metadata: { acp: name, stopReason: answer.stopReason } };
      } catch (error) {
        updates.flush();
        if (token.isCancellationRequested) return { metadata: { acp: name, stopReason: 'cancelled' } };
        const message = error instanceof Error ? error.message : String(error);
        return { errorDetails: { message: `The ACP agent ${name} failed: ${this.options.redactor.redact(message)}` }, metadata: { acp: name, stopReason: 'error' } };
      } finally {
        unsubscribe();
        unsubscribeDenials();
        if (this.active === prompt) this.active = undefined;
        await endReplyCheckpoint(prompt.checkpoint, prompt.turns, prompt.reported, prompt.stream);
      }
    } finally {
      cancel.dispose();
    }
  }

  turnOptions() {
    const prompt = this.active;
    if (!prompt) return {};
    return {
      label: `@executor ${prompt.agent}: ${oneLine(this.options.redactor.redact(prompt.request.prompt), TURN_LABEL_MAX_CHARS)}`,
      ...(prompt.checkpoint ? { checkpoint: prompt.checkpoint.checkpoint } : {}),
    };
  }

  observe(turn: Turn, call: ToolCall): void {
    const prompt = this.active;
    if (!prompt) return;
    // The agent's text so far comes before the request's lines.
    prompt.updates.flush();
    const renderer = new ReplyRenderer(prompt.stream, turn, { redactor: this.options.redactor, diffLinks: this.options.diffLinks, workspaceFolders: () => this.options.workspaceFolders() });
    renderer.expect(call.id!, call.name, call.input);
    prompt.checkpoint?.bind(turn.id);
    prompt.turns.push(
      turn
        .results()
        .then(([result]) => {
          for (const change of result?.changes ?? []) prompt.reported.push(change.absolutePath);
          // Its outcome line is in the reply: the agent's next words start a paragraph, and its call says who denied it.
          const by = result ? deniedByOf(result.permission) : undefined;
          if (by) prompt.updates.denied(undefined, by);
          prompt.updates.blockWritten();
        })
        .catch(() => undefined)
        .finally(() => renderer.dispose()),
    );
  }
}
