// A session's modes and config options, as the agent last said them: from session/new, load or resume,
// changed by our session/set_mode and session/set_config_option and by the agent's current_mode_update and
// config_option_update. What a quick pick lists, and what the reply's header names. No vscode import.
import type { Acp } from '../sdk';

export interface SessionSettings {
  readonly modes?: Acp.SessionModeState;
  readonly configOptions: readonly Acp.SessionConfigOption[];
}

/** One thing the user may choose: a mode, or a value of a config option. */
export interface SettingChoice {
  readonly label: string;
  readonly description?: string;
  /** What it belongs to (`Mode`, the option's name), for the quick pick's separators. */
  readonly group: string;
  /** It is what the session has now. */
  readonly current: boolean;
  readonly change: { readonly kind: 'mode'; readonly modeId: string } | { readonly kind: 'config'; readonly configId: string; readonly value: string | boolean };
}

const NONE: SessionSettings = { configOptions: [] };

/** Per session of a connection. */
export class SessionSettingsStore {
  private readonly sessions = new Map<string, SessionSettings>();

  /** What session/new, load or resume answered. */
  opened(sessionId: string, answer: { readonly modes?: Acp.SessionModeState | null; readonly configOptions?: readonly Acp.SessionConfigOption[] | null }): void {
    this.sessions.set(sessionId, { ...(answer.modes ? { modes: answer.modes } : {}), configOptions: answer.configOptions ?? [] });
  }

  get(sessionId: string): SessionSettings {
    return this.sessions.get(sessionId) ?? NONE;
  }

  /** The mode is now `modeId` (the agent answered our set_mode, or said so itself). */
  modeIs(sessionId: string, modeId: string): void {
    const settings = this.get(sessionId);
    if (settings.modes) this.sessions.set(sessionId, { ...settings, modes: { ...settings.modes, currentModeId: modeId } });
  }

  /** The config options are now these (each answer and update carries the whole set). */
  optionsAre(sessionId: string, configOptions: readonly Acp.SessionConfigOption[]): void {
    this.sessions.set(sessionId, { ...this.get(sessionId), configOptions });
  }

  /** A session update: true when it changed the settings. */
  apply(sessionId: string, update: Acp.SessionUpdate): boolean {
    if (update.sessionUpdate === 'current_mode_update') this.modeIs(sessionId, update.currentModeId);
    else if (update.sessionUpdate === 'config_option_update') this.optionsAre(sessionId, update.configOptions);
    else return false;
    return true;
  }

  drop(sessionId: string): void {
    this.sessions.delete(sessionId);
  }
}

/** The current mode's name: the modes' own, else a config option of the `mode` category. */
export function currentModeName(settings: SessionSettings): string | undefined {
  const modes = settings.modes;
  if (modes) return modes.availableModes.find((mode) => mode.id === modes.currentModeId)?.name ?? modes.currentModeId;
  const option = settings.configOptions.find((candidate) => candidate.category === 'mode' && candidate.type === 'select');
  return option ? valueName(option) : undefined;
}

/** Every choice the session offers, modes first, then each option's values in the agent's order. */
export function settingChoices(settings: SessionSettings): SettingChoice[] {
  const choices: SettingChoice[] = [];
  const modes = settings.modes;
  for (const mode of modes?.availableModes ?? []) {
    choices.push({ label: mode.name, ...(mode.description ? { description: mode.description } : {}), group: 'Mode', current: mode.id === modes!.currentModeId, change: { kind: 'mode', modeId: mode.id } });
  }
  for (const option of settings.configOptions) {
    if (option.type === 'boolean') {
      for (const value of [true, false]) choices.push({ label: `${option.name}: ${value ? 'on' : 'off'}`, group: option.name, current: option.currentValue === value, change: { kind: 'config', configId: option.id, value } });
    } else if (option.type === 'select') {
      for (const value of selectValues(option)) {
        choices.push({ label: value.name, ...(value.description ? { description: value.description } : {}), group: option.name, current: option.currentValue === value.value, change: { kind: 'config', configId: option.id, value: value.value } });
      }
    }
  }
  return choices;
}

/**
 * The choice `/mode WORDS` names: a mode by id or name, or `OPTION VALUE` / `OPTION=VALUE` by the option's and
 * value's ids or names (case does not matter); undefined when nothing matches.
 */
export function findChoice(settings: SessionSettings, words: string): SettingChoice | undefined {
  const wanted = normalize(words);
  const choices = settingChoices(settings);
  const modes = choices.filter((choice) => choice.change.kind === 'mode');
  const mode = modes.find((choice) => choice.change.kind === 'mode' && (normalize(choice.change.modeId) === wanted || normalize(choice.label) === wanted));
  if (mode) return mode;
  for (const option of settings.configOptions) {
    for (const name of [option.id, option.name].map(normalize)) {
      if (!wanted.startsWith(`${name} `) && !wanted.startsWith(`${name}=`)) continue;
      const value = wanted.slice(name.length + 1).trim();
      const found = choices.find((choice) => choice.change.kind === 'config' && choice.change.configId === option.id && valueMatches(option, choice.change.value, value));
      if (found) return found;
    }
  }
  return undefined;
}

/** The option's current value as a person reads it. */
export function valueName(option: Acp.SessionConfigOption): string {
  if (option.type === 'boolean') return option.currentValue ? 'on' : 'off';
  if (option.type !== 'select') return String((option as { currentValue?: unknown }).currentValue ?? '');
  return selectValues(option).find((value) => value.value === option.currentValue)?.name ?? String(option.currentValue);
}

function selectValues(option: Acp.SessionConfigOption & { type: 'select' }): Acp.SessionConfigSelectOption[] {
  return option.options.flatMap((entry) => ('group' in entry ? entry.options : [entry as Acp.SessionConfigSelectOption]));
}

function valueMatches(option: Acp.SessionConfigOption, value: string | boolean, wanted: string): boolean {
  if (typeof value === 'boolean') return (value ? ['on', 'true', 'yes'] : ['off', 'false', 'no']).includes(wanted);
  if (option.type !== 'select') return false;
  const entry = selectValues(option).find((candidate) => candidate.value === value);
  return normalize(value) === wanted || (entry !== undefined && normalize(entry.name) === wanted);
}

function normalize(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ');
}
