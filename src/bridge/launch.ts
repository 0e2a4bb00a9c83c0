// Which agent the editor starts, from the `agentToolExecutor.agent.*` settings as VS Code layers them.
// A workspace may name an agent (a program that then runs with the user's rights) only when trusted:
// in an untrusted workspace only the user's own settings count.

/** One setting's values per layer, as `WorkspaceConfiguration.inspect` gives them. */
export interface SettingLayers<T> {
  readonly globalValue?: T;
  readonly workspaceValue?: T;
  readonly workspaceFolderValue?: T;
}

export interface AgentSettingLayers {
  readonly command: SettingLayers<string> | undefined;
  readonly args: SettingLayers<readonly string[]> | undefined;
  readonly env: SettingLayers<Readonly<Record<string, string>>> | undefined;
  readonly cwd: SettingLayers<string> | undefined;
}

export interface AgentLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Undefined: the first workspace folder. */
  readonly cwd?: string;
}

export interface LaunchDecision {
  readonly launch?: AgentLaunch;
  /** Said in the log when a workspace's agent settings were ignored. */
  readonly ignored?: string;
}

export function resolveAgentLaunch(layers: AgentSettingLayers, trusted: boolean): LaunchDecision {
  const pick = <T>(setting: SettingLayers<T> | undefined): T | undefined =>
    trusted ? (setting?.workspaceFolderValue ?? setting?.workspaceValue ?? setting?.globalValue) : setting?.globalValue;
  const fromWorkspace = (['command', 'args', 'env', 'cwd'] as const).filter(
    (key) => layers[key]?.workspaceValue !== undefined || layers[key]?.workspaceFolderValue !== undefined,
  );
  const ignored = !trusted && fromWorkspace.length > 0 ? `the workspace sets ${fromWorkspace.map((key) => `agentToolExecutor.agent.${key}`).join(', ')}, ignored until the workspace is trusted` : undefined;
  const command = pick(layers.command)?.trim();
  if (!command) return { ignored };
  const env = pick(layers.env) ?? {};
  return {
    launch: {
      command,
      args: (pick(layers.args) ?? []).filter((arg): arg is string => typeof arg === 'string'),
      env: Object.fromEntries(Object.entries(env).filter(([, value]) => typeof value === 'string')),
      cwd: pick(layers.cwd) || undefined,
    },
    ignored,
  };
}
