// Adapter: opens a `file_diff` display in VS Code's diff editor (spec §9). The "before" side is a
// read-only snapshot; the "after" side is the file itself while it still holds the tool's text.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FileDiffDisplay, ProposedChange } from '../../executor/contract/contract';

export const SNAPSHOT_SCHEME = 'executor-snapshot';

/** Snapshots kept for reopened diff editors; the oldest are dropped first. */
const MAX_SNAPSHOTS = 100;

/** Serves the read-only sides of diff editors from memory. */
export class SnapshotContentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly snapshots = new Map<string, string>();
  private next = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.snapshots.get(uri.query) ?? '(this snapshot is no longer available)';
  }

  /** Stores `text` and returns a URI that shows it under the name of `filePath`. */
  add(filePath: string, side: 'before' | 'after', text: string): vscode.Uri {
    const key = `${++this.next}-${side}`;
    this.snapshots.set(key, text);
    while (this.snapshots.size > MAX_SNAPSHOTS) {
      this.snapshots.delete(this.snapshots.keys().next().value as string);
    }
    return vscode.Uri.from({ scheme: SNAPSHOT_SCHEME, path: toPosixPath(filePath), query: key });
  }

  dispose(): void {
    this.snapshots.clear();
  }
}

export class DiffEditorOpener {
  constructor(private readonly snapshots: SnapshotContentProvider) {}

  /** Opens what a call would change, before it runs: the file now ↔ as the call would leave it. */
  async openProposed(change: ProposedChange): Promise<void> {
    const left = this.snapshots.add(change.path, 'before', change.before);
    const right = this.snapshots.add(change.path, 'after', change.after);
    const title = `${path.basename(change.path)} (now ↔ proposed ${change.before === '' ? 'creation' : 'change'})`;
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
  }

  /** Opens the diff; `workDir` resolves a relative `display.path`. */
  async open(display: FileDiffDisplay, workDir: string | undefined, options: { preview?: boolean; preserveFocus?: boolean } = {}): Promise<void> {
    const absolute = path.isAbsolute(display.path) || !workDir ? display.path : path.join(workDir, display.path);
    const left = this.snapshots.add(absolute, 'before', display.before);
    const right = (await fileHolds(absolute, display.after)) ? vscode.Uri.file(absolute) : this.snapshots.add(absolute, 'after', display.after);
    const title = `${path.basename(absolute)} (before ↔ after ${display.before === '' ? 'creation' : 'edit'})`;
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: options.preview ?? false, preserveFocus: options.preserveFocus ?? false });
  }
}

async function fileHolds(filePath: string, text: string): Promise<boolean> {
  try {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(filePath));
    return new TextDecoder().decode(bytes) === text;
  } catch {
    return false;
  }
}

function toPosixPath(filePath: string): string {
  const posix = filePath.split(path.sep).join('/');
  return posix.startsWith('/') ? posix : `/${posix}`;
}
