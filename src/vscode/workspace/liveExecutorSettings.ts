// `agentToolExecutor.maxConcurrency` and `defaultTimeoutMs` apply as soon as they change: the limiter
// takes the new number at once, the timeout applies to turns that begin afterwards.
import * as vscode from 'vscode';
import type { ToolExecutor } from '../../executor/executor';

const SECTION = 'agentToolExecutor';

export function applyExecutorSettingsLive(executor: ToolExecutor): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    const config = vscode.workspace.getConfiguration(SECTION);
    const concurrency = event.affectsConfiguration(`${SECTION}.maxConcurrency`) ? config.get<number>('maxConcurrency') : undefined;
    const timeout = event.affectsConfiguration(`${SECTION}.defaultTimeoutMs`) ? config.get<number>('defaultTimeoutMs') : undefined;
    if (concurrency === undefined && timeout === undefined) return;
    executor.configure({ maxConcurrency: validOrUndefined(concurrency), defaultTimeoutMs: validOrUndefined(timeout) });
  });
}

/** A setting VS Code could not validate (hand-edited JSON) is ignored, never applied as 0 or NaN. */
function validOrUndefined(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.floor(value) : undefined;
}
