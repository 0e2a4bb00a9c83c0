// VS Code adapter: the permission policy and command hooks from the settings a user already has.
// User level: ~/.claude/settings.json plus VS Code user settings; workspace level: the folder's
// .claude/settings*.json plus VS Code workspace settings. Workspace allow rules and hooks count only
// in a trusted workspace. The policy is rebuilt when any of them changes (~/.claude/settings.json
// included, polled: see fileChangeWatch.ts); session approvals stay.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { HookSource } from '../../executor';
import type { IgnoredPaths } from '../../executor';
import type { Logger } from '../../executor';
import type { PermissionDecision, PermissionPolicy, PermissionRequest } from '../../executor';
import { repositoryPaths } from '../../tools/sandbox/gitPaths';
import { createPolicyFromSettings, parsePermissionMode, type PermissionMode, type PermissionRule, type RulesPolicy } from '../../executor';
import { settingsHookSource } from '../../node/hooks/commandHooks';
import { loadStandardSettings, mergeSettings, USER_SETTINGS_FILE, WORKSPACE_SETTINGS_FILES } from '../../node/settings/settingsFile';
import { addAllowRules, removeRule as removeRuleFromFile } from '../../node/settings/settingsRules';
import { watchFileChanges } from '../workspace/fileChangeWatch';
import { applySandboxSettings, type SandboxWiring } from './sandboxConfiguration';

const SECTION = 'agentToolExecutor';
const RULE_KEYS = ['allow', 'ask', 'deny'] as const;

export class SettingsPermissions implements PermissionPolicy, HookSource, vscode.Disposable {
  private policy: RulesPolicy;
  private hooks: HookSource = { hooksFor: () => [] };
  private readonly disposables: vscode.Disposable[] = [];
  private reloading: Promise<void> = Promise.resolve();
  /** Problems already logged and shown in this window. */
  private readonly reported = new Set<string>();
  /** Set by `/mode`: this window's mode, over the settings, until the window closes. */
  private windowMode: PermissionMode | undefined;

  constructor(
    private readonly workspaceFolders: () => readonly string[],
    private readonly logger: Logger,
    /** Agents' ignore files: commands naming what they exclude ask. */
    private readonly ignored?: IgnoredPaths,
    /** The OS sandbox around Bash: configured with the rules at every reload. */
    private readonly sandbox?: SandboxWiring,
  ) {
    this.policy = createPolicyFromSettings({ mode: configuredMode(), workspaceTrusted: vscode.workspace.isTrusted, workspaceFolders: workspaceFolders(), ignored });
    const reload = () => void this.reload();
    const watcher = vscode.workspace.createFileSystemWatcher('**/.claude/settings*.json');
    // Submodules and config includes decide which git files beyond git's names are protected (gitPaths.ts).
    const gitWatcher = vscode.workspace.createFileSystemWatcher('**/{.gitmodules,.git/config}');
    this.disposables.push(
      watcher,
      watcher.onDidChange(reload),
      watcher.onDidCreate(reload),
      watcher.onDidDelete(reload),
      gitWatcher,
      gitWatcher.onDidChange(reload),
      gitWatcher.onDidCreate(reload),
      gitWatcher.onDidDelete(reload),
      // The user's own file lives outside every workspace folder.
      watchFileChanges(join(homedir(), USER_SETTINGS_FILE), reload),
      vscode.workspace.onDidGrantWorkspaceTrust(reload),
      vscode.workspace.onDidChangeWorkspaceFolders(reload),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`${SECTION}.permissions`) || event.affectsConfiguration(`${SECTION}.permissionMode`) || event.affectsConfiguration(`${SECTION}.sandbox`) || event.affectsConfiguration(`${SECTION}.ignoreFiles`)) reload();
      }),
    );
  }

  /** Loads every source again; resolves when the new policy is in force. */
  reload(): Promise<void> {
    this.reloading = this.reloading.then(() => this.load()).catch((error) => this.logger.error('settings.reload_failed', { error: String(error) }));
    return this.reloading;
  }

  evaluate(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision> | PermissionDecision {
    return this.policy.evaluate(request, signal);
  }

  rememberSessionApproval(request: PermissionRequest, signal?: AbortSignal): Promise<void> | void {
    return this.policy.rememberSessionApproval(request, signal);
  }

  get mode(): PermissionMode {
    return this.policy.mode;
  }

  /** Switches this window's mode (over the settings, until the window closes); undefined goes back to the settings. */
  async setWindowMode(mode: PermissionMode | undefined): Promise<void> {
    this.windowMode = mode;
    await this.reload();
  }

  /** The rules in force, for `/tools` and the rules list. */
  get rules(): readonly PermissionRule[] {
    return this.policy.allRules;
  }

  /**
   * "Allow in this workspace": the exact rule of this call goes into the workspace's
   * `.claude/settings.local.json`, and the user is told so. Workspace allow rules count only in a
   * trusted workspace, so it is also kept for this session.
   */
  async rememberWorkspaceApproval(request: PermissionRequest, signal?: AbortSignal, chosen?: readonly string[]): Promise<void> {
    const folder = this.workspaceFolders()[0];
    // `chosen`: the prefix rules the dialog offered and the user picked, kept instead of the exact ones;
    // else the exact rules, only when each text reads back as exactly its rule (lastingRules.ts).
    const texts = chosen?.length ? [...chosen] : await this.policy.workspaceRuleTexts(request, signal);
    if (chosen?.length) for (const text of chosen) this.policy.addRule(text, 'allow', 'session');
    else await this.policy.rememberSessionApproval(request, signal);
    if (!folder) return;
    if (!texts || texts.length === 0) {
      void vscode.window.showInformationMessage('Agent Tool Executor: this approval is kept for this session only: no rule in the settings file would name exactly what it allowed.');
      return;
    }
    const file = await addAllowRules(folder, texts);
    await this.reload();
    const where = vscode.workspace.asRelativePath(file);
    const trust = vscode.workspace.isTrusted ? '' : ' It applies in later sessions once you trust this workspace.';
    void vscode.window.showInformationMessage(`Agent Tool Executor: added ${texts.join(', ')} to ${where}.${trust}`);
  }

  /** Whether "allow in this workspace" can keep exactly this call's rule (offered only then). */
  workspaceApprovalPossible(request: PermissionRequest, signal?: AbortSignal): Promise<boolean> {
    return this.policy.workspaceApprovalPossible(request, signal);
  }

  /** Removes a rule from where it comes from (this session, a settings file, VS Code settings); false when it was not found. */
  async removeRule(rule: PermissionRule): Promise<boolean> {
    let removed = rule.source === 'session' && this.policy.forgetSessionRule(rule.text);
    if (rule.source === 'user' || rule.source === 'workspace') {
      const folder = this.workspaceFolders()[0];
      const files = rule.source === 'user' ? [join(homedir(), USER_SETTINGS_FILE)] : folder ? WORKSPACE_SETTINGS_FILES.map((file) => join(folder, file)) : [];
      for (const file of files) if (await removeRuleFromFile(file, rule.behavior, rule.text)) removed = true;
      const config = vscode.workspace.getConfiguration(SECTION);
      const key = `permissions.${rule.behavior}`;
      const inspected = config.inspect<string[]>(key);
      const level = rule.source === 'user' ? inspected?.globalValue : inspected?.workspaceValue;
      if (level?.includes(rule.text)) {
        await config.update(key, level.filter((text) => text !== rule.text), rule.source === 'user' ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace);
        removed = true;
      }
    }
    await this.reload();
    return removed;
  }

  hooksFor(...args: Parameters<HookSource['hooksFor']>): ReturnType<HookSource['hooksFor']> {
    return this.hooks.hooksFor(...args);
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }

  private async load(): Promise<void> {
    const folders = this.workspaceFolders();
    const files = await loadStandardSettings(folders[0], homedir());
    const config = vscode.workspace.getConfiguration(SECTION);
    const user = combine(files.user, rulesFrom(config.inspect<string[]>('permissions.allow')?.globalValue, config.inspect<string[]>('permissions.ask')?.globalValue, config.inspect<string[]>('permissions.deny')?.globalValue));
    const workspace = combine(
      files.workspace,
      rulesFrom(config.inspect<string[]>('permissions.allow')?.workspaceValue, config.inspect<string[]>('permissions.ask')?.workspaceValue, config.inspect<string[]>('permissions.deny')?.workspaceValue),
    );
    const workspaceTrusted = vscode.workspace.isTrusted;
    const gitPaths = (await Promise.all(folders.map((folder) => repositoryPaths(folder, homedir())))).flat();
    const next = createPolicyFromSettings({ user, workspace, mode: this.windowMode ?? configuredMode(), workspaceTrusted, workspaceFolders: folders, ignored: this.ignored, gitPaths });
    next.adoptSessionRules(this.policy);
    const sandboxProblems = this.sandbox ? await this.configureSandbox(next, files, workspaceTrusted, folders) : [];
    this.policy = next;
    this.hooks = settingsHookSource({ user, workspace, workspaceTrusted }, this.logger);
    const problems = [...files.problems, ...next.problems.map(String), ...sandboxProblems];
    // Each problem is said once per window: a reload that finds it again stays quiet.
    const fresh = problems.filter((problem) => !this.reported.has(problem));
    for (const problem of fresh) {
      this.reported.add(problem);
      this.logger.warn('settings.problem', { problem });
    }
    if (fresh.length > 0) void this.notify(fresh, folders[0]);
    this.logger.info('settings.loaded', { mode: next.mode, rules: next.allRules.length, workspaceTrusted });
  }

  /** A warning naming the first problem, with a button that opens the settings file holding it. */
  private async notify(problems: readonly string[], folder: string | undefined): Promise<void> {
    const first = problems[0]!;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more in the log)` : '';
    const file = await fileHolding(first, settingsFiles(folder));
    const choice = await vscode.window.showWarningMessage(`Agent Tool Executor: a permission setting could not be used as written: ${first}${more}`, ...(file ? [OPEN_SETTINGS_FILE] : []));
    if (choice === OPEN_SETTINGS_FILE && file) await vscode.window.showTextDocument(vscode.Uri.file(file));
  }

  /** Sandboxed Bash calls run unasked with auto-allow; the sandbox reaches the domains of the allow rules in force. */
  private async configureSandbox(next: RulesPolicy, files: { user?: Record<string, unknown>; workspace?: Record<string, unknown> }, workspaceTrusted: boolean, folders: readonly string[]): Promise<string[]> {
    const sandbox = this.sandbox!;
    const allowRules = next.allRules.filter((rule) => rule.behavior === 'allow' && (rule.source !== 'workspace' || workspaceTrusted)).map((rule) => rule.text);
    const problems = await applySandboxSettings(sandbox, { userFile: files.user, workspaceFile: files.workspace, workspaceTrusted, folders, allowRules });
    next.sandboxed = (request) => sandbox.sandbox.autoAllows(request);
    return problems;
  }
}

/** The button of a settings warning. */
export const OPEN_SETTINGS_FILE = 'Open settings file';

function settingsFiles(folder: string | undefined): string[] {
  return [join(homedir(), USER_SETTINGS_FILE), ...(folder ? WORKSPACE_SETTINGS_FILES.map((file) => join(folder, file)) : [])];
}

/** The settings file a problem is about: the one holding the rule it quotes, else the one it names, else none. */
async function fileHolding(problem: string, files: readonly string[]): Promise<string | undefined> {
  const named = files.find((file) => problem.includes(file));
  if (named) return named;
  const rule = /rule '([^]*?)'(?::| has| does| is)/.exec(problem)?.[1];
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text !== undefined && rule !== undefined && text.includes(JSON.stringify(rule).slice(1, -1))) return file;
  }
  return undefined;
}

/** `agentToolExecutor.permissionMode`, when the user set one; otherwise the files' `defaultMode` decides. */
function configuredMode() {
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect<string>('permissionMode');
  const value = inspected?.workspaceValue ?? inspected?.globalValue;
  return value === undefined ? undefined : parsePermissionMode(value);
}

function rulesFrom(allow?: string[], ask?: string[], deny?: string[]): Record<string, unknown> | undefined {
  const lists = { allow, ask, deny };
  const permissions = Object.fromEntries(RULE_KEYS.filter((key) => Array.isArray(lists[key])).map((key) => [key, lists[key]]));
  return Object.keys(permissions).length === 0 ? undefined : { permissions };
}

function combine(a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!a) return b;
  if (!b) return a;
  return mergeSettings(a, b);
}
