// Undo of a chat turn in VS Code: the checkpoints of each `@executor` request (in the workspace
// storage), the reply's "Undo this turn" and "Undo back to here", the command "Undo Last Turn", a modal
// for paths changed since (with their diffs), and what the undo put back, each with Open Diff.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { disposableStore } from '../../common/lifecycle';
import type { ApprovalClient, TurnCheckpoint } from '../../executor';
import { AGENT_IGNORE_FILES } from '../../executor';
import { CheckpointStore, type TurnRecord } from '../../node/checkpoints/checkpointStore';
import { HostTurnCheckpoint } from '../../node/checkpoints/hostTurn';
import { sharedStatPool } from '../../node/checkpoints/statPool';
import { AlreadyReversedError, planUndo, undoTurn, type Conflict, type PlannedPath, type UndoOutcome } from '../../node/checkpoints/undo';
import type { SnapshotContentProvider } from '../results/diffEditor';
import { UNDO_BACK_TO_COMMAND, UNDO_TURN_COMMAND } from './undoButtons';
import { agentUndoDetail, conflictDetail, MAX_LISTED_CONFLICTS, outcomeText } from './undoText';

export { UNDO_BACK_TO_COMMAND, UNDO_TURN_COMMAND } from './undoButtons';
export const UNDO_LAST_TURN_COMMAND = 'agentToolExecutor.undoLastTurn';
export const CLEAR_CHECKPOINTS_COMMAND = 'agentToolExecutor.clearCheckpoints';
/** The Tool Calls view's turn menu: undoes the chat request the executor turn belonged to. */
export const UNDO_VIEW_TURN_COMMAND = 'agentToolExecutor.undoToolCallsTurn';

/** A chat request's checkpoint: given to each executor turn of the request, ended with the request. */
export interface ChatTurnCheckpoint {
  readonly checkpoint: TurnCheckpoint;
  /** An executor turn (a round) of the request, so the Tool Calls view can undo the request from it. */
  bind(executorTurnId: string): void;
  /** The recorded turn, or undefined when the request wrote nothing. */
  end(reported: readonly string[]): Promise<TurnRecord | undefined>;
}

/** What the Tool Calls view shows of undo: which rounds belong to a request that is undone now. */
export interface UndoState {
  isUndone(executorTurnId: string): boolean;
  readonly onDidChange: vscode.Event<void>;
}

export class TurnUndo implements vscode.Disposable, UndoState {
  private store: CheckpointStore | undefined;
  private readonly disposables = disposableStore();
  /** Executor turn → the chat request's checkpointed turn, for the Tool Calls view (which lives as long). */
  private readonly rounds = new Map<string, string>();
  /** Checkpointed turns an undo reverses now; worked out again after each change. */
  private undone: ReadonlySet<string> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly storageRoot: vscode.Uri,
    private readonly folders: () => readonly string[],
    private readonly snapshots: SnapshotContentProvider,
    /** Who allows an agent's undo (the approval modal); without one, an agent's undo is refused. */
    private readonly approvals?: ApprovalClient,
  ) {
    this.disposables.addAll(
      this.changed,
      vscode.commands.registerCommand(UNDO_TURN_COMMAND, (turnId?: string) => this.undo(turnId)),
      vscode.commands.registerCommand(UNDO_BACK_TO_COMMAND, (turnId: string) => this.undoBackTo(turnId)),
      vscode.commands.registerCommand(UNDO_LAST_TURN_COMMAND, () => this.undo(undefined)),
      vscode.commands.registerCommand(CLEAR_CHECKPOINTS_COMMAND, () => this.clear()),
      vscode.commands.registerCommand(UNDO_VIEW_TURN_COMMAND, (node?: { turn?: { turnId?: string } }) => this.undoRound(node?.turn?.turnId)),
    );
  }

  /** A checkpoint for one chat request; undefined without a workspace folder. */
  begin(title: string): ChatTurnCheckpoint | undefined {
    const folders = this.folders();
    if (folders.length === 0) return undefined;
    const turn = new HostTurnCheckpoint(this.checkpoints(), `chat-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, title, [...folders]);
    return {
      checkpoint: turn,
      bind: (round) => this.rounds.set(round, turn.turnId),
      end: async (reported) => {
        const record = await turn.end(reported);
        if (record) this.turnsChanged();
        return record;
      },
    };
  }

  isUndone(executorTurnId: string): boolean {
    const turnId = this.rounds.get(executorTurnId);
    if (turnId === undefined || this.folders().length === 0) return false;
    if (!this.undone) {
      const store = this.checkpoints();
      const turns = store.turns();
      this.undone = new Set(turns.filter((turn) => turn.kind === 'turn' && store.reversalOf(turn.turnId, turns)).map((turn) => turn.turnId));
    }
    return this.undone.has(turnId);
  }

  private turnsChanged(): void {
    this.undone = undefined;
    this.changed.fire();
  }

  private async undoRound(round: string | undefined): Promise<UndoOutcome | undefined> {
    const turnId = round ? this.rounds.get(round) : undefined;
    if (!turnId || !this.checkpoints().turn(turnId)) {
      void vscode.window.showInformationMessage('This turn changed no file, or its checkpoints are no longer kept.');
      return undefined;
    }
    return this.undo(turnId);
  }

  /** The turns that can be undone, oldest first. */
  turns(): TurnRecord[] {
    return this.folders().length === 0 ? [] : this.checkpoints().turns();
  }

  /** Undoes one turn (the last one by default) and shows what it put back; the outcome, for tests. */
  async undo(turnId: string | undefined): Promise<UndoOutcome | undefined> {
    const store = this.checkpoints();
    const id = turnId ?? store.turns().at(-1)?.turnId;
    if (!id) {
      void vscode.window.showInformationMessage('There is no turn to undo in this workspace.');
      return undefined;
    }
    let outcome: UndoOutcome;
    try {
      outcome = await undoTurn(store, id, (conflicts) => this.askAboutConflicts(store, id, conflicts));
      if (outcome.record) this.turnsChanged();
    } catch (error) {
      if (error instanceof AlreadyReversedError) {
        void this.offerReversal(error);
        return undefined;
      }
      void vscode.window.showErrorMessage(`Could not undo the turn: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
    if (!outcome.cancelled) void this.showOutcome(store, outcome);
    return outcome;
  }

  /**
   * An agent's undo (the bridge's `executor/undoTurn`) writes files, so the user allows it first, shown every
   * path it would write; paths changed since the turn are skipped unless the agent says `force`, and then
   * the user decides in the same modal as for their own undo.
   */
  async undoFromAgent(turnId: string, force: boolean): Promise<UndoOutcome> {
    const store = this.checkpoints();
    const plan = planUndo(store, turnId);
    const writes = plan.safe.length + (force ? plan.conflicts.length : 0);
    if (writes > 0 && !(await this.agentMayUndo(turnId, agentUndoDetail(plan, force, (file) => this.shown(file)), force))) {
      return { record: undefined, restored: [], skipped: [], notRestorable: plan.notRestorable, failed: [], cancelled: true };
    }
    const outcome = await undoTurn(store, turnId, (conflicts) => (force ? this.askAboutConflicts(store, turnId, conflicts) : 'skip'));
    if (outcome.record) this.turnsChanged();
    if (!outcome.cancelled) void this.showOutcome(store, outcome);
    return outcome;
  }

  private async agentMayUndo(turnId: string, detail: string, force: boolean): Promise<boolean> {
    if (!this.approvals) return false;
    const answer = await this.approvals.requestApproval(
      { callId: `undo-${turnId}`, toolName: 'Undo', input: { turnId, force }, reason: 'an agent asks to undo a turn, which writes files', preview: { title: 'Undo a turn', detail }, sessionAllowed: false },
      new AbortController().signal,
    );
    return answer.kind !== 'deny';
  }

  /** A second Undo on a reply: says the turn is undone already and offers to bring it back. */
  private async offerReversal(error: AlreadyReversedError): Promise<void> {
    const again = error.by.kind === 'undo' ? 'Redo' : 'Undo';
    const said = error.turn.kind === 'undo' ? 'This undo was already redone.' : 'This turn is already undone.';
    if ((await vscode.window.showInformationMessage(said, again)) === again) await this.undo(error.by.turnId);
  }

  /** Undoes every turn from the newest back to `turnId`, newest first, each asked about on its own. */
  async undoBackTo(turnId: string): Promise<UndoOutcome[]> {
    const turns = this.checkpoints().turns();
    const from = turns.findIndex((turn) => turn.turnId === turnId);
    if (from < 0) {
      void vscode.window.showErrorMessage(`No checkpoints are kept for turn ${turnId}: it is older than the retention.`);
      return [];
    }
    const outcomes: UndoOutcome[] = [];
    // Undos, and turns already undone, stay out: undoing back over them would redo what the user undid.
    for (const turn of turns.slice(from).filter((entry) => entry.kind === 'turn' && !this.checkpoints().reversalOf(entry.turnId, turns)).reverse()) {
      const outcome = await this.undo(turn.turnId);
      if (!outcome || outcome.cancelled) break;
      outcomes.push(outcome);
    }
    return outcomes;
  }

  async clear(): Promise<void> {
    const count = this.turns().length;
    const answer = await vscode.window.showWarningMessage(`Remove the checkpoints of ${count} turn${count === 1 ? '' : 's'}? Those turns can no longer be undone.`, { modal: true }, 'Remove');
    if (answer === 'Remove') {
      this.checkpoints().clear();
      this.turnsChanged();
    }
  }

  dispose(): void {
    this.disposables.dispose();
    // The walks' stat worker ends with the extension rather than idling out.
    sharedStatPool.stop();
  }

  private checkpoints(): CheckpointStore {
    if (!this.store) {
      // One store per set of folders, so two workspaces sharing a storage never undo each other's turns.
      const key = createHash('sha256').update(this.folders().join('\n')).digest('hex').slice(0, 16);
      this.store = new CheckpointStore(path.join(this.storageRoot.fsPath, 'checkpoints', key), { ignoreFiles: AGENT_IGNORE_FILES });
    }
    return this.store;
  }

  private async askAboutConflicts(store: CheckpointStore, turnId: string, conflicts: readonly Conflict[]): Promise<'skip' | 'overwrite' | 'cancel'> {
    const turn = store.turn(turnId);
    const detail = conflictDetail(conflicts, (file) => this.shown(file));
    for (;;) {
      const answer = await vscode.window.showWarningMessage(`Undo "${turn?.title ?? turnId}"?`, { modal: true, detail }, 'Skip Changed Files', 'Overwrite', 'Show Diffs');
      if (answer === 'Skip Changed Files') return 'skip';
      if (answer === 'Overwrite') return 'overwrite';
      if (answer !== 'Show Diffs') return 'cancel';
      for (const conflict of conflicts.slice(0, MAX_LISTED_CONFLICTS)) await this.openDiff(store, turn?.after, conflict, 'as the turn left it ↔ now');
    }
  }

  private async showOutcome(store: CheckpointStore, outcome: UndoOutcome): Promise<void> {
    const text = outcomeText(outcome, (file) => this.shown(file));
    const answer = await vscode.window.showInformationMessage(text.message, ...text.actions);
    if (answer !== undefined && answer === text.reverse && outcome.record) await this.undo(outcome.record.turnId);
    if (answer !== 'Show Changes') return;
    const picked = await vscode.window.showQuickPick(
      outcome.restored.map((entry) => ({ label: this.shown(entry.path), description: VERB[entry.kind], entry })),
      { title: text.pickTitle, placeHolder: `Open a diff (${text.diffCaption})` },
    );
    if (picked) await this.openDiff(store, outcome.record?.before, picked.entry, text.diffCaption);
  }

  private async openDiff(store: CheckpointStore, checkpointId: string | undefined, entry: PlannedPath, caption: string): Promise<void> {
    const old = checkpointId ? store.fileAt(checkpointId, entry.path) : undefined;
    const left = this.snapshots.add(entry.path, 'before', old ? new TextDecoder().decode(old) : '');
    const right = vscode.Uri.file(entry.path);
    await vscode.commands.executeCommand('vscode.diff', left, right, `${path.basename(entry.path)} (${caption})`, { preview: false });
  }

  private shown(file: string): string {
    return vscode.workspace.asRelativePath(file, this.folders().length > 1);
  }
}

const VERB = { created: 'removed', modified: 'restored', deleted: 'brought back' } as const;
