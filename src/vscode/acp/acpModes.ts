// An ACP agent's modes and config options in VS Code: a quick pick (the Choose ACP Agent Mode command),
// `/mode` while the agent takes `@executor` prompts, and the current mode in each reply's header. A choice is
// sent as session/set_mode or session/set_config_option; what the session has is what the agent last said
// (src/acp/session/settings.ts), so its own current_mode_update shows in the next header too.
import type * as vscode from 'vscode';
import type { AcpAgentConnection } from '../../acp/connection';
import { currentModeName, findChoice, settingChoices, valueName, type SessionSettings, type SettingChoice } from '../../acp/session/settings';
import { escapeMarkdown } from '../chat/replyText';
import type { AcpAgents, RunningAgent } from './acpAgents';
import type { AcpAsk } from './acpAsk';

/** The reply's header line: the agent's current mode, when it has modes. */
export function modeHeader(agent: string, settings: SessionSettings): string | undefined {
  const mode = currentModeName(settings);
  return mode === undefined ? undefined : `*${escapeMarkdown(agent)} · mode:* **${escapeMarkdown(mode)}**\n\n`;
}

/** What the reply says when the agent changes its own mode mid-turn. */
export function modeChangedText(settings: SessionSettings): string {
  return `\n\n*The agent switched to mode **${escapeMarkdown(currentModeName(settings) ?? '?')}**.*\n\n`;
}

/** Sends the choice and says what the session has now. */
export async function applyChoice(connection: AcpAgentConnection, sessionId: string, choice: SettingChoice, signal?: AbortSignal): Promise<string> {
  if (choice.change.kind === 'mode') await connection.setMode(sessionId, choice.change.modeId, signal);
  else await connection.setConfigOption(sessionId, choice.change.configId, choice.change.value, signal);
  return describe(connection.settings.get(sessionId));
}

/** The quick pick of the agent's modes and option values; the chosen one is sent. */
export async function pickSetting(agents: AcpAgents, ask: AcpAsk, name: string, signal: AbortSignal): Promise<string> {
  const agent = await agents.ready(name, signal);
  if (typeof agent === 'string') return agent;
  const settings = agent.connection.settings.get(agent.sessionId);
  const choices = settingChoices(settings);
  if (choices.length === 0) return `The ACP agent ${name} offers no modes or options.`;
  const chosen = await ask.pick(
    `Mode and options of the ACP agent ${name}`,
    choices.map((choice, index) => ({ label: choice.label, description: choice.current ? `current${choice.description ? ` · ${choice.description}` : ''}` : choice.description, picked: choice.current, ...(index === 0 || choices[index - 1]!.group !== choice.group ? { group: choice.group } : {}), value: choice })),
    signal,
  );
  if (!chosen) return describe(settings);
  return applyChoice(agent.connection, agent.sessionId, chosen, signal);
}

/**
 * `/mode` while an ACP agent takes prompts: without words, its modes and options; with words naming one of
 * them, that choice. Words that name none of the agent's go to `otherwise` (our own permission mode).
 */
export async function modeCommand(agent: RunningAgent, name: string, words: string, stream: vscode.ChatResponseStream, otherwise: () => Promise<vscode.ChatResult>, signal: AbortSignal): Promise<vscode.ChatResult> {
  const settings = agent.connection.settings.get(agent.sessionId);
  if (words.trim() === '') {
    stream.markdown(listText(name, settings));
    return { metadata: { acp: name } };
  }
  const choice = findChoice(settings, words);
  if (!choice) return otherwise();
  try {
    stream.markdown(`${escapeMarkdown(await applyChoice(agent.connection, agent.sessionId, choice, signal))}`);
    return { metadata: { acp: name } };
  } catch (error) {
    return { errorDetails: { message: `The ACP agent ${name} did not take ${JSON.stringify(words.trim())}: ${error instanceof Error ? error.message : String(error)}` } };
  }
}

function describe(settings: SessionSettings): string {
  const parts = [currentModeName(settings) !== undefined && settings.modes ? `mode ${currentModeName(settings)}` : undefined, ...settings.configOptions.map((option) => `${option.name}: ${valueName(option)}`)];
  return `Now: ${parts.filter((part) => part !== undefined).join(', ') || 'nothing to show'}.`;
}

function listText(name: string, settings: SessionSettings): string {
  const choices = settingChoices(settings);
  if (choices.length === 0) return `The ACP agent **${escapeMarkdown(name)}** offers no modes or options; \`/mode\` with a permission mode (\`/mode default\`, …) switches ours.`;
  const lines: string[] = [];
  let group: string | undefined;
  for (const choice of choices) {
    if (choice.group !== group) lines.push(`\n**${escapeMarkdown((group = choice.group))}**`);
    lines.push(`- ${choice.current ? '**' : ''}${escapeMarkdown(choice.label)}${choice.current ? '** (current)' : ''}${choice.description ? ` — ${escapeMarkdown(choice.description)}` : ''}`);
  }
  return `Modes and options of the ACP agent **${escapeMarkdown(name)}** — \`/mode NAME\` switches the mode, \`/mode OPTION VALUE\` sets an option, the Choose ACP Agent Mode command picks from a list; words that name none of these switch our permission mode:\n${lines.join('\n')}`;
}
