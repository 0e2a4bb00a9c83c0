// Opening persisted outputs: the open-artifact command (links in results and, later, chat) and a
// read-only view of `executor-artifact:` URIs for anything that opens them directly.
import * as vscode from 'vscode';
import type { ArtifactStore } from '../../executor/ports/workspace/artifactStore';

export class ArtifactOpener implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: ArtifactStore) {}

  /** Opens the stored file behind an `executor-artifact://` link in an editor; tells the user when it is gone. */
  async open(uri: string | vscode.Uri): Promise<vscode.TextEditor | undefined> {
    const file = this.fileOf(uri);
    if (!file) {
      void vscode.window.showErrorMessage(`Agent Tool Executor: ${String(uri)} is not an artifact link.`);
      return undefined;
    }
    try {
      await vscode.workspace.fs.stat(file);
    } catch {
      void vscode.window.showWarningMessage(`Agent Tool Executor: the output ${String(uri)} no longer exists (its retention ended).`);
      return undefined;
    }
    return vscode.window.showTextDocument(file, { preview: false });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const file = this.fileOf(uri);
    if (!file) {
      return `${uri.toString()} is not an artifact link.`;
    }
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    } catch {
      return `${uri.toString()} no longer exists (its retention ended).`;
    }
  }

  private fileOf(uri: string | vscode.Uri): vscode.Uri | undefined {
    const path = this.store.resolve(uri.toString());
    return path === undefined ? undefined : vscode.Uri.file(path);
  }
}
