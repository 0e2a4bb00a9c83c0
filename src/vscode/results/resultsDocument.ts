// The results of a batch run from the command, as a read-only markdown document beside the
// editor: what the model receives per call, and links that open persisted outputs (spec §8, §9).
import * as vscode from 'vscode';
import type { ToolCallResult } from '../../executor/contract/result';
import { ARTIFACT_SCHEME } from '../../executor/results/artifactLayout';

export const RESULTS_SCHEME = 'executor-results';
export const OPEN_ARTIFACT_COMMAND = 'agentToolExecutor.openArtifact';

/** Result documents kept for reopened tabs; the oldest are dropped first. */
const MAX_DOCUMENTS = 20;
const ARTIFACT_LINK = new RegExp(`${ARTIFACT_SCHEME}://[^\\s)>\\]\`]+`, 'g');

export class ResultsDocuments implements vscode.TextDocumentContentProvider, vscode.DocumentLinkProvider, vscode.Disposable {
  private readonly documents = new Map<string, string>();
  private next = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.documents.get(uri.path) ?? '(these results are no longer available)';
  }

  /** Artifact URIs become links to the open-artifact command, which opens the stored file. */
  provideDocumentLinks(document: vscode.TextDocument): vscode.DocumentLink[] {
    const links: vscode.DocumentLink[] = [];
    const text = document.getText();
    for (const match of text.matchAll(ARTIFACT_LINK)) {
      const range = new vscode.Range(document.positionAt(match.index ?? 0), document.positionAt((match.index ?? 0) + match[0].length));
      const target = vscode.Uri.parse(`command:${OPEN_ARTIFACT_COMMAND}?${encodeURIComponent(JSON.stringify([match[0]]))}`);
      const link = new vscode.DocumentLink(range, target);
      link.tooltip = 'Open the full output';
      links.push(link);
    }
    return links;
  }

  /** Stores the rendered results and opens them beside the active editor, keeping focus where it is. */
  async show(results: readonly ToolCallResult[]): Promise<vscode.TextEditor> {
    const uri = vscode.Uri.from({ scheme: RESULTS_SCHEME, path: `/tool-results-${++this.next}.md` });
    this.documents.set(uri.path, renderResults(results));
    while (this.documents.size > MAX_DOCUMENTS) {
      this.documents.delete(this.documents.keys().next().value as string);
    }
    const document = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: false });
  }

  dispose(): void {
    this.documents.clear();
  }
}

export function renderResults(results: readonly ToolCallResult[]): string {
  const lines = [`# Tool results (${results.length} ${results.length === 1 ? 'call' : 'calls'})`, ''];
  results.forEach((result, index) => {
    lines.push(`## ${index + 1}. ${result.name} — ${status(result)}`, '');
    lines.push(`Call \`${result.callId}\` · permission: ${permission(result)} · ${Math.round(result.timing.totalMs)} ms`, '');
    if (result.artifact) {
      lines.push(`Full output (${formatBytes(result.originalBytes)}): ${result.artifact.uri}`, '');
    }
    if (result.display?.kind === 'file_diff') {
      lines.push(`Changed \`${result.display.path}\` (opened in a diff editor)`, '');
    }
    lines.push('What the model receives:', '', fenced(result.modelContent), '');
  });
  return lines.join('\n');
}

function status(result: ToolCallResult): string {
  if (!result.isError) return 'ok';
  return result.errorKind === 'permission' ? 'denied' : `failed (${result.errorKind ?? 'error'})`;
}

function permission(result: ToolCallResult): string {
  const { outcome, by } = result.permission;
  if (outcome === 'none') return 'not needed';
  return by ? `${outcome} by ${by}` : outcome;
}

/** A fence longer than any backtick run inside, so model text cannot close it early. */
function fenced(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text}\n${fence}`;
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
