// The Node adapters `tool-exec run` wires into the executor, and how they are closed at the end.
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ExecutorOptions } from '../executor';
import type { HookSource } from '../executor';
import type { Logger } from '../executor';
import type { PermissionMode } from '../executor';
import { createPolicyFromSettings } from '../executor';
import { AgentIgnoreFiles } from '../node/settings/agentIgnore';
import { createRedactor } from '../executor';
import { redactingLogger } from '../executor';
import { NodeArtifactStore } from '../node/artifacts/nodeArtifactStore';
import { commandHookSource } from '../node/hooks/commandHooks';
import { JsonlSessionRecorder } from '../node/sessionRecord/jsonlSessionRecorder';
import { keyPath, valueLocation } from '../node/settings/jsonLocation';
import { loadSettingsFile } from '../node/settings/settingsFile';
import { createNodeSnapshotter } from '../node/snapshot/nodeSnapshotter';
import { BashSandbox } from '../tools/sandbox/bashSandbox';
import { repositoryPaths } from '../tools/sandbox/gitPaths';
import { combineSandboxSettings, parseSandboxSettings, webFetchDomains } from '../tools/sandbox/sandboxSettings';
import { UsageError } from './args';

/** Where the CLI keeps artifacts when `--artifacts` is not given. */
export const DEFAULT_ARTIFACTS_DIR = join(tmpdir(), 'tool-exec', 'artifacts');

export interface CliAdapterOptions {
  readonly sessionId: string;
  readonly workspace: string;
  readonly cwd: string;
  readonly mode?: PermissionMode;
  readonly settingsFile?: string;
  readonly artifactsDir?: string;
  readonly logger: Logger;
}

export interface CliAdapters {
  readonly options: Pick<
    ExecutorOptions,
    'permissionPolicy' | 'hooks' | 'artifactStore' | 'snapshotter' | 'redactor' | 'sessionRecorder' | 'logger' | 'ignored'
  >;
  /** The OS sandbox for Bash, as the settings file's `sandbox` key has it (off without one). */
  readonly sandbox: BashSandbox;
  /** Ends the session: temporary artifacts go, the record is flushed, the watcher stops. */
  close(): Promise<void>;
}

export async function createCliAdapters(options: CliAdapterOptions): Promise<CliAdapters> {
  const redactor = createRedactor({ env: process.env });
  const logger = redactingLogger(options.logger, redactor);
  let settings: Record<string, unknown> | undefined;
  let settingsPath: string | undefined;
  let settingsText: string | undefined;
  if (options.settingsFile !== undefined) {
    settingsPath = resolve(options.cwd, options.settingsFile);
    const loaded = await loadSettingsFile(settingsPath);
    if (!loaded.ok) throw new UsageError(`--settings: ${loaded.error}; nothing was run`);
    settings = loaded.settings;
    settingsText = loaded.text;
  }
  // Agents' ignore files at the workspace's root (.aiignore, …), honoured by every tool and command check.
  const ignored = new AgentIgnoreFiles(() => [options.workspace]);
  // The settings file is the user's own (trusted); the CLI has no workspace-trust prompt.
  const permissionPolicy = createPolicyFromSettings({
    ignored,
    gitPaths: await repositoryPaths(options.workspace, homedir()),
    user: settings,
    mode: options.mode,
    workspaceTrusted: true,
    workspaceFolders: [options.workspace],
    origins: { user: settingsPath },
  });
  const sandboxSettings = parseSandboxSettings(settings, settingsPath ?? 'settings');
  // Only a file of the wrong shape is refused (as Claude Code does); a rule that cannot be read is a warning.
  const fatal = [...permissionPolicy.problems.filter((problem) => !permissionPolicy.notices.includes(problem)), ...sandboxSettings.problems];
  if (fatal.length > 0) {
    const listed = fatal.map((problem) => `\n  ${withLocation(problem, settingsText)}`).join('');
    throw new UsageError(`--settings: ${fatal.length} problem${fatal.length === 1 ? '' : 's'} in ${settingsPath}; nothing was run:${listed}`);
  }
  // Said once, as a line of its own on stderr (the log would say it a second time).
  for (const notice of permissionPolicy.notices) process.stderr.write(`tool-exec: warning: ${notice}\n`);
  // The OS sandbox: started and checked now, before any command; where it cannot run, said once.
  const sandbox = new BashSandbox({ onUnavailable: (message) => process.stderr.write(`tool-exec: ${message}\n`) });
  const allowRules = permissionPolicy.allRules.filter((rule) => rule.behavior === 'allow').map((rule) => rule.text);
  await sandbox.configure(combineSandboxSettings(sandboxSettings.settings, {}, true).settings, {
    folders: [options.workspace],
    ignoreFiles: ignored.names(),
    webFetchDomains: webFetchDomains(allowRules),
  });
  permissionPolicy.sandboxed = (request) => sandbox.autoAllows(request);
  const hooks: HookSource | undefined = settings?.hooks === undefined ? undefined : commandHookSource(settings.hooks, logger);
  const artifactsDir = resolve(options.cwd, options.artifactsDir ?? DEFAULT_ARTIFACTS_DIR);
  const artifactStore = new NodeArtifactStore({ artifactsDir });
  // `session` artifacts of earlier runs older than the retention age go now, not only under the size cap.
  await artifactStore.prune(options.sessionId).catch((error: unknown) => logger.warn('artifacts.prune_failed', { error: String(error) }));
  const snapshotter = createNodeSnapshotter({ logger });
  // The watcher's first scan starts now, while the batch is read and scheduled.
  snapshotter.warmUp([options.workspace]);
  const sessionRecorder = new JsonlSessionRecorder({ dir: join(artifactsDir, 'sessions'), sessionId: options.sessionId, workspaceFolders: [options.workspace] });
  return {
    options: { permissionPolicy, hooks, artifactStore, snapshotter, redactor, sessionRecorder, logger, ignored },
    sandbox,
    close: async () => {
      await sandbox.dispose();
      await sessionRecorder.close();
      await artifactStore.endSession(options.sessionId);
      await snapshotter.dispose();
    },
  };
}

/** `…: permissions.allow must be an array…` → the same, with the line and column of that key. */
function withLocation(problem: string, text: string | undefined): string {
  const key = /: ((?:permissions|sandbox|hooks)(?:\.[A-Za-z]+|\[\d+\])*)/.exec(problem)?.[1];
  const at = text !== undefined && key !== undefined ? valueLocation(text, keyPath(key)) : undefined;
  return at ? `line ${at.line}, column ${at.column}: ${problem}` : problem;
}
