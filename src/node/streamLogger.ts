// A Logger that writes one line per event to a stream (stderr for the CLI), above a level.
import type { LogFields, Logger } from '../executor';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';
const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };

export function isLogLevel(value: string | undefined): value is LogLevel {
  return value !== undefined && Object.hasOwn(ORDER, value);
}

export class StreamLogger implements Logger {
  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly level: LogLevel,
  ) {}

  debug(message: string, fields?: LogFields): void {
    this.write('debug', message, fields);
  }
  info(message: string, fields?: LogFields): void {
    this.write('info', message, fields);
  }
  warn(message: string, fields?: LogFields): void {
    this.write('warn', message, fields);
  }
  error(message: string, fields?: LogFields): void {
    this.write('error', message, fields);
  }

  private write(level: Exclude<LogLevel, 'off'>, message: string, fields?: LogFields): void {
    if (ORDER[level] < ORDER[this.level]) return;
    const suffix = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
    this.stream.write(`${new Date().toISOString()} ${level} ${message}${suffix}\n`);
  }
}
