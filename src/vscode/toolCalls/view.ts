// The Tool Calls view: the window's turns and their calls, live — queued, awaiting
// approval, running, done, failed, cancelled — with duration and wait; a call opens its diff, its
// saved output or its result document; a turn opens its timeline picture. A status bar item counts
// what runs, waits and asks, and opens the view.
import * as vscode from 'vscode';
import type { ToolExecutor } from '../../executor';
import type { ToolCallResult } from '../../executor';
import type { DiffLinks } from '../chat/diffLinks';
import { formatDuration } from '../chat/replyText';
import type { ArtifactOpener } from '../results/artifactLinks';
import type { ResultsDocuments } from '../results/resultsDocument';
import type { UndoState } from '../undo/turnUndo';
import { ToolCallsModel, type CallRecord, type TurnRecord } from './model';
import { TimelinePanels } from './timelinePanel';
import { disposableStore } from '../../common/lifecycle';

export const TOOL_CALLS_VIEW = 'agentToolExecutor.toolCalls';
export const OPEN_CALL_COMMAND = 'agentToolExecutor.openToolCall';
export const SHOW_TIMELINE_COMMAND = 'agentToolExecutor.showTimeline';
export const SHOW_TOOL_CALLS_COMMAND = 'agentToolExecutor.showToolCalls';
/** The view and the status bar redraw at most this often while calls stream in. Ours. */
export const VIEW_REFRESH_MS = 200;

const ICONS: Readonly<Record<CallRecord['status'], vscode.ThemeIcon>> = {
  queued: new vscode.ThemeIcon('clock'),
  awaitingApproval: new vscode.ThemeIcon('shield', new vscode.ThemeColor('charts.orange')),
  running: new vscode.ThemeIcon('loading~spin'),
  done: new vscode.ThemeIcon('check', new vscode.ThemeColor('charts.green')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('charts.red')),
  cancelled: new vscode.ThemeIcon('circle-slash'),
};

type Node = { readonly kind: 'turn'; readonly turn: TurnRecord } | { readonly kind: 'call'; readonly turn: TurnRecord; readonly call: CallRecord };

export interface ToolCallsViewDeps {
  readonly diffLinks: DiffLinks;
  readonly artifacts: ArtifactOpener;
  readonly results: ResultsDocuments;
  readonly workDir: () => string | undefined;
}

export class ToolCallsView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  readonly model = new ToolCallsModel();
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables = disposableStore();
  private readonly timelines = new TimelinePanels(this.model);
  private readonly status = vscode.window.createStatusBarItem('agentToolExecutor.status', vscode.StatusBarAlignment.Left, 10);
  private readonly dirtyTurns = new Set<string>();
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private undo: UndoState | undefined;

  constructor(private readonly deps: ToolCallsViewDeps) {
    this.status.name = 'Agent Tool Executor';
    this.status.command = SHOW_TOOL_CALLS_COMMAND;
    this.disposables.addAll(
      this.changed,
      this.timelines,
      this.status,
      vscode.window.createTreeView(TOOL_CALLS_VIEW, { treeDataProvider: this }),
      vscode.commands.registerCommand(OPEN_CALL_COMMAND, (turnId: string, callId: string) => this.openCall(turnId, callId)),
      vscode.commands.registerCommand(SHOW_TIMELINE_COMMAND, (node?: Node | string) => this.showTimeline(node)),
      vscode.commands.registerCommand(SHOW_TOOL_CALLS_COMMAND, () => vscode.commands.executeCommand(`${TOOL_CALLS_VIEW}.focus`)),
    );
  }

  /** Shows `executor`'s turns and calls from now on (the extension starts its executor on first use). */
  attach(executor: Pick<ToolExecutor, 'onEvent'>): void {
    const unsubscribe = executor.onEvent((event) => {
      const turn = this.model.apply(event);
      if (turn) this.scheduleRefresh(turn.turnId);
    });
    this.disposables.addAll({ dispose: unsubscribe });
  }

  /** Marks the rounds of requests that are undone now, redrawn whenever an undo or a redo changes that. */
  showUndo(state: UndoState): void {
    this.undo = state;
    this.disposables.addAll(state.onDidChange(() => this.changed.fire(undefined)));
    this.changed.fire(undefined);
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'turn') {
      const { turn } = node;
      const item = new vscode.TreeItem(turn.label, vscode.TreeItemCollapsibleState.Expanded);
      const errors = turn.calls.filter((call) => call.status === 'failed' || call.status === 'cancelled').length;
      const undone = turn.endedAt !== undefined && this.undo?.isUndone(turn.turnId) === true;
      item.description = `${new Date(turn.startedWallMs).toLocaleTimeString()} · ${turn.calls.length} call${turn.calls.length === 1 ? '' : 's'}${errors ? ` · ${errors} failed` : ''}${turn.endedAt === undefined ? ' · running' : ''}${undone ? ' · undone' : ''}`;
      item.contextValue = 'turn';
      item.id = turn.turnId;
      item.iconPath = new vscode.ThemeIcon(turn.endedAt === undefined ? 'sync~spin' : undone ? 'discard' : 'history');
      item.tooltip = 'Show Timeline from the context menu or the inline action';
      return item;
    }
    const { turn, call } = node;
    const item = new vscode.TreeItem(call.name, vscode.TreeItemCollapsibleState.None);
    item.id = `${turn.turnId}/${call.callId}`;
    item.iconPath = ICONS[call.status];
    item.description = describe(call);
    item.contextValue = 'call';
    item.tooltip = tooltip(call);
    if (call.result) item.command = { command: OPEN_CALL_COMMAND, title: 'Open', arguments: [turn.turnId, call.callId] };
    return item;
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.model.list().map((turn) => ({ kind: 'turn', turn }));
    if (node.kind === 'turn') return node.turn.calls.map((call) => ({ kind: 'call', turn: node.turn, call }));
    return [];
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    this.disposables.dispose();
  }

  /** Its diff when it changed a file, else its saved output, else its result document. */
  private async openCall(turnId: string, callId: string): Promise<void> {
    const result = this.model.turn(turnId)?.calls.find((call) => call.callId === callId)?.result;
    if (!result) return;
    if (!result.isError && result.display?.kind === 'file_diff') {
      await this.deps.diffLinks.openDisplay(result.display, this.deps.workDir());
      return;
    }
    if (result.artifact) {
      await this.deps.artifacts.open(result.artifact.uri);
      return;
    }
    await this.deps.results.show([result as ToolCallResult]);
  }

  private showTimeline(node?: Node | string): void {
    const turnId = typeof node === 'string' ? node : (node?.turn.turnId ?? this.model.list()[0]?.turnId);
    if (!turnId) {
      void vscode.window.showInformationMessage('Agent Tool Executor: no tool calls yet in this window.');
      return;
    }
    this.timelines.show(turnId);
  }

  private scheduleRefresh(turnId: string): void {
    this.dirtyTurns.add(turnId);
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.changed.fire(undefined);
      for (const id of this.dirtyTurns) this.timelines.render(id);
      this.dirtyTurns.clear();
      this.updateStatus();
    }, VIEW_REFRESH_MS);
  }

  private updateStatus(): void {
    const { running, queued, awaitingApproval } = this.model.counts();
    if (running + queued + awaitingApproval === 0) {
      this.status.hide();
      return;
    }
    const parts = [running ? `${running} running` : '', queued ? `${queued} queued` : '', awaitingApproval ? `${awaitingApproval} awaiting approval` : ''].filter(Boolean);
    this.status.text = `$(tools) ${parts.join(' · ')}`;
    this.status.tooltip = 'Agent Tool Executor: tool calls of this window (click for the Tool Calls view)';
    this.status.show();
  }
}

/** `done · 1.2 s · waited 3.0 s for approval`: the state, how long it ran, how long it waited. */
export function describe(call: CallRecord): string {
  const statusWord = call.status === 'awaitingApproval' ? 'awaiting approval' : call.status;
  const took = call.startedAt !== undefined && call.endedAt !== undefined ? formatDuration(call.endedAt - call.startedAt) : '';
  const answered = call.answeredAt ?? call.endedAt;
  const waited = call.askedAt !== undefined && answered !== undefined ? `waited ${formatDuration(answered - call.askedAt)} for approval` : '';
  return [statusWord, took, waited].filter(Boolean).join(' · ');
}

function tooltip(call: CallRecord): string {
  const result = call.result;
  const lines = [`${call.name} (${call.callId})`, `status: ${call.status}${call.group === undefined ? '' : `, group ${call.group}`}`];
  if (result) {
    lines.push(`${result.modelBytes} bytes to the model${result.truncated ? ' (truncated)' : ''}${result.artifact ? ', full output saved' : ''}`);
    if (result.failure) lines.push(result.failure.message.split('\n')[0] ?? '');
  }
  return lines.join('\n');
}
