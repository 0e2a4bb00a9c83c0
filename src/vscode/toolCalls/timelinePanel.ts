// The timeline picture of a turn in a webview panel: an SVG with the theme's colours, no scripts, no
// network (the content security policy allows inline styles only). Redrawn while the turn runs.
import * as vscode from 'vscode';
import type { ToolCallsModel } from './model';
import { timelineLegend, timelineSvg } from './timeline';

export const TIMELINE_VIEW_TYPE = 'agentToolExecutor.timeline';

export class TimelinePanels implements vscode.Disposable {
  private readonly panels = new Map<string, vscode.WebviewPanel>();

  constructor(private readonly model: ToolCallsModel) {}

  /** Opens (or reveals) the picture of a turn beside the editor. */
  show(turnId: string): void {
    const turn = this.model.turn(turnId);
    if (!turn) {
      void vscode.window.showInformationMessage('Agent Tool Executor: that turn is no longer in the Tool Calls view.');
      return;
    }
    let panel = this.panels.get(turnId);
    if (panel) {
      panel.reveal(vscode.ViewColumn.Beside, true);
    } else {
      panel = vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, `Timeline: ${turn.label}`, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: false, localResourceRoots: [] });
      this.panels.set(turnId, panel);
      panel.onDidDispose(() => this.panels.delete(turnId));
    }
    this.render(turnId);
  }

  /** Redraws an open panel (the view calls this when the turn changes). */
  render(turnId: string): void {
    const panel = this.panels.get(turnId);
    const turn = this.model.turn(turnId);
    if (!panel || !turn) return;
    const now = performance.now() - turn.startedAt;
    panel.webview.html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">
<style>
  body { color: var(--vscode-foreground); font-family: var(--vscode-font-family); padding: 12px; }
  h1 { font-size: 1.1em; font-weight: 600; margin: 0 0 4px; }
  p { margin: 0 0 12px; opacity: 0.8; }
  .legend { margin-right: 14px; white-space: nowrap; }
</style></head>
<body>
<h1>${escapeHtml(turn.label)}</h1>
<p>${turn.calls.length} call${turn.calls.length === 1 ? '' : 's'} · started ${new Date(turn.startedWallMs).toLocaleTimeString()}${turn.endedAt === undefined ? ' · running' : ''}</p>
<p>${timelineLegend()}</p>
${timelineSvg(turn, now)}
</body></html>`;
  }

  dispose(): void {
    for (const panel of this.panels.values()) panel.dispose();
    this.panels.clear();
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
