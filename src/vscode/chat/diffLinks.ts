// "Open diff" buttons in chat replies: a button's arguments are stored with the chat session, so it
// carries a short key, and the diff itself stays here (bounded, newest kept).
import * as vscode from 'vscode';
import type { FileDiffDisplay } from '../../executor/contract/contract';
import type { DiffEditorOpener } from '../results/diffEditor';

export const OPEN_DIFF_COMMAND = 'agentToolExecutor.openDiff';

/** Diffs a reply can still open; the oldest are dropped first. Ours. */
export const MAX_REMEMBERED_DIFFS = 200;

export class DiffLinks implements vscode.Disposable {
  private readonly diffs = new Map<string, { display: FileDiffDisplay; workDir: string | undefined }>();
  private next = 0;
  private readonly command: vscode.Disposable;

  constructor(private readonly opener: DiffEditorOpener) {
    this.command = vscode.commands.registerCommand(OPEN_DIFF_COMMAND, (key: string) => this.open(key));
  }

  /** Remembers a diff; returns the button that opens it. */
  button(display: FileDiffDisplay, workDir: string | undefined): vscode.Command {
    const key = `diff-${++this.next}`;
    this.diffs.set(key, { display, workDir });
    while (this.diffs.size > MAX_REMEMBERED_DIFFS) this.diffs.delete(this.diffs.keys().next().value as string);
    return { command: OPEN_DIFF_COMMAND, title: 'Open diff', tooltip: `Open the change to ${display.path} in the diff editor`, arguments: [key] };
  }

  async open(key: string): Promise<void> {
    const entry = this.diffs.get(key);
    if (!entry) {
      void vscode.window.showInformationMessage('Agent Tool Executor: this diff is no longer available (it belongs to an earlier window).');
      return;
    }
    await this.openDisplay(entry.display, entry.workDir);
  }

  /** Opens a finished change; the chat or view keeps the focus, so the user can go on reading. */
  openDisplay(display: FileDiffDisplay, workDir: string | undefined): Promise<void> {
    return this.opener.open(display, workDir, { preserveFocus: true });
  }

  dispose(): void {
    this.command.dispose();
    this.diffs.clear();
  }
}
