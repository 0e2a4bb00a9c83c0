// Registers an implementation for each of our tools declared in `contributes.languageModelTools`
// (VS Code refuses an implementation for a tool no extension declared).
import * as vscode from 'vscode';
import type { Logger } from '../../executor';
import { ExecutorLanguageModelTool, type LmToolHost } from './executorLmTool';
import { lmToolNameOf } from './toolNames';

/**
 * `declared`: the manifest's `contributes.languageModelTools`. Each is registered now; the registry's tool behind
 * it is looked up when it is first prepared or invoked, so registering starts no executor.
 */
export function registerOwnLanguageModelTools(host: LmToolHost, declared: readonly { readonly name: string }[], logger: Logger): vscode.Disposable {
  let byLmName: Map<string, string> | undefined;
  const tools = new Map<string, ExecutorLanguageModelTool>();
  const toolFor = (name: string): ExecutorLanguageModelTool => {
    let tool = tools.get(name);
    if (tool) return tool;
    byLmName ??= new Map(host.executor.registry.names().map((registryName) => [lmToolNameOf(registryName), registryName]));
    const toolName = byLmName.get(name);
    if (!toolName) {
      logger.warn('lmTools.declared_without_tool', { name });
      throw new Error(`Agent Tool Executor declares the tool ${name} but has no tool behind it.`);
    }
    tools.set(name, (tool = new ExecutorLanguageModelTool(toolName, host)));
    return tool;
  };
  const registrations = declared.map(({ name }) =>
    vscode.lm.registerTool<object>(name, {
      prepareInvocation: (options) => toolFor(name).prepareInvocation(options),
      invoke: (options, token) => toolFor(name).invoke(options, token),
    }),
  );
  logger.info('lmTools.registered', { count: registrations.length });
  return vscode.Disposable.from(...registrations);
}

/** The manifest's declarations, tolerating a manifest without any. */
export function declaredLanguageModelTools(packageJSON: unknown): { readonly name: string }[] {
  const tools = (packageJSON as { contributes?: { languageModelTools?: unknown } } | undefined)?.contributes?.languageModelTools;
  return Array.isArray(tools) ? tools.filter((tool): tool is { name: string } => typeof tool?.name === 'string') : [];
}
