// Registers an implementation for each of our tools declared in `contributes.languageModelTools`
// (VS Code refuses an implementation for a tool no extension declared).
import * as vscode from 'vscode';
import type { Logger } from '../../executor/ports/logger';
import { ExecutorLanguageModelTool, type LmToolHost } from './executorLmTool';
import { lmToolNameOf } from './toolNames';

/** `declared`: the manifest's `contributes.languageModelTools`. */
export function registerOwnLanguageModelTools(host: LmToolHost, declared: readonly { readonly name: string }[], logger: Logger): vscode.Disposable {
  const byLmName = new Map(host.executor.registry.names().map((name) => [lmToolNameOf(name), name]));
  const registrations: vscode.Disposable[] = [];
  for (const { name } of declared) {
    const toolName = byLmName.get(name);
    if (!toolName) {
      logger.warn('lmTools.declared_without_tool', { name });
      continue;
    }
    registrations.push(vscode.lm.registerTool(name, new ExecutorLanguageModelTool(toolName, host)));
  }
  logger.info('lmTools.registered', { count: registrations.length });
  return vscode.Disposable.from(...registrations);
}

/** The manifest's declarations, tolerating a manifest without any. */
export function declaredLanguageModelTools(packageJSON: unknown): { readonly name: string }[] {
  const tools = (packageJSON as { contributes?: { languageModelTools?: unknown } } | undefined)?.contributes?.languageModelTools;
  return Array.isArray(tools) ? tools.filter((tool): tool is { name: string } => typeof tool?.name === 'string') : [];
}
