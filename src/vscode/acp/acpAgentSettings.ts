// `agentToolExecutor.acp.agents` (the ACP agents one may run) and `agentToolExecutor.chat.agent` (who takes
// `@executor` prompts). A workspace's list of agents counts only in a trusted workspace: a folder one opens
// must not name a program to run.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
// The ESM build: the package's main is a UMD wrapper whose requires a bundler cannot follow.
import { parse as parseJsonc } from 'jsonc-parser/lib/esm/main.js';
import * as vscode from 'vscode';
import type { AcpLaunch } from '../../acp/connection';
import { acpMcpServers, type SkippedServer } from '../../acp/mcpServers';
import type { Acp } from '../../acp/sdk';

const SECTION = 'agentToolExecutor';
/** `chat.agent` values that are not an ACP agent's name. */
export const BUILTIN_AGENT = 'builtin';
export const BRIDGE_AGENT = 'bridge';

/** The configured agents that may run here (user settings always; the workspace's when trusted). */
export function configuredAcpAgents(): { agents: AcpLaunch[]; ignored?: string } {
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect<unknown[]>('acp.agents');
  const fromUser = [...asList(inspected?.globalValue)];
  const fromWorkspace = [...asList(inspected?.workspaceValue), ...asList(inspected?.workspaceFolderValue)];
  const trusted = vscode.workspace.isTrusted;
  const chosen = trusted && fromWorkspace.length > 0 ? fromWorkspace : fromUser;
  const agents = chosen.map(launchOf).filter((agent): agent is AcpLaunch => agent !== undefined);
  return !trusted && fromWorkspace.length > 0 ? { agents, ignored: 'the workspace names ACP agents, but it is not trusted' } : { agents };
}

/** Who takes prompts: '' (the bridge agent when configured, else the built-in loop), 'builtin', 'bridge' or an ACP agent's name. */
export function chosenAgentSetting(): string {
  return vscode.workspace.getConfiguration(SECTION).get<string>('chat.agent') ?? '';
}

/**
 * The MCP servers an agent is given at session/new: `.vscode/mcp.json`'s and the `mcp.servers` setting's, in a
 * trusted workspace only (a folder one opens must not name programs for the agent to start).
 */
export async function workspaceMcpServers(folder: string | undefined, capabilities: Acp.McpCapabilities | null | undefined): Promise<{ servers: Acp.McpServer[]; skipped: SkippedServer[] }> {
  if (!vscode.workspace.isTrusted) return { servers: [], skipped: [] };
  const setting = vscode.workspace.getConfiguration('mcp').get<unknown>('servers');
  let fromFile: unknown;
  if (folder) {
    const text = await readFile(join(folder, '.vscode', 'mcp.json'), 'utf8').catch(() => undefined);
    fromFile = text === undefined ? undefined : (parseJsonc(text) as { servers?: unknown } | undefined)?.servers;
  }
  return acpMcpServers([setting, fromFile], { workspaceFolder: folder, capabilities });
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function launchOf(value: unknown): AcpLaunch | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const entry = value as Record<string, unknown>;
  if (typeof entry.name !== 'string' || entry.name === '' || typeof entry.command !== 'string' || entry.command === '') return undefined;
  const args = Array.isArray(entry.args) ? entry.args.filter((arg): arg is string => typeof arg === 'string') : [];
  const env = entry.env && typeof entry.env === 'object' ? Object.fromEntries(Object.entries(entry.env).filter(([, v]) => typeof v === 'string')) as Record<string, string> : undefined;
  const cwd = typeof entry.cwd === 'string' && entry.cwd !== '' ? entry.cwd : undefined;
  return { name: entry.name, command: entry.command, args, ...(env ? { env } : {}), ...(cwd ? { cwd } : {}) };
}
