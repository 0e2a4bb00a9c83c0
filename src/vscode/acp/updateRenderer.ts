// The agent's session/update notifications in the chat reply, like our own turns: message chunks as
// markdown, thoughts as a quoted block, tool_call / tool_call_update as progress and outcome lines under the
// agent's own titles (a diff the agent reports gets Open diff; a call we denied says who denied it), the plan
// as a checklist. Each outcome line ends its block, so the agent's next words are a paragraph of their own.
// Text is redacted a line at a time before it is shown, as the bridge agent's text is.
import { createTwoFilesPatch } from 'diff';
import * as vscode from 'vscode';
import type { Acp } from '../../acp/sdk';
import type { PermissionRecord, Redactor, RedactionStream } from '../../executor';
import { redactionStreamOf } from '../../executor';
import type { DiffLinks } from '../chat/diffLinks';
import { escapeMarkdown, oneLine } from '../chat/replyText';

/** A tool call's title is cut here in progress and outcome lines. Ours. */
const TITLE_MAX_CHARS = 120;

export interface UpdateRendererOptions {
  readonly redactor: Redactor;
  readonly diffLinks: DiffLinks;
  readonly workDir: string | undefined;
}

export class UpdateRenderer {
  private readonly titles = new Map<string, string>();
  /** The agent's calls started and not yet ended, in order. */
  private readonly open = new Set<string>();
  /** Who denied a call (`you`, `rule Bash(rm:*)`), by the agent's tool call id. */
  private readonly denials = new Map<string, string>();
  /** Calls whose outcome line a denial already wrote. */
  private readonly reported = new Set<string>();
  private text: RedactionStream;
  private kind: 'message' | 'thought' | undefined;
  /** The last thing written was a block (an outcome line): the next words start a paragraph. */
  private afterBlock = false;

  constructor(
    private readonly stream: vscode.ChatResponseStream,
    private readonly options: UpdateRendererOptions,
  ) {
    this.text = redactionStreamOf(options.redactor);
  }

  render(update: Acp.SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        return this.chunk('message', update.content);
      case 'agent_thought_chunk':
        return this.chunk('thought', update.content);
      case 'tool_call': {
        this.flush();
        const title = this.title(update.title || untitled(update));
        this.titles.set(update.toolCallId, title);
        this.open.add(update.toolCallId);
        this.stream.progress(title);
        return this.status(update.toolCallId, update.status, update.content);
      }
      case 'tool_call_update': {
        this.flush();
        if (update.title) this.titles.set(update.toolCallId, this.title(update.title));
        else if (!this.titles.has(update.toolCallId) && (update.kind || update.locations?.length)) this.titles.set(update.toolCallId, this.title(untitled(update)));
        return this.status(update.toolCallId, update.status, update.content);
      }
      case 'plan': {
        this.flush();
        const lines = update.entries.map((entry) => `- [${entry.status === 'completed' ? 'x' : ' '}] ${escapeMarkdown(this.options.redactor.redact(entry.content))}${entry.status === 'in_progress' ? ' *(in progress)*' : ''}`);
        this.stream.markdown(`\n\n**Plan**\n\n${lines.join('\n')}\n\n`);
        return;
      }
      default:
        return;
    }
  }

  /**
   * A request of the agent's was denied (`by`: `you`, or the rule, hook or mode): its call's outcome line
   * says so. Without the agent's call id (an fs or terminal request names none), the one call in progress; a
   * call the agent never announced gets its line now, with the request's `title`.
   */
  denied(toolCallId: string | undefined, by: string, title?: string): void {
    const id = toolCallId ?? (this.open.size === 1 ? [...this.open][0] : undefined);
    if (id === undefined) return;
    if (this.titles.has(id) || title === undefined) {
      this.denials.set(id, by);
      return;
    }
    // A call the agent asked about before announcing it, and may never report on: its outcome line is written now.
    this.flush();
    this.titles.set(id, this.title(title));
    this.reported.add(id);
    this.stream.markdown(`\n\n- ✗ ${escapeMarkdown(this.titles.get(id)!)} — denied by ${escapeMarkdown(by)}\n`);
    this.afterBlock = true;
  }

  /** Something other than the agent's words was written (one of our outcome lines): its next words start a paragraph. */
  blockWritten(): void {
    this.afterBlock = true;
  }

  /** Shows what is still held back (the last, unfinished line). */
  flush(): void {
    const rest = this.text.end();
    if (rest) this.write(rest);
    this.text = redactionStreamOf(this.options.redactor);
    if (this.kind === 'thought') this.stream.markdown('\n\n');
    this.kind = undefined;
  }

  private chunk(kind: 'message' | 'thought', content: Acp.ContentBlock): void {
    if (content.type !== 'text') return;
    if (this.kind !== kind) {
      this.flush();
      this.kind = kind;
      if (kind === 'thought') this.stream.markdown('\n\n> *Thinking:* ');
      else if (this.afterBlock) this.stream.markdown('\n');
      this.afterBlock = false;
    }
    const ready = this.text.push(content.text);
    if (ready) this.write(ready);
  }

  private write(text: string): void {
    // A thought stays inside its quote block line after line.
    this.stream.markdown(this.kind === 'thought' ? text.replace(/\n/g, '\n> ') : text);
  }

  private status(toolCallId: string, status: Acp.ToolCallStatus | null | undefined, content: Acp.ToolCallContent[] | null | undefined): void {
    const title = this.titles.get(toolCallId) ?? toolCallId;
    for (const part of content ?? []) {
      if (part.type !== 'diff') continue;
      const before = part.oldText ?? '';
      const display = {
        kind: 'file_diff' as const,
        path: part.path,
        before: this.options.redactor.redact(before),
        after: this.options.redactor.redact(part.newText),
        diff: this.options.redactor.redact(createTwoFilesPatch(part.path, part.path, before, part.newText)),
        truncated: false,
      };
      this.stream.button(this.options.diffLinks.button(display, this.options.workDir));
    }
    if (status !== 'completed' && status !== 'failed') return;
    this.open.delete(toolCallId);
    if (this.reported.delete(toolCallId)) return;
    const denied = this.denials.get(toolCallId);
    this.denials.delete(toolCallId);
    const outcome = status === 'completed' ? `✓ ${escapeMarkdown(title)}` : `✗ ${escapeMarkdown(title)} — ${denied ? `denied by ${escapeMarkdown(denied)}` : 'failed'}`;
    this.stream.markdown(`\n\n- ${outcome}\n`);
    this.afterBlock = true;
  }

  private title(raw: string): string {
    return oneLine(this.options.redactor.redact(raw), TITLE_MAX_CHARS);
  }
}

/** A call the agent sent no title for: its kind and first file. */
function untitled(update: Pick<Acp.ToolCallUpdate, 'kind' | 'locations' | 'toolCallId'>): string {
  const what = [update.kind ?? undefined, update.locations?.[0]?.path].filter((part) => part).join(' ');
  return what || update.toolCallId;
}

/** `/commands`: the slash commands the agent offered (`available_commands_update`). */
export function commandsText(agent: string, commands: readonly Acp.AvailableCommand[]): string {
  if (commands.length === 0) return `The ACP agent **${escapeMarkdown(agent)}** offered no commands.`;
  const lines = commands.map((command) => {
    const hint = command.input && 'hint' in command.input && command.input.hint ? ` <${command.input.hint}>` : '';
    return `- \`/${command.name}${hint}\` — ${escapeMarkdown(command.description)}`;
  });
  return `Commands of the ACP agent **${escapeMarkdown(agent)}** (type them as the prompt):\n\n${lines.join('\n')}`;
}

/** The tokens an answer reports in `_meta.usage` (camelCase as ACP's usage, or snake_case as a model API's), for the reply's footer. */
export function usageFooter(answer: Acp.PromptResponse): string | undefined {
  const usage = answer._meta?.usage;
  if (!usage || typeof usage !== 'object') return undefined;
  const fields = usage as Record<string, unknown>;
  const count = (...names: string[]) => names.map((name) => fields[name]).find((value): value is number => typeof value === 'number' && Number.isFinite(value));
  const parts = [
    [count('inputTokens', 'input_tokens'), 'in'],
    [count('outputTokens', 'output_tokens'), 'out'],
    [count('totalTokens', 'total_tokens'), 'total'],
  ].filter(([value]) => value !== undefined).map(([value, label]) => `${(value as number).toLocaleString('en-US')} ${label}`);
  return parts.length > 0 ? `Tokens: ${parts.join(' · ')}` : undefined;
}

/** Who denied one of our calls, as an outcome line says it; undefined when it was not denied (or only cancelled). */
export function deniedByOf(permission: PermissionRecord): string | undefined {
  if (permission.outcome !== 'denied') return undefined;
  switch (permission.by) {
    case 'user':
      return 'you';
    case 'rule':
      return permission.detail ? `rule ${permission.detail}` : 'a rule';
    case 'hook':
      return permission.detail ? `hook ${permission.detail}` : 'a hook';
    case 'mode':
      return 'the permission mode';
    default:
      return undefined;
  }
}
