// Turns a turn's events into the chat reply: progress while a call is queued, waits for an
// approval or runs (with its live output, throttled), then one outcome line with what to open —
// the touched file, Open diff, the saved output, the workspace changes. Text from tools is already
// redacted by the executor; call targets come from the model's input and are redacted here.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TurnEvent } from '../../executor';
import { displayPath } from '../../tools/fileAccess/toolPaths';
import type { Redactor } from '../../executor';
import type { ToolCallResult } from '../../executor';
import type { Turn } from '../../executor';
import { OPEN_ARTIFACT_COMMAND } from '../results/resultsDocument';
import type { DiffLinks } from './diffLinks';
import { callTarget, escapeMarkdown, lastLine, outcomeLine, progressText, touchedFile } from './replyText';

/** A call that starts within this long after being queued never shows "Queued". Ours. */
export const QUEUED_NOTICE_MS = 250;
/** A call that ends within this long after starting never shows "Running". Ours. */
export const RUNNING_NOTICE_MS = 250;
/** At most one live-output progress line per call per this long (chat keeps every line). Ours. */
export const LIVE_PROGRESS_INTERVAL_MS = 2000;
/** Workspace changes listed under one outcome line; the rest are counted. Ours. */
export const MAX_CHANGES_SHOWN = 20;

interface CallView {
  readonly name: string;
  readonly target: string;
  readonly input: unknown;
  started: boolean;
  ended: boolean;
  timer?: ReturnType<typeof setTimeout>;
  lastLiveAt: number;
}

export interface ReplyRendererOptions {
  readonly redactor: Redactor;
  readonly diffLinks: DiffLinks;
  readonly workspaceFolders: () => readonly string[];
}

export class ReplyRenderer implements vscode.Disposable {
  private readonly calls = new Map<string, CallView>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly stream: vscode.ChatResponseStream,
    private readonly turn: Turn,
    private readonly options: ReplyRendererOptions,
  ) {
    this.unsubscribe = turn.onEvent((event) => this.onEvent(event));
  }

  /** Tells the renderer what a call is about before it is offered (events carry no input until it starts). */
  expect(callId: string, name: string, input: unknown): void {
    const target = this.options.redactor.redact(callTarget(input));
    this.calls.set(callId, { name, target, input, started: false, ended: false, lastLiveAt: Number.NEGATIVE_INFINITY });
  }

  dispose(): void {
    this.unsubscribe();
    for (const view of this.calls.values()) clearTimeout(view.timer);
  }

  private onEvent(event: TurnEvent): void {
    switch (event.type) {
      case 'toolCallQueued':
        this.later(event.callId, QUEUED_NOTICE_MS, (view) => !view.started && this.stream.progress(progressText.queued(view.name, view.target)));
        return;
      case 'permissionRequested': {
        const view = this.calls.get(event.callId);
        if (view) this.stream.progress(`${progressText.approval(view.name, view.target)} (${this.options.redactor.redact(event.reason)})`);
        return;
      }
      case 'toolCallStarted': {
        const view = this.calls.get(event.callId);
        if (!view) return;
        view.started = true;
        clearTimeout(view.timer);
        this.later(event.callId, RUNNING_NOTICE_MS, (later) => !later.ended && this.stream.progress(progressText.running(later.name, later.target)));
        return;
      }
      case 'toolCallOutput': {
        const view = this.calls.get(event.callId);
        const line = lastLine(event.text);
        if (!view || view.ended || !line || performance.now() - view.lastLiveAt < LIVE_PROGRESS_INTERVAL_MS) return;
        view.lastLiveAt = performance.now();
        this.stream.progress(progressText.output(view.name, view.target, line));
        return;
      }
      case 'toolCallResult':
      case 'toolCallFailed':
        this.outcome(event.result);
        return;
      default:
        return;
    }
  }

  private later(callId: string, ms: number, show: (view: CallView) => unknown): void {
    const view = this.calls.get(callId);
    if (!view) return;
    clearTimeout(view.timer);
    view.timer = setTimeout(() => show(view), ms);
  }

  private outcome(result: ToolCallResult): void {
    const view = this.calls.get(result.callId) ?? { name: result.name, target: '', input: undefined, started: false, ended: false, lastLiveAt: 0 };
    view.ended = true;
    clearTimeout(view.timer);
    this.stream.markdown(`\n\n${outcomeLine(result, view.target)}  \n`);
    const file = touchedFile(result, view.input, this.turn.presentationOf(result.name), this.options.workspaceFolders());
    if (file) this.stream.anchor(vscode.Uri.file(file), this.relative(file));
    if (!result.isError && result.display?.kind === 'file_diff') {
      this.stream.button(this.options.diffLinks.button(result.display, this.options.workspaceFolders()[0]));
    }
    if (result.artifact) {
      this.stream.button({ command: OPEN_ARTIFACT_COMMAND, title: 'Open saved output', tooltip: `The whole output (${result.originalBytes} bytes), saved in the workspace storage`, arguments: [result.artifact.uri] });
    }
    this.changes(result);
  }

  /** The `[Workspace Changes]` list, with anchors for what still exists. */
  private changes(result: ToolCallResult): void {
    if (result.changes.length === 0) return;
    this.stream.markdown('\nWorkspace changes:\n');
    // A list item each, its sign escaped (a bare `+` would start a list of its own, `~` would not),
    // and a blank line after, so the model's next words start a paragraph instead of joining the last item.
    for (const change of result.changes.slice(0, MAX_CHANGES_SHOWN)) {
      const sign = change.kind === 'created' ? '+' : change.kind === 'modified' ? '~' : '−';
      this.stream.markdown(`\n- ${escapeMarkdown(sign)} `);
      if (change.kind === 'deleted') this.stream.markdown(`${escapeMarkdown(change.path)} (deleted)`);
      else this.stream.anchor(vscode.Uri.file(change.absolutePath), change.path);
    }
    const more = result.changes.length - MAX_CHANGES_SHOWN;
    this.stream.markdown(more > 0 ? `\n- … and ${more} more\n\n` : '\n\n');
  }

  private relative(file: string): string {
    const folders = this.options.workspaceFolders();
    return displayPath(file, { workDir: folders[0] ?? path.dirname(file), workspaceFolders: folders });
  }
}
