// `agentToolExecutor.agent.*`: which agent the editor starts, read as VS Code layers the settings
// (a workspace's count only when trusted, `resolveAgentLaunch`). Read by the host that runs the agent
// and, before that host is loaded, by `AgentBridge` to know whether to load it.
import * as vscode from 'vscode';
import { resolveAgentLaunch, type LaunchDecision } from '../../bridge/launch';

export const AGENT_SECTION = 'agentToolExecutor.agent';

export function agentLaunchFromSettings(): LaunchDecision {
  const config = vscode.workspace.getConfiguration(AGENT_SECTION);
  return resolveAgentLaunch(
    { command: config.inspect<string>('command'), args: config.inspect<string[]>('args'), env: config.inspect<Record<string, string>>('env'), cwd: config.inspect<string>('cwd') },
    vscode.workspace.isTrusted,
  );
}

/** A change of the settings that name the agent (not of its trace level). */
export function affectsAgentLaunch(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(AGENT_SECTION) && !event.affectsConfiguration(`${AGENT_SECTION}.trace`);
}
