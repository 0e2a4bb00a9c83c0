// Port: structured log lines (`tool.call.started|completed|failed|not_found`, hook failures, ...).

export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** Drops every line; for hosts that do not log. */
export const nullLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
