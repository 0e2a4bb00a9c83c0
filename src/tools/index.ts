// The built-in tools (issue 6), one file each, created by one factory and registered through the registry.
import type { ToolDefinition } from '../executor/contract';
import type { ToolRegistry } from '../executor/registry';
import { BackgroundShells } from './backgroundShells';
import { createBashTool } from './bash';
import { createBashOutputTool } from './bashOutput';
import { createEditTool } from './edit';
import { createGlobTool } from './glob';
import { createGrepTool } from './grep';
import { createKillBashTool } from './killBash';
import type { BuiltinToolsOptions } from './options';
import { defaultProcessSupervisor, type ProcessSupervisor } from './processTree';
import { createReadTool } from './read';
import { createTodoWriteTool, TodoStore } from './todoWrite';
import { createWebFetchTool } from './webFetch';
import { createWriteTool } from './write';

export { findRipgrep, findVsCodeRipgrep } from './ripgrep';
export { TodoStore, type Todo } from './todoWrite';
export { ProcessSupervisor, defaultProcessSupervisor } from './processTree';
export type { BackgroundTaskHost, BuiltinToolsOptions, WebFetchOptions } from './options';

/** Every built-in tool, in the order they are offered to the model. */
export function createBuiltinTools(options: BuiltinToolsOptions = {}): ToolDefinition[] {
  const supervisor: ProcessSupervisor = options.supervisor ?? defaultProcessSupervisor;
  const background = options.backgroundTasks ? new BackgroundShells(options.backgroundTasks) : undefined;
  return [
    createReadTool({ localFiles: options.localFiles }),
    createWriteTool(),
    createEditTool(),
    createGlobTool(),
    createGrepTool({ rgPath: options.rgPath }),
    createBashTool({ options, supervisor, background }),
    createWebFetchTool(options.fetch),
    createTodoWriteTool(options.todos ?? new TodoStore()),
    createBashOutputTool(background),
    createKillBashTool(background),
  ];
}

/** Registers the built-in tools; returns a function that unregisters them all. */
export function registerBuiltinTools(registry: ToolRegistry, options: BuiltinToolsOptions = {}): () => void {
  const unregister = createBuiltinTools(options).map((tool) => registry.register(tool));
  return () => unregister.forEach((undo) => undo());
}
