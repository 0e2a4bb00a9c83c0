// Shared helpers for executor tests: a tool builder, an executor with recording ports.
import { z } from 'zod';
import type { ToolDefinition, ToolOutput } from '../../../src/executor/contract/contract';
import type { ExecutorEvent } from '../../../src/executor/contract/events';
import { ToolExecutor, type ExecutorOptions } from '../../../src/executor/executor';
import type { LogFields, Logger } from '../../../src/executor/ports/logger';
import { InMemoryTelemetry } from '../../../src/executor/inMemoryTelemetry';

/** A tool with a `{text?: string}` input that returns `output` (or runs `run`). */
export function tool(name: string, overrides: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    description: `${name} test tool`,
    inputSchema: z.object({ text: z.string().optional() }),
    readOnly: true,
    concurrentSafe: true,
    sideEffectScope: 'none',
    handler: (input: { text?: string }): ToolOutput => ({ content: input.text ?? `${name} ran` }),
    ...overrides,
  };
}

export class RecordingLogger implements Logger {
  readonly lines: Array<{ level: string; message: string; fields?: LogFields }> = [];
  debug(message: string, fields?: LogFields): void {
    this.lines.push({ level: 'debug', message, fields });
  }
  info(message: string, fields?: LogFields): void {
    this.lines.push({ level: 'info', message, fields });
  }
  warn(message: string, fields?: LogFields): void {
    this.lines.push({ level: 'warn', message, fields });
  }
  error(message: string, fields?: LogFields): void {
    this.lines.push({ level: 'error', message, fields });
  }
  messages(): string[] {
    return this.lines.map((line) => line.message);
  }
}

export interface TestExecutor {
  readonly executor: ToolExecutor;
  readonly events: ExecutorEvent[];
  readonly telemetry: InMemoryTelemetry;
  readonly logger: RecordingLogger;
}

export function makeExecutor(tools: readonly ToolDefinition[], options: Partial<ExecutorOptions> = {}): TestExecutor {
  const telemetry = new InMemoryTelemetry();
  const logger = new RecordingLogger();
  const executor = new ToolExecutor({ workspaceFolders: ['/tmp'], telemetry, logger, sessionId: 'test-session', ...options });
  for (const def of tools) executor.registry.register(def);
  const events: ExecutorEvent[] = [];
  executor.onEvent((event) => events.push(event));
  return { executor, events, telemetry, logger };
}

/** A promise with its resolve exposed. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Resolves after every queued microtask and one macrotask. */
export function tick(ms = 0): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
