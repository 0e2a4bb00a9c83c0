// Loading `--tools MODULE`: an ES module whose default export is an array of tool definitions.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolDefinition } from '../../executor/contract/contract';
import { UsageError } from '../args';
import { importModule } from './importModule';

export async function loadToolModule(specifier: string, cwd: string): Promise<ToolDefinition[]> {
  const path = resolve(cwd, specifier);
  let module: { default?: unknown };
  try {
    module = (await importModule(pathToFileURL(path).href)) as { default?: unknown };
  } catch (error) {
    throw new UsageError(`cannot load --tools ${specifier}: ${(error as Error).message ?? String(error)}`);
  }
  const tools = module.default;
  if (!Array.isArray(tools)) {
    throw new UsageError(`--tools ${specifier}: the default export must be an array of tool definitions`);
  }
  tools.forEach((tool: unknown, index) => {
    const def = tool as Partial<ToolDefinition> | null;
    if (!def || typeof def !== 'object' || typeof def.name !== 'string' || typeof def.handler !== 'function') {
      throw new UsageError(`--tools ${specifier}: tool ${index} needs a "name" string and a "handler" function`);
    }
    if (!def.inputSchema && !def.jsonSchema) {
      throw new UsageError(`--tools ${specifier}: tool ${def.name} needs an "inputSchema" (zod or JSON Schema)`);
    }
  });
  return tools.map((tool: ToolDefinition) => ({ ...tool, description: tool.description ?? '' }));
}
