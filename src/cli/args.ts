// Command-line parsing for `tool-exec run`, with errors that name the problem (exit 2).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PERMISSION_MODES, type PermissionMode } from '../executor';

export const USAGE = `Usage: tool-exec run [--workspace DIR] [--tools MODULE]... [--concurrency N] [--max-result-bytes N]
                     [--timeout-ms N] [--approve allow|deny] [--mode default|acceptEdits|plan|bypass]
                     [--artifacts DIR] [--settings FILE] [--json] [--stream] CALLS|-

Runs a batch of tool calls through the executor and prints one result per call, in call order.
CALLS is a JSON array of {"id": string, "name": string, "input": object | string}; '-' reads stdin.
With --stream, CALLS has one such object per line (JSON Lines), each offered as its line arrives, so
qualifying calls start before the input ends; the end of the input ends the turn.

  --workspace DIR        workspace folder (default: the current directory)
  --tools MODULE         ES module whose default export is an array of tool definitions (repeatable)
  --concurrency N        handlers of one parallel group running at once (default 5)
  --max-result-bytes N   default result budget for tools that declare none (default 262144)
  --timeout-ms N         timeout for tools that declare none (default 300000)
  --approve allow|deny   answer every approval (default: ask on a TTY, deny otherwise)
  --mode MODE            permission mode (default: the settings' defaultMode, else default)
  --artifacts DIR        where large results and the session record are saved
                         (default: <tmp>/tool-exec/artifacts)
  --settings FILE        a settings.json shaped like Claude Code's: permissions.allow|ask|deny,
                         permissions.defaultMode, hooks
  --json                 one JSON object per call per line, then a summary line
  --stream               CALLS is JSON Lines, read and run as it arrives; results are printed in
                         order as soon as each and every earlier one is done
  -h, --help             this text
  --version              the version

       tool-exec serve --stdio [--workspace DIR] [--tools MODULE]... [--concurrency N] [--max-result-bytes N]
                     [--timeout-ms N] [--approve allow|deny] [--mode MODE] [--artifacts DIR] [--settings FILE]

Serves the bridge protocol (docs/PROTOCOL.md) over JSON-RPC on stdin/stdout for an agent that started
tool-exec as its child: initialize, executor/listTools, beginTurn, offer, endTurn, executeBatch,
cancelTurn, with executor/event notifications. Approvals come from --approve, --settings and hooks
(denied otherwise). It ends when the agent closes stdin or sends exit.

       tool-exec undo [--workspace DIR] [--artifacts DIR] [--turn ID] [--force] [--json]

Undoes a turn of tool-exec run (the last one by default): every path it changed, by a tool or by a
command, goes back to what it was before the turn. A path changed since is skipped and named, unless
--force. Undoing an undo is the redo.

       tool-exec checkpoints list|clear [--workspace DIR] [--artifacts DIR] [--json]

Lists the turns that can be undone (newest last), or removes them all.`;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The options `run` and `serve` share. */
export interface CliExecutorArgs {
  readonly workspace: string;
  readonly tools: readonly string[];
  readonly concurrency?: number;
  readonly maxResultBytes?: number;
  readonly timeoutMs?: number;
  readonly mode?: PermissionMode;
  readonly artifacts?: string;
  readonly settings?: string;
}

export interface ServeArgs extends CliExecutorArgs {
  readonly approve?: 'allow' | 'deny';
}

export interface RunArgs {
  readonly workspace: string;
  readonly tools: readonly string[];
  readonly concurrency?: number;
  readonly maxResultBytes?: number;
  readonly timeoutMs?: number;
  readonly approve?: 'allow' | 'deny';
  /** Undefined: the settings file's `defaultMode`, else `default`. */
  readonly mode?: PermissionMode;
  readonly artifacts?: string;
  readonly settings?: string;
  readonly json: boolean;
  /** CALLS is JSON Lines, offered line by line. */
  readonly stream: boolean;
  readonly calls: string;
}

export type Command =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'run'; readonly args: RunArgs }
  | { readonly kind: 'serve'; readonly args: ServeArgs }
  /** `undo` and `checkpoints`, parsed by their own module. */
  | { readonly kind: 'checkpoints'; readonly argv: readonly string[] };

/** `parseArgs` with positionals, strict, whose complaint is a misuse (exit 2). */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(argv: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...argv], allowPositionals: true as const, strict: true as const, options });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export function parseCommand(argv: readonly string[]): Command {
  if (argv[0] === 'undo' || argv[0] === 'checkpoints') return { kind: 'checkpoints', argv };
  const { values, positionals } = parseOptions(argv, {
    workspace: { type: 'string' },
    tools: { type: 'string', multiple: true },
    concurrency: { type: 'string' },
    'max-result-bytes': { type: 'string' },
    'timeout-ms': { type: 'string' },
    approve: { type: 'string' },
    mode: { type: 'string' },
    artifacts: { type: 'string' },
    settings: { type: 'string' },
    json: { type: 'boolean' },
    stream: { type: 'boolean' },
    stdio: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean' },
  });
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const [command, ...rest] = positionals;
  if (command === undefined) throw new UsageError('missing command: expected `run`, `serve`, `undo` or `checkpoints`');
  if (command !== 'run' && command !== 'serve') throw new UsageError(`unknown command '${command}': expected \`run\`, \`serve\`, \`undo\` or \`checkpoints\``);
  if (command === 'serve') return { kind: 'serve', args: serveArgs(values, rest) };
  if (rest.length === 0) throw new UsageError('missing CALLS: give a JSON file or - for stdin');
  if (rest.length > 1) throw new UsageError(`expected one CALLS argument, got ${rest.length}: ${rest.join(' ')}`);
  const approve = values.approve;
  if (approve !== undefined && approve !== 'allow' && approve !== 'deny') {
    throw new UsageError(`--approve must be allow or deny, got '${approve}'`);
  }
  const mode = values.mode;
  if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    throw new UsageError(`--mode must be one of ${PERMISSION_MODES.join(', ')}, got '${mode}'`);
  }
  return {
    kind: 'run',
    args: {
      workspace: values.workspace ?? process.cwd(),
      tools: values.tools ?? [],
      concurrency: positiveInt('--concurrency', values.concurrency),
      maxResultBytes: positiveInt('--max-result-bytes', values['max-result-bytes']),
      timeoutMs: positiveInt('--timeout-ms', values['timeout-ms']),
      approve,
      mode: mode as PermissionMode | undefined,
      artifacts: values.artifacts,
      settings: values.settings,
      json: values.json ?? false,
      stream: values.stream ?? false,
      calls: rest[0]!,
    },
  };
}

function serveArgs(values: Record<string, string | boolean | string[] | undefined>, rest: readonly string[]): ServeArgs {
  if (!values.stdio) throw new UsageError('serve needs --stdio (the only transport)');
  if (rest.length > 0) throw new UsageError(`serve takes no CALLS: ${rest.join(' ')}`);
  if (values.json || values.stream) throw new UsageError('--json and --stream are for run; serve speaks JSON-RPC');
  const approve = values.approve as string | undefined;
  if (approve !== undefined && approve !== 'allow' && approve !== 'deny') throw new UsageError(`--approve must be allow or deny, got '${approve}'`);
  const mode = values.mode as string | undefined;
  if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    throw new UsageError(`--mode must be one of ${PERMISSION_MODES.join(', ')}, got '${mode}'`);
  }
  return {
    workspace: (values.workspace as string | undefined) ?? process.cwd(),
    tools: (values.tools as string[] | undefined) ?? [],
    concurrency: positiveInt('--concurrency', values.concurrency as string | undefined),
    maxResultBytes: positiveInt('--max-result-bytes', values['max-result-bytes'] as string | undefined),
    timeoutMs: positiveInt('--timeout-ms', values['timeout-ms'] as string | undefined),
    approve,
    mode: mode as PermissionMode | undefined,
    artifacts: values.artifacts as string | undefined,
    settings: values.settings as string | undefined,
  };
}

function positiveInt(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < 1) {
    throw new UsageError(`${flag} must be a positive whole number, got '${value}'`);
  }
  return number;
}
