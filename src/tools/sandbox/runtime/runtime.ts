// Adapter: `@anthropic-ai/sandbox-runtime` (bubblewrap and a filtering proxy on Linux, Seatbelt on macOS)
// behind the few calls Bash needs. The library is an ES module with one process-wide manager. It runs in
// its own process (src/tools/sandbox/runtime/runtimeProcess.ts), never in the host: this file is that process's,
// loaded there (tsc's output, or dist/sandbox-host.js in the bundles), so a session that never turns the
// sandbox on never loads the library.
import type { SandboxRuntimeConfigShape } from '../sandboxConfig';

/** A command to wrap: `shell -c command`, run in `cwd`, its violations reported under `key`. */
export interface SandboxCommand {
  readonly command: string;
  readonly shell: string;
  readonly key: string;
  /**
   * The folder it runs in. The runtime protects its own list of names there: shell profiles,
   * `.gitconfig`, `.gitmodules`, `.mcp.json`, `.idea`, and the folder's `.git/hooks` and `.git/config`
   * (below it only as deep as `MANDATORY_DENY_SEARCH_DEPTH`, which keeps it to the folder itself).
   */
  readonly cwd: string;
}

/** What Bash needs of the runtime; a fake stands in for it in unit tests. */
export interface SandboxRuntime {
  /** Linux, macOS (and WSL 2): the platforms the runtime sandboxes. */
  isSupportedPlatform(): Promise<boolean>;
  /** Missing pieces (bubblewrap, socat, ripgrep) as errors; degraded ones as warnings. */
  checkDependencies(ripgrep?: string): Promise<{ errors: string[]; warnings: string[] }>;
  /** Starts the filtering proxies; called once. */
  initialize(config: SandboxRuntimeConfigShape): Promise<void>;
  /** Replaces the configuration; the next wrap uses it, running commands keep theirs. */
  updateConfig(config: SandboxRuntimeConfigShape): Promise<void>;
  /** The shell command line that runs the command inside the sandbox. */
  wrap(command: SandboxCommand, signal: AbortSignal): Promise<string>;
  /**
   * A wrapped command ended: once none runs, the empty placeholders bubblewrap made for protected paths
   * that do not exist are removed (they would show as workspace changes). Resolves once they are.
   */
  commandEnded(): Promise<void>;
  /** What the runtime saw blocked for this key (denied hosts), as lines. */
  violations(key: string): Promise<string[]>;
  /** Stops the proxies and removes temporary mount points. */
  reset(): Promise<void>;
}

type Library = typeof import('@anthropic-ai/sandbox-runtime', { with: { 'resolution-mode': 'import' } });

/**
 * Loads the library in this process and adapts its manager; rejects when it cannot be loaded. The library
 * takes a command's folder from the process's working directory, which this adapter sets for each wrap
 * (and so belongs in a process of its own): wraps in one folder run side by side, one in another folder
 * waits until they are done.
 */
export async function loadSandboxRuntime(): Promise<SandboxRuntime> {
  const library: Library = await import('@anthropic-ai/sandbox-runtime');
  const manager = library.SandboxManager;
  const folder = new WorkingFolder();
  type RuntimeConfig = Parameters<typeof manager.initialize>[0];
  return {
    isSupportedPlatform: async () => manager.isSupportedPlatform(),
    checkDependencies: async (ripgrep) => {
      const check = manager.checkDependencies(ripgrep ? { command: ripgrep } : undefined);
      return { errors: [...check.errors], warnings: [...check.warnings] };
    },
    initialize: (config) => manager.initialize(config as RuntimeConfig),
    updateConfig: async (config) => manager.updateConfig(config as RuntimeConfig),
    wrap: ({ command, shell, key, cwd }, signal) =>
      folder.inside(cwd, signal, () => manager.wrapWithSandbox(command, shell, undefined, signal, { commandId: key, commandText: command })),
    commandEnded: async () => manager.cleanupAfterCommand(),
    violations: async (key) => manager.getSandboxViolationStore().getViolationsForCommand(key).map((violation) => violation.line),
    reset: () => manager.reset(),
  };
}

/** The process's working directory, changed only while no wrap that needs another one runs. */
export class WorkingFolder {
  private users = 0;
  private readonly waiting: Array<() => void> = [];

  async inside<T>(cwd: string, signal: AbortSignal, run: () => Promise<T>): Promise<T> {
    while (this.users > 0 && process.cwd() !== cwd) {
      signal.throwIfAborted();
      // Woken when the folder is free, or at once when the call is cancelled.
      let wake!: () => void;
      const woken = new Promise<void>((resolve) => (wake = resolve));
      this.waiting.push(wake);
      signal.addEventListener('abort', wake, { once: true });
      try {
        await woken;
      } finally {
        signal.removeEventListener('abort', wake);
      }
    }
    signal.throwIfAborted();
    // Throws (the command is not run) when the folder is gone.
    if (process.cwd() !== cwd) process.chdir(cwd);
    this.users++;
    try {
      return await run();
    } finally {
      if (--this.users === 0) for (const wake of this.waiting.splice(0)) wake();
    }
  }
}
