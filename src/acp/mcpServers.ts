// The workspace's MCP server definitions (VS Code's `.vscode/mcp.json` and `mcp.servers` settings) as ACP's
// `mcpServers` for session/new. No vscode import: the host reads the files and settings, this turns them into
// what the agent takes. A server the agent cannot reach (http or sse it did not declare), or whose values
// name a variable only VS Code can fill in (`${input:…}`, `${env:…}`), is left out and said why.
import type { Acp } from './sdk';

/** One server left out, and why (for the log). */
export interface SkippedServer {
  readonly name: string;
  readonly why: string;
}

export interface McpServerOptions {
  /** `${workspaceFolder}` in a definition's values. */
  readonly workspaceFolder?: string;
  /** What the agent said it takes in `initialize` (stdio always). */
  readonly capabilities?: Acp.McpCapabilities | null;
}

/** `definitions`: `servers` of mcp.json or the `mcp.servers` setting, name → definition; later sources win. */
export function acpMcpServers(sources: readonly unknown[], options: McpServerOptions = {}): { servers: Acp.McpServer[]; skipped: SkippedServer[] } {
  const byName = new Map<string, unknown>();
  for (const source of sources) {
    if (!source || typeof source !== 'object' || Array.isArray(source)) continue;
    for (const [name, definition] of Object.entries(source)) byName.set(name, definition);
  }
  const servers: Acp.McpServer[] = [];
  const skipped: SkippedServer[] = [];
  for (const [name, definition] of byName) {
    const server = serverOf(name, definition, options);
    if (typeof server === 'string') skipped.push({ name, why: server });
    else servers.push(server);
  }
  return { servers, skipped };
}

function serverOf(name: string, definition: unknown, options: McpServerOptions): Acp.McpServer | string {
  if (!definition || typeof definition !== 'object' || Array.isArray(definition)) return 'its definition is not an object';
  const fields = definition as Record<string, unknown>;
  const unfilled: string[] = [];
  const fill = (value: string) =>
    value.replace(/\$\{([^}]*)\}/g, (whole, variable: string) => {
      if (variable === 'workspaceFolder' && options.workspaceFolder) return options.workspaceFolder;
      unfilled.push(whole);
      return whole;
    });
  const pairs = (value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string').map(([key, text]) => ({ name: key, value: fill(text) }))
      : [];
  if (fields.envFile !== undefined) return 'it reads an envFile, which only VS Code reads';
  const type = typeof fields.type === 'string' ? fields.type : typeof fields.url === 'string' ? 'http' : 'stdio';
  let server: Acp.McpServer;
  if (type === 'stdio') {
    if (typeof fields.command !== 'string' || fields.command === '') return 'it names no command';
    const args = Array.isArray(fields.args) ? fields.args.filter((arg): arg is string => typeof arg === 'string').map(fill) : [];
    server = { name, command: fill(fields.command), args, env: pairs(fields.env) };
  } else if (type === 'http' || type === 'sse') {
    if (typeof fields.url !== 'string' || fields.url === '') return 'it names no url';
    if (!options.capabilities?.[type]) return `the agent does not take ${type} MCP servers`;
    server = { type, name, url: fill(fields.url), headers: pairs(fields.headers) };
  } else {
    return `its type ${JSON.stringify(type)} is not stdio, http or sse`;
  }
  if (unfilled.length > 0) return `it uses ${[...new Set(unfilled)].join(', ')}, which only VS Code can fill in`;
  return server;
}
