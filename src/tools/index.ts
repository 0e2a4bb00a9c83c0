// The built-in tools (issue 6), one file each, created by one factory and registered through the registry.
import type { ToolDefinition } from '../executor/contract';
import type { ToolRegistry } from '../executor/registry';
import { createEditTool } from './edit';
import type { BuiltinToolsOptions } from './options';
import { createReadTool } from './read';
import { createWriteTool } from './write';

export type { BackgroundTaskHost, BuiltinToolsOptions, WebFetchOptions } from './options';
export { buildFileDiffDisplay } from './fileDiff';

/** Every built-in tool, in the order they are offered to the model. */
export function createBuiltinTools(options: BuiltinToolsOptions = {}): ToolDefinition[] {
  void options;
  return [createReadTool(), createWriteTool(), createEditTool()];
}

/** Registers the built-in tools; returns a function that unregisters them all. */
export function registerBuiltinTools(registry: ToolRegistry, options: BuiltinToolsOptions = {}): () => void {
  const unregister = createBuiltinTools(options).map((tool) => registry.register(tool));
  return () => unregister.forEach((undo) => undo());
}
