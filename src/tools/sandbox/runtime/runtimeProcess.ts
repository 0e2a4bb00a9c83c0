// The host's side of the sandbox runtime's process (src/tools/sandbox/runtime/runtimeHost.ts): the runtime behind
// `SandboxRuntime`, in a Node child of its own: in the host its forks and synchronous file system calls
// kept the host's event loop busy for each sandboxed command (docs/MEASUREMENTS.md, "Sandbox runtime").
// Its proxies served the commands' network traffic there too. Requests are served as they come, each
// answered when done (as the host called the library before); the process ends with the host.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { bareNodeEnvironment, keepHostAliveWhile } from '../../process/spawnHelper';
import type { SandboxCommand, SandboxRuntime } from './runtime';
import { SANDBOX_HOST_SCRIPT } from './runtimeHostScript';
import type { SandboxRuntimeConfigShape } from '../sandboxConfig';

/** How long a reset (the proxies stopped, the mount points removed) may take before the process is killed. */
export const SANDBOX_RESET_TIMEOUT_MS = 5_000;

/** The last of the process's stderr kept to say why it ended. */
const STDERR_TAIL_CHARS = 2_000;

export type RuntimeRequest =
  | { readonly id: number; readonly op: 'isSupportedPlatform' }
  | { readonly id: number; readonly op: 'checkDependencies'; readonly ripgrep?: string }
  | { readonly id: number; readonly op: 'initialize' | 'updateConfig'; readonly config: SandboxRuntimeConfigShape }
  | { readonly id: number; readonly op: 'wrap'; readonly command: SandboxCommand }
  | { readonly id: number; readonly op: 'commandEnded' | 'reset' }
  | { readonly id: number; readonly op: 'violations'; readonly key: string }
  /** Stops the wrap with id `target`; it has no answer of its own. */
  | { readonly id: number; readonly op: 'abort'; readonly target: number };

export type RuntimeAnswer = { readonly id: number; readonly value: unknown } | { readonly id: number; readonly error: string };

/** A request of the union above, without its id. */
type Request = RuntimeRequest extends infer R ? (R extends RuntimeRequest ? Omit<R, 'id'> : never) : never;

export interface SandboxRuntimeProcessOptions {
  /** Told once when the process ends unasked, with why; every request then fails with the same reason. */
  readonly onLost?: (reason: string) => void;
  /** @default the runtime's script (runtimeHostScript.ts) */
  readonly script?: string;
}

/** `SandboxRuntime` answered by the runtime's own process, started by the constructor. */
export class SandboxRuntimeProcess implements SandboxRuntime {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;
  /** Why requests fail: the process ended, or was stopped. */
  private ended: string | undefined;
  private stderrTail = '';

  constructor(private readonly options: SandboxRuntimeProcessOptions = {}) {
    const child = spawn(process.execPath, [options.script ?? SANDBOX_HOST_SCRIPT], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: bareNodeEnvironment(),
      serialization: 'json',
      // Its own process group, which the socat bridges the runtime starts join: they end with it (endGroup).
      detached: process.platform !== 'win32',
    });
    this.child = child;
    const stderr = child.stderr as (Readable & { unref?(): void }) | null;
    stderr?.setEncoding('utf8');
    stderr?.on('data', (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
    });
    stderr?.unref?.();
    child.on('message', (message: RuntimeAnswer) => this.onAnswer(message));
    // Given up once it exited and its channel and stderr closed: what it sent before it died is read first.
    child.once('close', (code, signal) => this.lose(signal ?? `exit code ${code}`));
    // Node itself could not be started: no close to wait for.
    child.once('error', (error) => {
      if (child.pid === undefined) this.lose(error.message);
    });
    this.refIfBusy();
  }

  /** The process's pid (undefined when it could not be started). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  isSupportedPlatform(): Promise<boolean> {
    return this.call<boolean>({ op: 'isSupportedPlatform' });
  }

  checkDependencies(ripgrep?: string): Promise<{ errors: string[]; warnings: string[] }> {
    return this.call({ op: 'checkDependencies', ...(ripgrep === undefined ? {} : { ripgrep }) });
  }

  async initialize(config: SandboxRuntimeConfigShape): Promise<void> {
    await this.call({ op: 'initialize', config });
  }

  async updateConfig(config: SandboxRuntimeConfigShape): Promise<void> {
    await this.call({ op: 'updateConfig', config });
  }

  wrap(command: SandboxCommand, signal: AbortSignal): Promise<string> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    const id = this.nextId;
    const wrapped = this.call<string>({ op: 'wrap', command });
    // A cancel fails the call now; the process stops its wrap, and its late answer is dropped.
    const onAbort = () => {
      if (!this.pending.has(id)) return;
      this.send({ id: this.nextId++, op: 'abort', target: id });
      this.settle(id, undefined, abortError(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    return wrapped.finally(() => signal.removeEventListener('abort', onAbort));
  }

  async commandEnded(): Promise<void> {
    await this.call({ op: 'commandEnded' });
  }

  violations(key: string): Promise<string[]> {
    return this.call<string[]>({ op: 'violations', key });
  }

  /** Stops the proxies, then the process (killed if the reset takes over `SANDBOX_RESET_TIMEOUT_MS`). */
  async reset(): Promise<void> {
    if (this.ended !== undefined) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.call({ op: 'reset' }).catch(() => undefined),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, SANDBOX_RESET_TIMEOUT_MS);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      this.stop('the OS sandbox was stopped');
    }
  }

  private call<T>(request: Request): Promise<T> {
    if (this.ended !== undefined) return Promise.reject(new Error(this.ended));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.refIfBusy();
      this.send({ ...request, id } as RuntimeRequest);
    });
  }

  private send(request: RuntimeRequest): void {
    try {
      this.child.send(request, (error) => {
        if (error) this.settle(request.id, undefined, error);
      });
    } catch (error) {
      this.settle(request.id, undefined, error as Error);
    }
  }

  private onAnswer(message: RuntimeAnswer): void {
    if ('error' in message) this.settle(message.id, undefined, new Error(message.error));
    else this.settle(message.id, message.value);
  }

  private settle(id: number, value: unknown, error?: Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    this.refIfBusy();
    if (error) entry.reject(error);
    else entry.resolve(value);
  }

  /** The process ended unasked: every request fails, now and later, with why. */
  private lose(exit: string): void {
    if (this.ended !== undefined) return;
    const said = this.stderrTail.trim().split('\n').slice(-3).join(' ').trim();
    const reason = `the OS sandbox's process${this.child.pid === undefined ? '' : ` (pid ${this.child.pid})`} ended (${exit})${said ? `: ${said}` : ''}`;
    this.failAll(reason);
    this.endGroup();
    this.options.onLost?.(reason);
  }

  private stop(reason: string): void {
    if (this.ended !== undefined) return;
    this.failAll(reason);
    this.endGroup();
  }

  /**
   * Kills the process and what is left of its group: the runtime's socat bridges to its proxies, which
   * outlive a process that died without its reset (it was killed, it crashed).
   */
  private endGroup(): void {
    const pid = this.child.pid;
    if (pid === undefined || process.platform === 'win32') {
      this.child.kill('SIGKILL');
      return;
    }
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // The group is empty already.
    }
  }

  private failAll(reason: string): void {
    this.ended = reason;
    const pending = [...this.pending.values()];
    this.pending.clear();
    this.refIfBusy();
    for (const entry of pending) entry.reject(new Error(reason));
  }

  /** The process and its channel keep the host alive only while a request is under way. */
  private refIfBusy(): void {
    keepHostAliveWhile(this.child, this.pending.size > 0);
  }
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the call was cancelled');
}
