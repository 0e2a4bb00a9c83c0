// Containment of `--tools` modules: their code runs in the CLI's process, so a fault that would end
// the process or forge its output is turned into an error result of the call that caused it.
//
//   1. Each handler runs in an AsyncLocalStorage scope naming its call; timers, callbacks and promises it
//      starts inherit the scope, so an uncaught exception or an unhandled rejection is attributed to the
//      call that started the work, even when several run at once.
//   2. The faulty call ends with `tool NAME crashed: ...`; every other call keeps its result. A fault that
//      comes after the handler returned (a microtask, timer or promise it left behind) is logged with
//      the call's name and the call keeps its result. `queueMicrotask` callbacks are wrapped while
//      installed: Node does not keep their scope for an exception that escapes them.
//   3. `process.exit()` from tool code is refused (it throws, and the call fails): only the CLI decides
//      when it exits and with what code.
//   4. A fault in module code outside any call (a timer started at import) is named on stderr; a fault
//      in no scope at all is the CLI's own bug and ends it as an internal error.
// stdout is handled apart (`cliOutput.ts`): tool code writing to it reaches stderr.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ToolDefinition } from '../../executor/contract/contract';

/** Thrown by `process.exit` while tool code may run. */
export class ToolExitError extends Error {
  override readonly name = 'ToolExitError';
  constructor(readonly code: unknown) {
    super(`it called process.exit(${code === undefined ? '' : String(code)}); a tool cannot end the batch`);
  }
}

/** A fault a tool's code caused outside its handler's own promise. */
export class ToolFaultError extends Error {
  override readonly name = 'ToolFaultError';
}

interface Scope {
  readonly label: string;
  /** Ends the call with this error; undefined for a module scope. */
  readonly fail?: (error: Error) => void;
  done: boolean;
}

export interface ContainmentReport {
  /** Faults attributed to a call, or to a module outside any call. */
  readonly faults: number;
}

export class ToolContainment {
  private readonly scopes = new AsyncLocalStorage<Scope>();
  private readonly originalExit = process.exit;
  private readonly originalQueueMicrotask = globalThis.queueMicrotask;
  private readonly realExit = process.exit.bind(process);
  private installed = false;
  private faultCount = 0;

  /**
   * @param warn where faults outside any running call are reported (stderr, redacted)
   * @param internalError a fault in no tool's scope: the CLI's own bug
   */
  constructor(
    private readonly warn: (message: string) => void,
    private readonly internalError: (error: unknown) => void,
  ) {}

  install(): void {
    if (this.installed) return;
    this.installed = true;
    process.exit = ((code?: number | string | null) => {
      if (!this.scopes.getStore()) return this.realExit(code ?? undefined);
      const error = new ToolExitError(code ?? undefined);
      this.attribute(error, 'exit');
      throw error;
    }) as typeof process.exit;
    globalThis.queueMicrotask = this.queueMicrotask;
    process.on('uncaughtException', this.onUncaught);
    process.on('unhandledRejection', this.onUnhandled);
  }

  /** Puts `process.exit` and the fault listeners back (for hosts that run more than one batch). */
  uninstall(): void {
    if (!this.installed) return;
    this.installed = false;
    process.exit = this.originalExit;
    globalThis.queueMicrotask = this.originalQueueMicrotask;
    process.off('uncaughtException', this.onUncaught);
    process.off('unhandledRejection', this.onUnhandled);
  }

  /** Ends the process with `code`: the only way out once installed. */
  exit(code: number): never {
    return this.realExit(code);
  }

  get report(): ContainmentReport {
    return { faults: this.faultCount };
  }

  /** Runs module code (its import) in a scope named after the module. */
  runInModule<T>(module: string, work: () => Promise<T>): Promise<T> {
    return this.scopes.run({ label: `--tools ${module}`, done: false }, work);
  }

  /** The definition with its handler run in a scope that attributes faults to the call. */
  wrap<I, D>(def: ToolDefinition<I, D>, module: string): ToolDefinition<I, D> {
    const handler = def.handler;
    return {
      ...def,
      handler: (input, ctx) => {
        let fail: (error: Error) => void = () => {};
        const faulted = new Promise<never>((_, reject) => {
          fail = reject;
        });
        faulted.catch(() => {});
        const scope: Scope = { label: `tool ${def.name} (call ${ctx.callId}, ${module})`, fail: (error) => fail(error), done: false };
        const run = this.scopes.run(scope, () => Promise.resolve().then(() => handler.call(def, input, ctx)));
        return Promise.race([run, faulted]).finally(() => {
          scope.done = true;
        });
      },
    };
  }

  private readonly onUncaught = (error: unknown): void => {
    this.attribute(error, 'uncaught');
  };

  /** `queueMicrotask` whose callback's escaping exception is attributed to the scope that queued it. */
  private readonly queueMicrotask = (callback: () => void): void => {
    const scope = this.scopes.getStore();
    if (!scope || typeof callback !== 'function') return this.originalQueueMicrotask.call(globalThis, callback);
    this.originalQueueMicrotask.call(globalThis, () => {
      try {
        callback();
      } catch (error) {
        this.attributeTo(scope, error, 'uncaught');
      }
    });
  };

  private readonly onUnhandled = (reason: unknown): void => {
    this.attribute(reason, 'unhandled');
  };

  private attribute(error: unknown, how: 'uncaught' | 'unhandled' | 'exit'): void {
    const scope = this.scopes.getStore();
    if (!scope) {
      this.internalError(error);
      return;
    }
    this.attributeTo(scope, error, how);
  }

  private attributeTo(scope: Scope, error: unknown, how: 'uncaught' | 'unhandled' | 'exit'): void {
    this.faultCount++;
    const what =
      error instanceof ToolExitError
        ? error.message
        : how === 'uncaught'
          ? `an uncaught exception outside its handler (in a timer or callback): ${describe(error)}`
          : `an unhandled promise rejection: ${describe(error)}`;
    if (error instanceof ToolExitError) {
      if (scope.fail && !scope.done) scope.fail(error);
      else this.warn(`${scope.label}${scope.fail ? ', after its call ended,' : ''} caused ${what}`);
      return;
    }
    // Decided once the microtasks have run: a handler that already returned has settled by then and
    // keeps its result, since the fault came from work it left behind.
    setImmediate(() => {
      if (scope.fail && !scope.done) scope.fail(new ToolFaultError(what));
      else this.warn(`${scope.label}${scope.fail ? ', after its call ended,' : ''} caused ${what}`);
    });
  }
}

function describe(error: unknown): string {
  try {
    if (error instanceof Error) return `${error.name}: ${error.message}`;
    return String(error);
  } catch {
    return 'a value that cannot be described';
  }
}
