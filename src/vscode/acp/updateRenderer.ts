// The agent's session/update notifications in the chat reply, like our own turns: message chunks
// as markdown, thoughts as a quoted block, tool_call / tool_call_update as progress and outcome lines (a diff
// the agent reports gets Open diff), the plan as a checklist. Text is redacted a line at a time before it
// is shown, as the bridge agent's text is.
import { createTwoFilesPatch } from 'diff';
import * as vscode from 'vscode';
import type { Acp } from '../../acp/sdk';
import type { Redactor, RedactionStream } from '../../executor';
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
  private text: RedactionStream;
  private kind: 'message' | 'thought' | undefined;

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
        const title = this.title(update.title);
        this.titles.set(update.toolCallId, title);
        this.stream.progress(title);
        return this.status(update.toolCallId, update.status, update.content);
      }
      case 'tool_call_update': {
        this.flush();
        if (update.title) this.titles.set(update.toolCallId, this.title(update.title));
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
    if (status === 'completed') this.stream.markdown(`\n- ✓ ${escapeMarkdown(title)}\n`);
    else if (status === 'failed') this.stream.markdown(`\n- ✗ ${escapeMarkdown(title)} — failed\n`);
  }

  private title(raw: string): string {
    return oneLine(this.options.redactor.redact(raw), TITLE_MAX_CHARS);
  }
}
