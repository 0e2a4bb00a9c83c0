// Settings the executor reads once, when it is built: changing one takes a window reload, and the user
// is told so with a button, instead of the change silently doing nothing. (`maxConcurrency` sizes the
// executor-wide limiter and `defaultTimeoutMs` is copied into the executor's dependencies, both in
// src/executor; neither can be changed from outside today.)
import * as vscode from 'vscode';

export const SETTINGS_NEEDING_RELOAD = ['agentToolExecutor.maxConcurrency', 'agentToolExecutor.defaultTimeoutMs'] as const;

const RELOAD = 'Reload Window';

export function offerReloadOnChange(): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration(async (event) => {
    const changed = SETTINGS_NEEDING_RELOAD.filter((setting) => event.affectsConfiguration(setting));
    if (changed.length === 0) return;
    const answer = await vscode.window.showInformationMessage(`Agent Tool Executor: ${changed.map((setting) => `\`${setting}\``).join(' and ')} take${changed.length === 1 ? 's' : ''} effect after a window reload.`, RELOAD);
    if (answer === RELOAD) await vscode.commands.executeCommand('workbench.action.reloadWindow');
  });
}
