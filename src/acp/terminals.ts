// terminal/* → our Bash with run_in_background and KillBash through the executor, and the command's output
// followed as it comes:
//   create        Bash {run_in_background} (rules and approvals apply to the command line it runs); its output
//                 is then followed (redacted by the executor as one stream) into a ring of the last
//                 outputByteLimit bytes
//   output        the ring and what the redaction still holds back, cut from the front to the limit at a
//                 character boundary; `truncated` exactly when something was cut
//   wait_for_exit the command's end, as the command reported it (after its output was read)
//   kill          KillBash: the command's whole process tree
//   release       kill if still running, then forget the terminal
// Every terminal of a session is killed when the session is cancelled or the connection closes.
import type { Acp } from './sdk';
import type { FollowedOutput, TaskExit } from '../executor/turn/backgroundTasks';
import { TailBuffer } from '../executor/results/stream/tailBuffer';
import { runCall, type CallRunner } from './calls';
import { failureOf } from './files';
import { AcpErrorCodes, fail, ok, type Outcome } from './outcome';

/** Kept when the agent names no outputByteLimit (ours). */
export const TERMINAL_DEFAULT_OUTPUT_BYTES = 1024 * 1024;
/**
 * The most output a terminal keeps, whatever limit the agent names: an answer must fit the ACP SDK's 32 MiB
 * message even if JSON escapes every byte as `\u00XX` (6 bytes).
 */
export const TERMINAL_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
/** `Started in the background as task <id>.` (src/tools/shell/bash.ts). */
const STARTED = /Started in the background as task (\S+?)\./;

interface Terminal {
  readonly id: string;
  readonly sessionId: string;
  readonly taskId: string;
  readonly limit: number;
  /** The last `limit` UTF-16 units of output: at least the last `limit` bytes. */
  readonly tail: TailBuffer;
  /** UTF-8 bytes of output given to `tail`. */
  bytes: number;
  /** Output was dropped before it could be followed. */
  dropped: boolean;
  followed?: FollowedOutput;
  exit?: Acp.TerminalExitStatus;
  readonly ended: Promise<Acp.TerminalExitStatus>;
}

export class Terminals {
  private readonly terminals = new Map<string, Terminal>();
  private next = 1;

  constructor(private readonly runner: CallRunner) {}

  async create(params: Acp.CreateTerminalRequest, signal: AbortSignal): Promise<Outcome<Acp.CreateTerminalResponse>> {
    if (typeof params.command !== 'string' || params.command.trim() === '') return fail(AcpErrorCodes.invalidParams, 'command is required');
    const command = commandLine(params);
    const result = await runCall(this.runner, 'Bash', { command, run_in_background: true, description: `ACP terminal: ${params.command}` }, { sessionId: params.sessionId, signal });
    if (result.isError) return failureOf(result);
    const taskId = STARTED.exec(result.modelContent)?.[1];
    if (!taskId) return fail(AcpErrorCodes.internalError, `the command did not start in the background: ${result.modelContent}`);
    const id = `term-${this.next++}`;
    const asked = params.outputByteLimit != null && params.outputByteLimit >= 0 ? params.outputByteLimit : TERMINAL_DEFAULT_OUTPUT_BYTES;
    const limit = Math.min(asked, TERMINAL_MAX_OUTPUT_BYTES);
    let onEnd!: (exit: Acp.TerminalExitStatus) => void;
    const ended = new Promise<Acp.TerminalExitStatus>((resolve) => (onEnd = resolve));
    const terminal: Terminal = { id, sessionId: params.sessionId, taskId, limit, tail: new TailBuffer(limit), bytes: 0, dropped: false, ended };
    terminal.followed = this.runner.executor.backgroundTasks.follow(taskId, {
      text: (text) => {
        terminal.tail.push(text);
        terminal.bytes += Buffer.byteLength(text);
      },
      dropped: () => (terminal.dropped = true),
      ended: (exit: TaskExit) => {
        terminal.exit = { exitCode: exit.exitCode, signal: exit.signal };
        onEnd(terminal.exit);
      },
    });
    if (!terminal.followed) return fail(AcpErrorCodes.internalError, `the output of background task ${taskId} cannot be followed`);
    this.terminals.set(id, terminal);
    return ok({ terminalId: id });
  }

  async output(params: Acp.TerminalOutputRequest, _signal: AbortSignal): Promise<Outcome<Acp.TerminalOutputResponse>> {
    const terminal = this.terminals.get(params.terminalId);
    if (!terminal || terminal.sessionId !== params.sessionId) return unknown(params.terminalId);
    return ok({ ...outputOf(terminal), ...(terminal.exit ? { exitStatus: terminal.exit } : {}) });
  }

  async waitForExit(params: Acp.WaitForTerminalExitRequest, signal: AbortSignal): Promise<Outcome<Acp.WaitForTerminalExitResponse>> {
    const terminal = this.terminals.get(params.terminalId);
    if (!terminal || terminal.sessionId !== params.sessionId) return unknown(params.terminalId);
    const exit = terminal.exit ?? (await untilAborted(terminal.ended, signal));
    if (!exit) return fail(AcpErrorCodes.cancelled, 'cancelled while waiting for the command to exit');
    return ok({ exitCode: exit.exitCode ?? null, signal: exit.signal ?? null });
  }

  async kill(params: Acp.KillTerminalRequest, signal: AbortSignal): Promise<Outcome<Acp.KillTerminalResponse>> {
    const terminal = this.terminals.get(params.terminalId);
    if (!terminal || terminal.sessionId !== params.sessionId) return unknown(params.terminalId);
    const killed = await this.stop(terminal, params.sessionId, signal);
    return killed.ok ? ok({}) : killed;
  }

  async release(params: Acp.ReleaseTerminalRequest, signal: AbortSignal): Promise<Outcome<Acp.ReleaseTerminalResponse>> {
    const terminal = this.terminals.get(params.terminalId);
    if (!terminal || terminal.sessionId !== params.sessionId) return unknown(params.terminalId);
    this.terminals.delete(terminal.id);
    try {
      if (this.running(terminal.taskId)) {
        const killed = await this.stop(terminal, params.sessionId, signal);
        if (!killed.ok) return killed;
      }
      return ok({});
    } finally {
      // Followed until the kill's end arrived: `stop` waits for it.
      terminal.followed?.stop();
    }
  }

  /** Kills every running command of `sessionId` (all sessions when undefined): cancel, or the agent went away. */
  async killAll(sessionId?: string): Promise<void> {
    const running = [...this.terminals.values()].filter((terminal) => (sessionId === undefined || terminal.sessionId === sessionId) && this.running(terminal.taskId));
    // Straight to the executor's task list: a cancelled session's calls would be cancelled too.
    await Promise.all(running.map((terminal) => this.runner.executor.backgroundTasks.stop(terminal.taskId)));
    if (sessionId === undefined) {
      for (const terminal of this.terminals.values()) terminal.followed?.stop();
      this.terminals.clear();
    }
  }

  private running(taskId: string): boolean {
    return this.runner.executor.backgroundTasks.get(taskId)?.status === 'running';
  }

  /** KillBash, then the end as the command reports it (its output read). */
  private async stop(terminal: Terminal, sessionId: string, signal: AbortSignal): Promise<Outcome<void>> {
    if (this.running(terminal.taskId)) {
      const result = await runCall(this.runner, 'KillBash', { task_id: terminal.taskId }, { sessionId, signal });
      if (result.isError) return failureOf(result);
    }
    await untilAborted(terminal.ended, AbortSignal.timeout(FINAL_READ_TIMEOUT_MS));
    return ok(undefined);
  }
}

/** What the agent gets: the last `limit` bytes of all the command printed, and whether anything was cut. */
function outputOf(terminal: Terminal): { output: string; truncated: boolean } {
  const pending = terminal.followed?.pending() ?? '';
  const cut = keepLastBytes(terminal.tail.text() + pending, terminal.limit);
  return { output: cut.text, truncated: terminal.dropped || terminal.bytes + Buffer.byteLength(pending) > terminal.limit };
}

/** Resolves with `promise`'s value, or undefined once `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then((value) => {
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
  });
}

/** How long a kill waits for the command to report its end (its output read). Ours. */
const FINAL_READ_TIMEOUT_MS = 10_000;

/** `command args…` as one shell line: the arguments quoted, `cwd` and `env` in front. */
export function commandLine(params: Pick<Acp.CreateTerminalRequest, 'command' | 'args' | 'env' | 'cwd'>): string {
  const args = params.args ?? [];
  const main = args.length === 0 ? params.command : [params.command, ...args].map(shellQuote).join(' ');
  const env = (params.env ?? [])
    .filter((variable) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(variable.name))
    .map((variable) => `${variable.name}=${shellQuote(variable.value)}`);
  // `export` rather than `NAME=value cmd`: a plain shell line may be several commands, and each gets them.
  const line = env.length === 0 ? main : `export ${env.join(' ')}; ${main}`;
  return params.cwd ? `cd ${shellQuote(params.cwd)} && ${line}` : line;
}

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The last `limit` bytes of `text`, starting at a character boundary. */
export function keepLastBytes(text: string, limit: number): { text: string; truncated: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return { text, truncated: false };
  let start = bytes.length - limit;
  // Skip UTF-8 continuation bytes (10xxxxxx) so the kept text starts on a whole character.
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  return { text: bytes.subarray(start).toString('utf8'), truncated: true };
}

function unknown(terminalId: string): Outcome<never> {
  return fail(AcpErrorCodes.resourceNotFound, `there is no terminal ${terminalId} in this session`);
}
