// Results: redaction, streaming output, displays, artifact layout, batch budget, session record.
export { createRedactor, isSecretEnvName, MIN_ENV_SECRET_CHARS, STREAM_HOLDBACK_CHARS, type RedactorOptions, type UserPattern } from './redaction/patternRedactor';
export { BUILTIN_RULES, type RedactionRule } from './redaction/rules';
export { redactionStreamOf } from './redaction/lineStream';
export { redactingLogger } from './redaction/redactingLogger';
export { OutputCollector, STREAM_HIGH_WATER_CHARS, type CollectedOutput } from './stream/outputStream';
export { buildFileDiffDisplay, FILE_DIFF_MAX_HUNKS, FILE_DIFF_MAX_LINES } from './displays/fileDiff';
export { buildBashOutputDisplay, BASH_OUTPUT_MAX_BYTES, type BashOutputSource } from './displays/commandOutput';
export * from './artifactLayout';
export { applyTotalBudget } from './batchBudget';
export * from './sessionRecord';
