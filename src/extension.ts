// Composition root: wires the executor's ports to VS Code adapters.
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Agent Tool Executor', { log: true });
  context.subscriptions.push(log);
  context.subscriptions.push(vscode.commands.registerCommand('agentToolExecutor.showLog', () => log.show()));
  log.info('Agent Tool Executor activated');
}

export function deactivate(): void {}
