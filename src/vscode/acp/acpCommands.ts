// The commands for ACP agents' sessions: Choose ACP Agent Mode… (its modes and config options) and Continue
// an Earlier ACP Session… (its session/list). Each works on the agent that takes `@executor` prompts, else
// the one the user picks; each says what came of it and returns that text (the tests read it).
import * as vscode from 'vscode';
import type { AcpAgents } from './acpAgents';
import type { AcpAsk } from './acpAsk';
import { pickSetting } from './acpModes';

export const CHOOSE_MODE_COMMAND = 'agentToolExecutor.acp.chooseMode';
export const CONTINUE_SESSION_COMMAND = 'agentToolExecutor.acp.continueSession';

export interface AcpCommandHost {
  readonly agents: AcpAgents;
  readonly ask: AcpAsk;
  /** The ACP agent that takes prompts now, if one does. */
  routed(): string | undefined;
}

export function registerAcpCommands(host: AcpCommandHost): vscode.Disposable {
  const run = (work: (name: string, signal: AbortSignal) => Promise<string>) => async (name?: unknown) => {
    const controller = new AbortController();
    const agent = typeof name === 'string' && name !== '' ? name : await whichAgent(host, controller.signal);
    if (!agent) return undefined;
    try {
      const said = await work(agent, controller.signal);
      void vscode.window.showInformationMessage(said);
      return said;
    } catch (error) {
      const said = `The ACP agent ${agent}: ${error instanceof Error ? error.message : String(error)}`;
      void vscode.window.showErrorMessage(said);
      return said;
    }
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand(CHOOSE_MODE_COMMAND, run((name, signal) => pickSetting(host.agents, host.ask, name, signal))),
    vscode.commands.registerCommand(CONTINUE_SESSION_COMMAND, run((name, signal) => host.agents.continueSession(name, signal))),
  );
}

async function whichAgent(host: AcpCommandHost, signal: AbortSignal): Promise<string | undefined> {
  const routed = host.routed();
  if (routed) return routed;
  const names = host.agents.names();
  if (names.length === 0) {
    void vscode.window.showInformationMessage('No ACP agents are configured: add one to agentToolExecutor.acp.agents.');
    return undefined;
  }
  return names.length === 1 ? names[0] : host.ask.pick('Which ACP agent?', names.map((name) => ({ label: name, value: name })), signal);
}
