// The documentation's lists of the built-in tools, made from their definitions, so a tool is described in
// one place: README.md's table (input, flags, scheduling) and docs/PROTOCOL.md's sample tool list.
// `node scripts/gen-lm-tools.mjs` writes them; test/unit/tools/readme.test.ts fails when they differ.
import type { JsonSchema, ToolDefinition } from '../executor';
import { canRunInParallel, dependencyOf, flagsOf, ToolRegistry } from '../executor';
import { createBuiltinTools, ProcessSupervisor } from './index';
import { PATH_ALIAS_DESCRIPTION } from './fileAccess/toolPaths';

/** Where README.md's generated table starts and ends; the lines between them are replaced. */
export const TOOL_TABLE_START = '<!-- generated from the tools\' definitions by node scripts/gen-lm-tools.mjs: do not edit -->';
export const TOOL_TABLE_END = '<!-- end of generated tool table -->';

/** The line of docs/PROTOCOL.md's sample session where the reference agent lists the tools it was offered. */
const TOOL_LIST_LINE = /I can use \d+ tools: [^\n]*\./;

/** The built-in tools' definitions, for docs: nothing runs, so a supervisor of their own that never starts a process. */
function describedTools(): ToolDefinition[] {
  return createBuiltinTools({ supervisor: new ProcessSupervisor() });
}

/** README.md's table of the built-in tools: one row each, in the order the model is offered them. */
export function toolTable(tools: readonly ToolDefinition[] = describedTools()): string {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  const rows = tools.map((tool) => {
    const schema = registry.describe([tool.name])[0]!.inputSchema;
    const parallel = canRunInParallel(dependencyOf({ id: '', name: tool.name, input: {} }, registry));
    return `| ${tool.name} | \`${inputSummary(schema)}\` | ${flagCells(tool)} | ${parallel ? 'parallel' : 'serial'} |`;
  });
  return ['| tool | input | `readOnly` · `concurrentSafe` · scope | scheduled |', '|---|---|---|---|', ...rows].join('\n');
}

/** The reference agent's line listing the tools a `tool-exec serve` offers: every built-in tool, by name. */
export function toolListLine(tools: readonly ToolDefinition[] = describedTools()): string {
  const names = tools.map((tool) => tool.name).sort();
  return `I can use ${names.length} tools: ${names.join(', ')}.`;
}

/** README.md with its tool table made anew; throws when the markers are missing. */
export function withToolTable(readme: string, tools?: readonly ToolDefinition[]): string {
  const start = readme.indexOf(TOOL_TABLE_START);
  const end = readme.indexOf(TOOL_TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md has no generated tool table (${TOOL_TABLE_START} … ${TOOL_TABLE_END})`);
  return `${readme.slice(0, start + TOOL_TABLE_START.length)}\n${toolTable(tools)}\n${readme.slice(end)}`;
}

/** docs/PROTOCOL.md with its sample tool list made anew; throws when the line is missing. */
export function withToolList(protocol: string, tools?: readonly ToolDefinition[]): string {
  if (!TOOL_LIST_LINE.test(protocol)) throw new Error('docs/PROTOCOL.md has no "I can use N tools: …" line');
  return protocol.replace(TOOL_LIST_LINE, toolListLine(tools));
}

/** `path, offset?, limit?`: the fields in order, `?` for optional ones, an array of objects as `[{a, b}]`. */
function inputSummary(schema: JsonSchema): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const aliased = new Set(Object.values(properties).map((field) => aliasTarget(field)).filter((name) => name !== undefined));
  return Object.entries(properties)
    .filter(([, field]) => aliasTarget(field) === undefined)
    // A field with an alias is required in effect: one of the two must be given.
    .map(([name, field]) => `${name}${required.has(name) || aliased.has(name) ? '' : '?'}${nested(field)}`)
    .join(', ');
}

/** `path` for the `file_path` field that `resolveInput` reads as `path`. */
function aliasTarget(field: JsonSchema): string | undefined {
  return field.description === PATH_ALIAS_DESCRIPTION ? 'path' : undefined;
}

function nested(field: JsonSchema): string {
  const items = field.items as JsonSchema | undefined;
  return field.type === 'array' && items?.type === 'object' ? `: [{${inputSummary(items)}}]` : '';
}

/** `yes · unset · \`session\``: the declared flags, as the scheduler reads them (spec §1, §2). */
function flagCells(tool: ToolDefinition): string {
  const concurrentSafe = tool.concurrentSafe === undefined ? 'unset' : tool.concurrentSafe ? 'yes' : 'no';
  return `${tool.readOnly === true ? 'yes' : 'no'} · ${concurrentSafe} · \`${flagsOf(tool).sideEffectScope}\``;
}
