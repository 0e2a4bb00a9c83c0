// Command hooks from settings in Claude Code's format: each runs as `/bin/sh -c`
// in its own process group, gets the hook input as JSON on stdin, and answers by exit code or JSON on
// stdout (commandHookOutput.ts). On timeout or abort the whole group is killed: a hook's children
// never outlive it. The hook chain (hookChain.ts) applies the per-hook timeout and logs failures.
import { spawn } from 'node:child_process';
import { combineHookSources, matchesTool } from '../../executor';
import type { Logger } from '../../executor';
import type { Hook, HookEventName, HookInput, HookOutcome, HookSource } from '../../executor';
import { parseHookSettings, type CommandHookConfig } from '../../executor';
import { HookFailure, interpretHookResult, type HookProcessResult } from './commandHookOutput';

/** Output kept per stream; a hook that prints more is cut (its JSON answer is near the start). */
export const MAX_HOOK_OUTPUT_BYTES = 1024 * 1024;
/** The shell Claude Code runs hook commands with. */
export const HOOK_SHELL = '/bin/sh';

export interface CommandHookOptions {
  /** `CLAUDE_PROJECT_DIR` for the hook (Claude Code sets it; hooks use it to find their scripts). @default input.cwd */
  readonly projectDir?: string;
  /** Environment of the hook processes. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The hooks of a settings `hooks` object as a `HookSource`. Invalid entries are skipped and logged.
 * Only pass hooks from trusted settings: a hook is a program the user chose to run.
 */
export function commandHookSource(settingsHooks: unknown, logger: Logger, options: CommandHookOptions = {}): HookSource {
  const parsed = parseHookSettings(settingsHooks, 'settings');
  for (const problem of parsed.problems) logger.warn('tool.hook.settings_problem', { problem });
  const hooks = parsed.hooks.map((config) => commandHook(config, options));
  return {
    hooksFor: (event: HookEventName, toolName: string) => hooks.filter((hook) => hook.event === event && matchesTool(hook.matcher, toolName)),
  };
}

/**
 * The command hooks of the user's and the workspace's settings, user first. A workspace's hooks are
 * programs its authors chose: they run only when the workspace is trusted.
 */
export function settingsHookSource(
  settings: { readonly user?: { readonly hooks?: unknown }; readonly workspace?: { readonly hooks?: unknown }; readonly workspaceTrusted: boolean },
  logger: Logger,
  options: CommandHookOptions = {},
): HookSource {
  const sources = [commandHookSource(settings.user?.hooks, logger, options)];
  if (settings.workspace?.hooks !== undefined) {
    if (settings.workspaceTrusted) sources.push(commandHookSource(settings.workspace.hooks, logger, options));
    else logger.warn('tool.hook.untrusted_workspace', { reason: 'the workspace is not trusted: its settings hooks do not run' });
  }
  return combineHookSources(...sources);
}

/** One configured command as a `Hook`. */
export function commandHook(config: CommandHookConfig, options: CommandHookOptions = {}): Hook {
  return {
    name: `${config.name} (${config.command.length > 60 ? `${config.command.slice(0, 57)}...` : config.command})`,
    event: config.event,
    matcher: config.matcher,
    timeoutMs: config.timeoutMs,
    run: async (input: HookInput, signal: AbortSignal): Promise<HookOutcome> => {
      const result = await runHookProcess(config.command, input, options, signal);
      return interpretHookResult(config.event, result);
    },
  };
}

/** Runs one hook command to its end, or until `signal` aborts (then its process group is killed). */
export function runHookProcess(command: string, input: HookInput, options: CommandHookOptions, signal: AbortSignal): Promise<HookProcessResult> {
  signal.throwIfAborted();
  return new Promise<HookProcessResult>((resolve, reject) => {
    const child = spawn(HOOK_SHELL, ['-c', command], {
      cwd: input.cwd,
      env: { ...(options.env ?? process.env), CLAUDE_PROJECT_DIR: options.projectDir ?? input.cwd },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stdout = new BoundedText(MAX_HOOK_OUTPUT_BYTES);
    const stderr = new BoundedText(MAX_HOOK_OUTPUT_BYTES);
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const onAbort = () => killGroup();
    signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
    // A hook that does not read its stdin closes the pipe: that is not a failure.
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(input));
    child.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(new HookFailure(`could not start ${HOOK_SHELL}: ${error.message}`));
    });
    // Background children the hook left behind go with it; they would hold its pipes open.
    child.on('exit', killGroup);
    child.on('close', (exitCode, exitSignal) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) reject(signal.reason);
      else resolve({ exitCode, signal: exitSignal, stdout: stdout.text(), stderr: stderr.text() });
    });
  });
}

/** Keeps the first `limit` bytes of a stream. */
class BoundedText {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    if (this.size >= this.limit) return;
    const kept = chunk.subarray(0, this.limit - this.size);
    this.chunks.push(kept);
    this.size += kept.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
