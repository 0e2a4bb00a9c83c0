// Adapter: the Logger port on a VS Code LogOutputChannel (its level follows the user's setting).
import type * as vscode from 'vscode';
import type { LogFields, Logger } from '../executor';

export class OutputChannelLogger implements Logger {
  constructor(private readonly channel: vscode.LogOutputChannel) {}

  debug(message: string, fields?: LogFields): void {
    this.channel.debug(line(message, fields));
  }
  info(message: string, fields?: LogFields): void {
    this.channel.info(line(message, fields));
  }
  warn(message: string, fields?: LogFields): void {
    this.channel.warn(line(message, fields));
  }
  error(message: string, fields?: LogFields): void {
    this.channel.error(line(message, fields));
  }
}

function line(message: string, fields: LogFields | undefined): string {
  if (!fields || Object.keys(fields).length === 0) {
    return message;
  }
  try {
    return `${message} ${JSON.stringify(fields)}`;
  } catch {
    return `${message} (fields not serializable)`;
  }
}
