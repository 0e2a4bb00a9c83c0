// terminal/* → our Bash with run_in_background, BashOutput and KillBash, through the executor:
//   create        Bash {run_in_background} (rules and approvals apply to the command line it runs)
//   output        BashOutput (a quiet call), appended to the terminal's buffer, cut from the front to
//                 the agent's outputByteLimit at a character boundary, as ACP asks
//   wait_for_exit the task's end (the executor's backgroundTaskEnded event), then a last BashOutput
//   kill          KillBash: the command's whole process tree
//   release       kill if still running, then forget the terminal
// Every terminal of a session is killed when the session is cancelled or the connection closes.
import type { Acp } from './sdk';
import { runCall, type CallRunner } from './calls';
import { failureOf } from './files';
import { AcpErrorCodes, fail, ok, type Outcome } from './outcome';

/** Kept when the agent names no outputByteLimit (ours; BashOutput's own model budget is smaller per read). */
export const TERMINAL_DEFAULT_OUTPUT_BYTES = 1024 * 1024;
/** `Started in the background as task <id>.` (src/tools/bash.ts). */
const STARTED = /Started in the background as task (\S+?)\./;
/** BashOutput's last line (src/tools/bashOutput.ts). */
const STATUS = /\n?\[Task \S+ (?:is still running|has ended: (?:killed by (\S+)|exit code (-?\d+|null)))\]$/;

interface Terminal {
  readonly id: string;
  readonly sessionId: string;
  readonly taskId: string;
  readonly limit: number;
  output: string;
  truncated: boolean;
  exit?: Acp.TerminalExitStatus;
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
    const limit = params.outputByteLimit != null && params.outputByteLimit >= 0 ? params.outputByteLimit : TERMINAL_DEFAULT_OUTPUT_BYTES;
    this.terminals.set(id, { id, sessionId: params.sessionId, taskId, limit, output: '', truncated: false });
    return ok({ terminalId: id });
  }

  async output(params: Acp.TerminalOutputRequest, signal: AbortSignal): Promise<Outcome<Acp.TerminalOutputResponse>> {
    const terminal = this.terminals.get(params.terminalId);
    if (!terminal || terminal.sessionId !== params.sessionId) return unknown(params.terminalId);
    const read = await this.refresh(terminal, signal);
    if (!read.ok) return read;
    return ok({ output: terminal.output, truncated: terminal.truncated, ...(terminal.exit ? { exitStatus: terminal.exit } : {}) });
  }

  async waitForExit(params: Acp.WaitForTerminalExitRequest, signal: AbortSignal): Promise<Outcome<Acp.WaitForTerminalExitResponse>> {
    const terminal = this.terminals.get(params.terminalId);
    if (!terminal || terminal.sessionId !== params.sessionId) return unknown(params.terminalId);
    if (!terminal.exit) {
      const ended = await this.ended(terminal.taskId, signal);
      if (!ended) return fail(AcpErrorCodes.cancelled, 'cancelled while waiting for the command to exit');
      const read = await this.refresh(terminal, AbortSignal.timeout(FINAL_READ_TIMEOUT_MS));
      if (!read.ok) return read;
    }
    return ok({ exitCode: terminal.exit?.exitCode ?? null, signal: terminal.exit?.signal ?? null });
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
    if (this.running(terminal.taskId)) {
      const killed = await this.stop(terminal, params.sessionId, signal);
      if (!killed.ok) return killed;
    }
    return ok({});
  }

  /** Kills every running command of `sessionId` (all sessions when undefined): cancel, or the agent went away. */
  async killAll(sessionId?: string): Promise<void> {
    const running = [...this.terminals.values()].filter((terminal) => (sessionId === undefined || terminal.sessionId === sessionId) && this.running(terminal.taskId));
    // Straight to the executor's task list: a cancelled session's calls would be cancelled too.
    await Promise.all(running.map((terminal) => this.runner.executor.backgroundTasks.stop(terminal.taskId)));
    if (sessionId === undefined) this.terminals.clear();
  }

  private running(taskId: string): boolean {
    return this.runner.executor.backgroundTasks.get(taskId)?.status === 'running';
  }

  private async stop(terminal: Terminal, sessionId: string, signal: AbortSignal): Promise<Outcome<void>> {
    if (this.running(terminal.taskId)) {
      const result = await runCall(this.runner, 'KillBash', { task_id: terminal.taskId }, { sessionId, signal });
      if (result.isError) return failureOf(result);
    }
    const read = await this.refresh(terminal, AbortSignal.timeout(FINAL_READ_TIMEOUT_MS));
    return read.ok ? ok(undefined) : read;
  }

  /** Resolves true when the task has ended, false when `signal` aborted first. */
  private ended(taskId: string, signal: AbortSignal): Promise<boolean> {
    if (!this.running(taskId)) return Promise.resolve(true);
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        unsubscribe();
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const onAbort = () => done(false);
      const unsubscribe = this.runner.executor.onEvent((event) => {
        if (event.type === 'backgroundTaskEnded' && event.taskId === taskId) done(true);
      });
      signal.addEventListener('abort', onAbort, { once: true });
      // It may have ended between the check above and the subscription.
      if (!this.running(taskId)) done(true);
    });
  }

  /** Reads what the command printed since the last read (redacted, through the executor) into the buffer. */
  private async refresh(terminal: Terminal, signal: AbortSignal): Promise<Outcome<void>> {
    const result = await runCall(this.runner, 'BashOutput', { task_id: terminal.taskId }, { sessionId: terminal.sessionId, signal, quiet: true });
    if (result.isError) return failureOf(result);
    const status = STATUS.exec(result.modelContent);
    let fresh = status ? result.modelContent.slice(0, status.index) : result.modelContent;
    if (fresh === '(no new output)') fresh = '';
    else if (fresh !== '' && status) fresh += '\n';
    if (status && (status[1] !== undefined || status[2] !== undefined)) {
      terminal.exit = { exitCode: status[2] === undefined || status[2] === 'null' ? null : Number(status[2]), signal: status[1] ?? null };
    }
    const cut = keepLastBytes(terminal.output + fresh, terminal.limit);
    terminal.output = cut.text;
    terminal.truncated ||= cut.truncated;
    return ok(undefined);
  }
}

/** A last read after the command ended or was killed is never cancelled by the request's own signal. Ours. */
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
