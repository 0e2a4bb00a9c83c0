// tool-exec: the headless CLI over the executor core. Exit 0 when the batch ran; 2 on misuse; 1 on an
// internal error; 128 + N when signal N ended the batch (SIGINT 130, SIGTERM 143, SIGHUP 129), and 141
// when the reader of stdout went away. However it ends, the calls still running are cancelled and
// reported (as far as stdout is still read), and every process they started is stopped.
import { setMaxListeners } from 'node:events';
import { createRedactor } from '../executor/results/redaction/patternRedactor';
import { CancellationError } from '../executor/contract/errors';
import { isLogLevel, StreamLogger } from '../node/streamLogger';
import { parseCommand, USAGE, UsageError } from './args';
import { CliOutput, divertProcessStdout } from './cliOutput';
import { ToolContainment } from './toolModules/containment';
import { runBatch } from './run';

declare const TOOL_EXEC_VERSION: string | undefined;

/** Exit codes of the signals that end a batch: 128 + the signal's number, as shells report them. */
const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
type EndingSignal = keyof typeof SIGNAL_EXIT_CODES;
/** The reader of stdout is gone (EPIPE): 128 + SIGPIPE, what a shell pipeline reports for it. */
const OUTPUT_CLOSED_EXIT_CODE = 141;

// Before anything can touch it: descriptor 1 is the CLI's own, tool code writing to stdout reaches stderr.
const output = new CliOutput();
divertProcessStdout();
// A terminal that hung up makes stderr fail too; that must not become a crash.
process.stderr.on('error', () => {});
const redactor = createRedactor({ env: process.env });
const stderr = (text: string) => {
  try {
    process.stderr.write(redactor.redact(text));
  } catch {
    // Nobody to tell.
  }
};
const containment = new ToolContainment(
  (message) => stderr(`tool-exec: ${message}\n`),
  (error) => {
    stderr(`tool-exec: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    containment.exit(1);
  },
);

async function main(argv: readonly string[]): Promise<number> {
  const command = parseCommand(argv);
  if (command.kind === 'help') {
    output.write(`${USAGE}\n`);
    return 0;
  }
  if (command.kind === 'version') {
    output.write(`${typeof TOOL_EXEC_VERSION === 'string' ? TOOL_EXEC_VERSION : 'dev'}\n`);
    return 0;
  }
  containment.install();
  const level = process.env.TOOL_EXEC_LOG;
  const turn = new AbortController();
  // Every running call listens to the turn; a batch of many is not a listener leak.
  setMaxListeners(0, turn.signal);
  let endedWith: number | undefined;
  const onSignal = (signal: EndingSignal) => {
    // A second signal ends at once; the exit hook still kills every process tree the calls started.
    if (endedWith !== undefined) containment.exit(endedWith);
    endedWith = SIGNAL_EXIT_CODES[signal];
    stderr(`tool-exec: ${signal}: cancelling the running calls (${signal === 'SIGINT' ? 'Ctrl-C' : 'the signal'} again to quit at once)\n`);
    turn.abort(new CancellationError(`tool-exec received ${signal}`));
  };
  const handlers = (Object.keys(SIGNAL_EXIT_CODES) as EndingSignal[]).map((signal) => {
    const handler = () => onSignal(signal);
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  output.onClosed(() => {
    endedWith ??= OUTPUT_CLOSED_EXIT_CODE;
    turn.abort(new CancellationError('the reader of stdout went away'));
  });
  try {
    if (command.kind === 'serve') {
      // Required here: a start of `run` does not evaluate vscode-jsonrpc and the bridge.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { serveStdio } = require('./serve') as typeof import('./serve');
      const logger = new StreamLogger(process.stderr, isLogLevel(level) ? level : 'error');
      const code = await serveStdio(command.args, { stdin: process.stdin, stdout: output, cwd: process.cwd(), logger, signal: turn.signal, containment });
      return endedWith ?? code;
    }
    const code = await runBatch(command.args, {
      stdin: process.stdin,
      stdout: output,
      cwd: process.cwd(),
      logger: new StreamLogger(process.stderr, isLogLevel(level) ? level : 'error'),
      signal: turn.signal,
      containment,
    });
    return endedWith ?? code;
  } finally {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  }
}

main(process.argv.slice(2)).then(
  // An explicit exit: a timer a tool left running must not keep the CLI alive after the batch.
  (code) => containment.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      stderr(`tool-exec: ${error.message}\n${error.message.startsWith('missing command') ? `\n${USAGE}\n` : ''}`);
      containment.exit(2);
    }
    stderr(`tool-exec: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    containment.exit(1);
  },
);
