// The OS sandbox around Bash. The host configures it from the settings; it starts the runtime
// once and checks that it really works here (a sandboxed `true` must exit 0), then:
//   1. `plan` says whether a command runs sandboxed, and if not why (off, the model's
//      `dangerouslyDisableSandbox`, `sandbox.excludedCommands`, not available here);
//   2. `autoAllows` tells the permission policy which calls need no approval (sandboxed, auto-allow on);
//   3. `wrap` turns a command into the sandboxed command line, keyed for the runtime's violation reports;
//   4. `blocked` names what the sandbox refused during that command.
// Where it cannot run it says so once and every command asks as without it: never a silent escape. Should
// the runtime's process end on its own, it is started again with the agents' backoff (src/bridge/restarts.ts),
// and until it runs commands ask.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { homedir } from 'node:os';
import type { PermissionRequest } from '../../executor';
import { RestartBackoff } from '../../bridge/restarts';
import { splitCommand } from '../../executor';
import { describeBlocked } from './blocked';
import type { SandboxRuntime } from './runtime/runtime';
import { SandboxRuntimeProcess } from './runtime/runtimeProcess';
import { sandboxRuntimeConfig, type SandboxPolicyInput, type SandboxRuntimeConfigShape } from './sandboxConfig';
import { repositoryPaths } from './gitPaths';
import { SANDBOX_OFF, type SandboxSettings } from './sandboxSettings';

/**
 * The runtime sets `TMPDIR` to this folder and lets commands write there, but bubblewrap binds only
 * folders that exist: it is made before the first command (mktemp, npm and compilers need it).
 */
export const SANDBOX_TMPDIR = '/tmp/claude';

/** How long the start-up check (`true` in the sandbox) may take before the sandbox counts as broken. */
export const SANDBOX_PROBE_TIMEOUT_MS = 15_000;

/** Auto-allowed calls remembered until their handler runs (a hook may stop one before it does). */
const MAX_PENDING_AUTO_ALLOWED = 1000;

export type SandboxPlan = { readonly sandboxed: true } | { readonly sandboxed: false; readonly why?: string };

export interface BashSandboxOptions {
  /**
   * The runtime; `lost` is to be called should it stop working on its own (its process ended).
   * @default `@anthropic-ai/sandbox-runtime` in a process of its own (runtimeProcess.ts)
   */
  readonly loadRuntime?: (lost: (reason: string) => void) => Promise<SandboxRuntime>;
  /** @default process.platform */
  readonly platform?: NodeJS.Platform;
  /** @default os.homedir() */
  readonly home?: string;
  /** The shell the start-up check runs. @default /bin/sh */
  readonly shell?: string;
  /**
   * Told once per message when the sandbox is on but cannot run here, or its runtime stopped and is
   * started again (the host shows it).
   */
  readonly onUnavailable?: (message: string) => void;
  /** When to start a runtime that stopped on its own again. @default a new `RestartBackoff` */
  readonly restarts?: RestartBackoff;
}

/** The sandbox's inputs besides the settings: where commands run, the rules' domains, the ignore files. */
export type SandboxPolicySources = Omit<SandboxPolicyInput, 'platform' | 'home' | 'allowedDomains' | 'gitPaths'> & {
  /** The domains of `WebFetch(domain:…)` allow rules. */
  readonly webFetchDomains: readonly string[];
};

export class BashSandbox {
  private settingsInForce: SandboxSettings = SANDBOX_OFF;
  private config: SandboxRuntimeConfigShape | undefined;
  private runtime: SandboxRuntime | undefined;
  private starting: Promise<void> | undefined;
  private unavailable: string | undefined;
  private readonly told = new Set<string>();
  /** Calls `autoAllows` let through: their handler must run them sandboxed or not at all. */
  private readonly autoAllowed = new Set<string>();
  private readonly platform: NodeJS.Platform;
  private readonly home: string;
  private readonly restarts: RestartBackoff;
  private restartTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  /** Configure calls begun, so one that began earlier never overrides a later one. */
  private configurations = 0;

  constructor(private readonly options: BashSandboxOptions = {}) {
    this.platform = options.platform ?? process.platform;
    this.home = options.home ?? homedir();
    this.restarts = options.restarts ?? new RestartBackoff();
  }

  /** The settings in force. */
  get settings(): SandboxSettings {
    return this.settingsInForce;
  }

  /** `off`, `starting`, `ready`, or `unavailable` (with `unavailableReason`). */
  get state(): 'off' | 'starting' | 'ready' | 'unavailable' {
    if (!this.settingsInForce.enabled) return 'off';
    if (this.unavailable !== undefined) return 'unavailable';
    return this.runtime ? 'ready' : 'starting';
  }

  get unavailableReason(): string | undefined {
    return this.unavailable;
  }

  /** The runtime configuration last derived from the policy (for tests and the rules list). */
  get runtimeConfig(): SandboxRuntimeConfigShape | undefined {
    return this.config;
  }

  /**
   * Takes new settings and policy sources; starts the runtime the first time the sandbox is on.
   * Resolves when the sandbox is ready or known to be unavailable.
   */
  async configure(settings: SandboxSettings, sources: SandboxPolicySources): Promise<void> {
    const generation = ++this.configurations;
    const gitPaths = (await Promise.all(sources.folders.map((folder) => repositoryPaths(folder, this.home)))).flat();
    // A later configure began while the files were read: its settings win, whichever finishes first.
    if (generation !== this.configurations) return this.ready();
    this.settingsInForce = settings;
    this.config = sandboxRuntimeConfig({
      ...sources,
      gitPaths,
      platform: this.platform,
      home: this.home,
      allowedDomains: [...settings.allowedDomains, ...sources.webFetchDomains],
    });
    if (!settings.enabled) return;
    if (this.runtime) {
      const runtime = this.runtime;
      try {
        await runtime.updateConfig(this.config);
      } catch (error) {
        // Never left running with the rules it had: it stops, and commands ask. (One whose process ended
        // meanwhile is being started again, with these rules.)
        if (this.runtime !== runtime) return;
        this.runtime = undefined;
        this.starting = undefined;
        await runtime.reset().catch(() => undefined);
        this.markUnavailable(`its new settings could not be applied: ${error instanceof Error ? error.message : String(error)}`);
      }
      return;
    }
    this.starting ??= this.start(this.config);
    await this.starting;
  }

  /** Resolves once a start in progress has finished (ready or unavailable). */
  async ready(): Promise<void> {
    await this.starting;
  }

  /** Whether `command` runs in the sandbox, and if not, why (undefined when the sandbox is simply off). */
  plan(command: string, input?: { readonly dangerouslyDisableSandbox?: boolean }): SandboxPlan {
    if (!this.settingsInForce.enabled) return { sandboxed: false };
    if (input?.dangerouslyDisableSandbox === true) return { sandboxed: false, why: 'the model asked to run it outside the sandbox (dangerouslyDisableSandbox)' };
    const excluded = excludedBy(command, this.settingsInForce.excludedCommands);
    if (excluded) return { sandboxed: false, why: `sandbox.excludedCommands lists ${excluded}` };
    if (this.unavailable !== undefined) return { sandboxed: false, why: `the sandbox cannot run here: ${this.unavailable}` };
    if (!this.runtime) return { sandboxed: false, why: 'the sandbox is still starting' };
    return { sandboxed: true };
  }

  /** For the permission policy: a Bash call that will run sandboxed, with auto-allow on, needs no approval. */
  autoAllows(request: PermissionRequest): boolean {
    if (request.tool.name !== 'Bash' || !this.settingsInForce.autoAllowBashIfSandboxed) return false;
    const input = request.input as { command?: unknown; dangerouslyDisableSandbox?: boolean } | undefined;
    const allows = typeof input?.command === 'string' && this.plan(input.command, input).sandboxed;
    if (allows) {
      if (this.autoAllowed.size >= MAX_PENDING_AUTO_ALLOWED) this.autoAllowed.delete(this.autoAllowed.values().next().value!);
      this.autoAllowed.add(request.callId);
    }
    return allows;
  }

  /** Whether `autoAllows` let this call through without approval (asked once, by its handler). */
  consumeAutoAllowed(callId: string): boolean {
    return this.autoAllowed.delete(callId);
  }

  /** A line for the approval dialog: where the command will run. Undefined when the sandbox is off. */
  approvalNote(command: string, input?: { readonly dangerouslyDisableSandbox?: boolean }): string | undefined {
    const plan = this.plan(command, input);
    if (plan.sandboxed) return 'Runs in the OS sandbox: it writes only in the workspace folders and reaches only the allowed domains.';
    if (!plan.why) return undefined;
    return `Runs OUTSIDE the sandbox, because ${plan.why}: it can write anywhere you can and reach any host.`;
  }

  /** The sandboxed command line for `command` run in `cwd`, and the key its violations are reported under. */
  async wrap(command: string, shell: string, cwd: string, signal: AbortSignal): Promise<{ command: string; key: string }> {
    if (!this.runtime) throw new Error('the sandbox is not running');
    // Unguessable, as the runtime requires of a key a connection presents (128 bits).
    const key = randomBytes(16).toString('base64url');
    return { command: await this.runtime.wrap({ command, shell, key, cwd }, signal), key };
  }

  /** What the sandbox refused while the command under `key` ran, one line each. */
  async blocked(key: string, errorLines: readonly string[], cwd: string): Promise<string[]> {
    const config = this.config;
    if (!config) return [];
    // A runtime that is gone reports no denied host; the error lines still name what was refused.
    const violations = (await this.runtime?.violations(key).catch(() => undefined)) ?? [];
    return describeBlocked(errorLines, violations, {
      cwd,
      home: this.home,
      allowWrite: config.filesystem.allowWrite,
      denyRead: config.filesystem.denyRead,
      denyWrite: config.filesystem.denyWrite,
      allowedDomains: config.network.allowedDomains,
    });
  }

  /**
   * A command `wrap` returned has ended (call once per wrap); resolves once the runtime has removed the
   * placeholders it made, so a snapshot taken after it does not see them.
   */
  async commandEnded(): Promise<void> {
    await this.runtime?.commandEnded().catch(() => undefined);
  }

  /** Stops the runtime's proxies. */
  async dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.restartTimer);
    const runtime = this.runtime;
    this.runtime = undefined;
    await runtime?.reset().catch(() => undefined);
  }

  private async start(config: SandboxRuntimeConfigShape): Promise<void> {
    let runtime: SandboxRuntime | undefined;
    try {
      const lost = (reason: string) => this.lost(runtime, reason);
      runtime = await (this.options.loadRuntime ?? (async (onLost) => new SandboxRuntimeProcess({ onLost })))(lost);
      if (!(await runtime.isSupportedPlatform())) {
        await runtime.reset().catch(() => undefined);
        return this.markUnavailable(`${this.platform} is not a platform the sandbox supports (Linux with bubblewrap, macOS)`);
      }
      const dependencies = await runtime.checkDependencies(config.ripgrep?.command);
      if (dependencies.errors.length > 0) {
        await runtime.reset().catch(() => undefined);
        return this.markUnavailable(dependencies.errors.join('; '));
      }
      if (this.platform !== 'win32') fs.mkdirSync(SANDBOX_TMPDIR, { recursive: true });
      await runtime.initialize(this.config ?? config);
      const failure = await probe(runtime, this.options.shell ?? '/bin/sh', (this.config ?? config).filesystem.allowWrite[0] ?? process.cwd());
      if (failure) {
        await runtime.reset().catch(() => undefined);
        return this.markUnavailable(failure);
      }
      if (this.config) await runtime.updateConfig(this.config);
      if (this.disposed) {
        await runtime.reset().catch(() => undefined);
        return;
      }
      this.runtime = runtime;
      this.unavailable = undefined;
      this.restarts.started();
    } catch (error) {
      await runtime?.reset().catch(() => undefined);
      this.markUnavailable(error instanceof Error ? error.message : String(error));
    } finally {
      // One that did not start is tried again by the next configure: a settings change, or a dependency
      // installed meanwhile, can make it work (until then it stays unavailable, and commands ask).
      if (runtime === undefined || this.runtime !== runtime) this.starting = undefined;
    }
  }

  /**
   * The runtime in use stopped working on its own (its process ended): commands ask until it is started
   * again, after the backoff's wait; past its limit it stays unavailable (the next configure tries again).
   * One that ends while it starts fails its start, which says why.
   */
  private lost(runtime: SandboxRuntime | undefined, reason: string): void {
    if (runtime === undefined || this.runtime !== runtime) return;
    this.runtime = undefined;
    this.starting = undefined;
    const decision = this.restarts.crashed();
    if (!decision.restart) return this.markUnavailable(`${reason}; it stopped ${decision.attempts + 1} times in a row, so it is not started again`);
    this.tell(
      `The OS sandbox stopped (${reason}) and starts again in ${decision.delayMs / 1000} s: until it runs, commands are not sandboxed and ask for approval as usual.`,
    );
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      if (this.disposed || !this.settingsInForce.enabled || this.runtime || this.starting || !this.config) return;
      this.starting = this.start(this.config);
    }, decision.delayMs);
    this.restartTimer.unref?.();
  }

  private markUnavailable(reason: string): void {
    this.unavailable = reason;
    this.tell(`The OS sandbox is on in the settings but cannot run here (${reason}): commands are not sandboxed and ask for approval as usual.`);
  }

  private tell(message: string): void {
    if (this.told.has(message)) return;
    this.told.add(message);
    this.options.onUnavailable?.(message);
  }
}

/** Runs `true` in the sandbox once, in `cwd` (as a command would); the failure, or undefined when it works. */
async function probe(runtime: SandboxRuntime, shell: string, cwd: string): Promise<string | undefined> {
  const signal = AbortSignal.timeout(SANDBOX_PROBE_TIMEOUT_MS);
  const key = randomBytes(16).toString('base64url');
  const wrapped = await runtime.wrap({ command: 'true', shell, key, cwd }, signal);
  const ended = new Promise<string | undefined>((resolve) => {
    const child = spawn(shell, ['-c', wrapped], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-500);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), SANDBOX_PROBE_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve(`a test command could not start: ${error.message}`);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve(code === 0 ? undefined : `a test command failed in the sandbox (${signal ?? `exit ${code}`}): ${stderr.trim() || 'no message'}`);
    });
  });
  try {
    return await ended;
  } finally {
    await runtime.commandEnded().catch(() => undefined);
  }
}

/**
 * The `sandbox.excludedCommands` entry a part of `command` starts with (whole words; `git push:*` and
 * `git push *` mean `git push`), or undefined.
 */
export function excludedBy(command: string, patterns: readonly string[]): string | undefined {
  if (patterns.length === 0) return undefined;
  const split = splitCommand(command);
  const parts = split.ok ? split.parts.flatMap((part) => (part.kind === 'command' ? [part.words.map((word) => word.value)] : [])) : [command.trim().split(/\s+/)];
  for (const pattern of patterns) {
    const words = pattern.replace(/(:\*|\s\*)$/, '').trim().split(/\s+/);
    if (parts.some((part) => words.every((word, index) => part[index] === word))) return pattern;
  }
  return undefined;
}
