// The built-in tools, one file each, created by one factory and registered through the registry.
import type { ToolDefinition } from '../executor';
import type { ToolRegistry } from '../executor';
import { BackgroundShells } from './shell/backgroundShells';
import { createBashTool } from './shell/bash';
import { createBashOutputTool } from './shell/bashOutput';
import { createEditTool } from './file/edit';
import { createGlobTool } from './search/glob';
import { createGrepTool } from './search/grep';
import { createKillBashTool } from './shell/killBash';
import type { BuiltinToolsOptions } from './options';
import { defaultProcessSupervisor, type ProcessSupervisor } from './process/processTree';
import { createReadTool } from './file/read';
import { createTodoWriteTool, TodoStore } from './todoWrite';
import { createWebFetchTool } from './web/webFetch';
import { createWriteTool } from './file/write';

export { findRipgrep, findVsCodeRipgrep } from './search/ripgrep';
export { TodoStore, type Todo } from './todoWrite';
export { ProcessSupervisor, defaultProcessSupervisor } from './process/processTree';
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
