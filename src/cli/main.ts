// tool-exec: the headless CLI over the executor core. Exit 0 when the batch ran; 2 on misuse.
import { isLogLevel, StreamLogger } from '../node/streamLogger';
import { parseCommand, USAGE, UsageError } from './args';
import { runBatch } from './run';

declare const TOOL_EXEC_VERSION: string | undefined;

async function main(argv: readonly string[]): Promise<number> {
  const command = parseCommand(argv);
  if (command.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command.kind === 'version') {
    process.stdout.write(`${typeof TOOL_EXEC_VERSION === 'string' ? TOOL_EXEC_VERSION : 'dev'}\n`);
    return 0;
  }
  const level = process.env.TOOL_EXEC_LOG;
  const turn = new AbortController();
  const onSigint = () => {
    if (turn.signal.aborted) process.exit(130);
    process.stderr.write('tool-exec: cancelling (Ctrl-C again to quit at once)\n');
    turn.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const code = await runBatch(command.args, {
      stdin: process.stdin,
      stdout: process.stdout,
      cwd: process.cwd(),
      logger: new StreamLogger(process.stderr, isLogLevel(level) ? level : 'error'),
      signal: turn.signal,
    });
    return turn.signal.aborted ? 130 : code;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`tool-exec: ${error.message}\n${error.message.startsWith('missing command') ? `\n${USAGE}\n` : ''}`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`tool-exec: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
