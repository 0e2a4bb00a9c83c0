// Log lines are one of the forks a secret must not reach (spec §6): every string field is redacted.
import type { LogFields, Logger } from '../../ports/logger';
import type { Redactor } from '../../ports/redactor';
import { redactDeep } from '../sessionRecord';

export function redactingLogger(logger: Logger, redactor: Redactor): Logger {
  const fields = (value: LogFields | undefined) => (value === undefined ? undefined : (redactDeep(value, redactor) as LogFields));
  return {
    debug: (message, value) => logger.debug(redactor.redact(message), fields(value)),
    info: (message, value) => logger.info(redactor.redact(message), fields(value)),
    warn: (message, value) => logger.warn(redactor.redact(message), fields(value)),
    error: (message, value) => logger.error(redactor.redact(message), fields(value)),
  };
}
