// What the composition root (extension or CLI) hands the built-in tools.
import type { ExternalBackgroundTask, TrackedTask } from '../executor';
import type { LocalFileSystems } from '../node/runtime/localMounts';
import type { ProcessSupervisor } from './process/processTree';
import type { BashSandbox } from './sandbox/bashSandbox';
import type { TodoStore } from './todoWrite';

/**
 * The executor's background-task registry as the tools need it; a `ToolExecutor` is one.
 * Background commands are tracked there so the executor lists them, emits their events and stops them on dispose.
 */
export interface BackgroundTaskHost {
  trackExternalBackgroundTask(task: ExternalBackgroundTask): TrackedTask;
  readonly backgroundTasks: {
    get(id: string): TrackedTask | undefined;
    stop(id: string): Promise<boolean>;
  };
}

export interface WebFetchOptions {
  /** @default WEBFETCH_TIMEOUT_MS (30 s) */
  readonly timeoutMs?: number;
  /** @default `agent-tool-executor` */
  readonly userAgent?: string;
}

export interface BuiltinToolsOptions {
  /**
   * The ripgrep binary. VS Code passes the one it ships (`findVsCodeRipgrep(vscode.env.appRoot)`);
   * absent, `rg` is looked up on PATH when Grep runs.
   */
  readonly rgPath?: string;
  /** Secret-looking environment variables that Bash may still pass to its child (a setting). @default [] */
  readonly allowedEnv?: readonly string[];
  /** Where `run_in_background` commands are tracked; absent, Bash refuses `run_in_background`. */
  readonly backgroundTasks?: BackgroundTaskHost;
  /** The shell Bash runs; @default `$SHELL`, else `/bin/bash`, else `/bin/sh` (`cmd.exe` on Windows). */
  readonly shell?: string;
  /** The environment Bash starts from, before secret filtering. @default `process.env` */
  readonly env?: NodeJS.ProcessEnv;
  readonly fetch?: WebFetchOptions;
  /** Owns the shell processes; `dispose()` it on deactivation to kill what still runs. @default `defaultProcessSupervisor` */
  readonly supervisor?: ProcessSupervisor;
  /** Runs Bash commands in the OS sandbox when its settings turn it on. @default none: never sandboxed */
  readonly sandbox?: BashSandbox;
  /** Where TodoWrite keeps each session's list (a UI may read it). @default a new in-memory store */
  readonly todos?: TodoStore;
  /** Which paths Read may read synchronously (small files on local disks). @default `processMountTable` */
  readonly localFiles?: LocalFileSystems;
}
