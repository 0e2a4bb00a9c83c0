// Log lines are one of the forks a secret must not reach (spec §6): every string field is redacted.
import { nullLogger, type LogFields, type Logger } from '../../ports/logger';
import type { Redactor } from '../../ports/redactor';
import { redactDeep } from '../sessionRecord';

/** Loggers this module made, with the redactor they apply: wrapping one again with it adds nothing. */
const redactedBy = new WeakMap<Logger, Redactor>();

export function redactingLogger(logger: Logger, redactor: Redactor): Logger {
  // Nothing to protect in lines nobody writes, and no second pass over lines already redacted.
  if (logger === nullLogger || redactedBy.get(logger) === redactor) return logger;
  const fields = (value: LogFields | undefined) => (value === undefined ? undefined : (redactDeep(value, redactor) as LogFields));
  const wrapped: Logger = {
    debug: (message, value) => logger.debug(redactor.redact(message), fields(value)),
    info: (message, value) => logger.info(redactor.redact(message), fields(value)),
    warn: (message, value) => logger.warn(redactor.redact(message), fields(value)),
    error: (message, value) => logger.error(redactor.redact(message), fields(value)),
  };
  redactedBy.set(wrapped, redactor);
  return wrapped;
}
