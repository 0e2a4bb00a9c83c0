// Bash: runs a command in the user's shell, in its own process group. Output streams into the result
// pipeline (constant memory); on timeout or cancel the whole process tree dies (TERM, then KILL); exit code,
// signal and duration are reported. `run_in_background` returns a task id for BashOutput and KillBash.
import type { Readable } from 'node:stream';
import * as fs from 'node:fs';
import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutput, ToolOutputStream } from '../../executor';
import { deadlineClock, type ClockEntry } from '../../executor';
import { deferredSchema } from '../../executor';
import { formatGoDuration } from '../../executor';
import type { BackgroundShells } from './backgroundShells';
import type { BuiltinToolsOptions } from '../options';
import type { KillReport, ProcessSupervisor, ProcessTree } from '../process/processTree';
import { SpawnHelperLostError } from '../process/spawnHelper';
import { BlockedOutputScanner, blockedNote } from '../sandbox/blocked';
import { filterSecretEnv } from './secretEnv';
import { EscapeStripper } from './terminalEscapes';

/** Bash's default timeout, 2 minutes, as in the TypeScript executor the spec distils. */
export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
/** Bash's maximum timeout, 10 minutes, as in that executor; a call may ask for up to this. */
export const BASH_MAX_TIMEOUT_MS = 600_000;
/** Spec §3.7: the executor's deadline is the command's timeout plus this, so Bash reports its own timeout first. */
export const BASH_CLEANUP_GRACE_MS = 6_000;
/** Bash's output budget for the model, 30000 chars as in that executor; larger output is persisted or cut head+tail. */
export const BASH_MAX_MODEL_BYTES = 30_000;
/** After the shell exits, how long its output pipes may stay open before what still holds them is stopped. */
export const BASH_EXIT_DRAIN_MS = 500;
/** After a kill, how long to wait for the pipes to close (a daemon that escaped the tree may hold them). */
export const BASH_CLOSE_WAIT_MS = 1_000;
/** Linux's limit on one argument, its NUL included (MAX_ARG_STRLEN, 32 pages): the shell gets the command as one. */
export const LINUX_MAX_ARG_BYTES = 32 * 4096;

const inputSchema = deferredSchema(() =>
  z.object({
    command: z.string().min(1).describe('The command to run in the user\'s shell, in the workspace folder.'),
    timeout: z.number().int().positive().optional().describe(`Milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS}, max ${BASH_MAX_TIMEOUT_MS}).`),
    description: z.string().optional().describe('What the command does, in 5-10 words (shown to the user).'),
    run_in_background: z.boolean().optional().describe('Start it and return a task id at once; read its output with BashOutput, stop it with KillBash.'),
    dangerouslyDisableSandbox: z
      .boolean()
      .optional()
      .describe('Run outside the OS sandbox (when it is on); the user is asked to approve. Only after the sandbox blocked something the command really needs.'),
  }),
);
export type BashInput = z.infer<ReturnType<typeof inputSchema>>;

export interface BashData {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly durationMs: number;
  readonly timedOut: boolean;
  /** Processes the command left running in its group that were stopped after it exited. */
  readonly leftoversStopped: number;
  /** Processes that outlived every kill (pids): reported, never claimed as killed. */
  readonly survivors?: readonly number[];
  /** The output stayed open after every kill: a process nothing could find still holds it. */
  readonly untrackedHolder?: boolean;
  readonly taskId?: string;
  /** It ran inside the OS sandbox. */
  readonly sandboxed?: boolean;
  /** What the sandbox refused (paths, hosts), as told to the model. */
  readonly blocked?: readonly string[];
}

export interface BashDeps {
  readonly options: BuiltinToolsOptions;
  readonly supervisor: ProcessSupervisor;
  /** Absent when no background-task host was given. */
  readonly background?: BackgroundShells;
}

export function createBashTool(deps: BashDeps): ToolDefinition<BashInput, BashData> {
  return {
    name: 'Bash',
    description:
      `Runs a shell command in the workspace folder (a new shell each time). Default timeout ${formatGoDuration(BASH_DEFAULT_TIMEOUT_MS)}, ` +
      `max ${formatGoDuration(BASH_MAX_TIMEOUT_MS)}; on timeout the whole process tree is killed. Processes the command leaves running ` +
      'are stopped when it exits: use run_in_background for servers and watchers.',
    get inputSchema() {
      return inputSchema();
    },
    concurrentSafe: false,
    sideEffectScope: 'external',
    timeout: { defaultMs: BASH_DEFAULT_TIMEOUT_MS, maxMs: BASH_MAX_TIMEOUT_MS, allowCallOverride: true, cleanupGraceMs: BASH_CLEANUP_GRACE_MS },
    resultBudget: { maxModelBytes: BASH_MAX_MODEL_BYTES, strategy: 'artifact' },
    permissionSubject: (input) => ({ kind: 'command', command: input.command }),
    prepareApproval: (input) => ({
      preview: {
        title: input.description ? `Run: ${input.description}` : 'Run a shell command',
        detail: `${input.command}${input.run_in_background ? '\n(in the background)' : ''}${sandboxNote(input, deps)}`,
      },
    }),
    handler: (input, ctx) => (input.run_in_background ? startInBackground(input, ctx, deps) : deps.supervisor.hold(runForeground(input, ctx, deps))),
    cancellation: { userVisibleMessage: 'The user cancelled the command; its process tree is being stopped.' },
  };
}

/** The timeout a call runs with: its own (capped) or the default. */
export function bashTimeoutMs(requested: number | undefined): number {
  return Math.min(requested ?? BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS);
}

/** The shell's tree, and the sandbox key its violations are reported under when it runs sandboxed. */
interface StartedShell {
  readonly tree: ProcessTree;
  readonly sandboxKey?: string;
}

async function spawnShell(input: BashInput, ctx: ToolContext, deps: BashDeps): Promise<StartedShell | { readonly refused: string }> {
  const { env } = filterSecretEnv(deps.options.env ?? process.env, deps.options.allowedEnv);
  const [file, ...args] = shellCommand(deps.options.shell);
  const sandbox = deps.options.sandbox;
  let command = input.command;
  let sandboxKey: string | undefined;
  if (sandbox) {
    await sandbox.ready();
    ctx.throwIfAborted();
    const plan = sandbox.plan(input.command, input);
    // Approved without asking because it would be sandboxed: it never runs unsandboxed instead.
    if (sandbox.consumeAutoAllowed(ctx.callId) && !plan.sandboxed) return { refused: `The command was not run: it was allowed because it would run in the OS sandbox, but ${plan.why ?? 'the sandbox is off'}. Run it again to be asked.` };
    if (plan.sandboxed) {
      try {
        ({ command, key: sandboxKey } = await sandbox.wrap(input.command, file!, ctx.workDir, ctx.signal));
      } catch (error) {
        ctx.throwIfAborted();
        return { refused: `The command was not run: the OS sandbox could not be set up for it (${(error as Error).message}).` };
      }
    }
  }
  if (process.platform === 'linux' && Buffer.byteLength(command) >= LINUX_MAX_ARG_BYTES) {
    if (sandboxKey) await sandbox!.commandEnded();
    return {
      refused: `The command was not run: command too long (${Buffer.byteLength(command)} bytes; Linux takes at most ${LINUX_MAX_ARG_BYTES - 1} in one command line). Write the script to a file and run the file.`,
    };
  }
  let tree: ProcessTree;
  try {
    tree = await deps.supervisor.startShell(file!, [...args, command], { cwd: ctx.workDir, env }, ctx.onAbort);
  } catch (error) {
    // Cancelled while the spawn helper forked it: the shell is killed as it arrives.
    if (sandboxKey) await sandbox!.commandEnded();
    throw error;
  }
  tree.exited.catch(forgetShells);
  return { tree, sandboxKey };
}

function sandboxNote(input: BashInput, deps: BashDeps): string {
  const note = deps.options.sandbox?.approvalNote(input.command, input);
  return note ? `\n\n${note}` : '';
}

async function runForeground(input: BashInput, ctx: ToolContext, deps: BashDeps): Promise<ToolOutput<BashData>> {
  ctx.throwIfAborted();
  const timeoutMs = bashTimeoutMs(input.timeout);
  const startedAt = performance.now();
  const started = await spawnShell(input, ctx, deps);
  if ('refused' in started) return { content: started.refused, isError: true, data: emptyData(startedAt) };
  const { tree, sandboxKey } = started;
  const stream = ctx.openOutputStream({ display: 'bash_output' });
  // Inside the sandbox the error lines are kept (bounded) to name what it blocked.
  const scanner = sandboxKey ? new BlockedOutputScanner() : undefined;
  if (scanner) for (const pipe of [tree.child.stdout, tree.child.stderr]) pipe?.on('data', (chunk: Buffer) => scanner.feed(chunk.toString()));
  let drained = false;
  const pumped = Promise.all([pump(tree.child.stdout, stream), pump(tree.child.stderr, stream)]).then(() => {
    drained = true;
  });
  let timer: ClockEntry | undefined;
  let stopListening: (() => void) | undefined;
  const stopped = new Promise<'timeout' | 'cancel'>((resolve) => {
    timer = deadlineClock.at(performance.now() + timeoutMs, () => resolve('timeout'));
    stopListening = ctx.onAbort(() => resolve('cancel'));
  });
  let outcome: 'exit' | 'timeout' | 'cancel';
  let exit: { code: number | null; signal: NodeJS.Signals | null } = { code: null, signal: null };
  let leftoversStopped = 0;
  let killed: KillReport | undefined;
  let heldOpen = false;
  try {
    // 1. The shell exits, or the timeout or a cancel comes first.
    const first = await Promise.race([tree.exited.then((value) => ({ value })), stopped]);
    outcome = typeof first === 'string' ? first : 'exit';
    if (typeof first !== 'string') exit = first.value;
    if (outcome === 'exit') {
      // 2. Background jobs of the command may still run or hold the pipes: stop them. Most often the
      // pipes ended before the exit was seen, and no timer is needed.
      if (!drained) await settleWithin(pumped, BASH_EXIT_DRAIN_MS);
      killed = tree.startedNothing() ? NOTHING_KILLED : await tree.kill();
      // In the sandbox the command's pid namespace ends with it: what is still found there is the
      // runtime's own helpers (its proxy bridges) dying with it, not processes the command left behind.
      leftoversStopped = sandboxKey ? 0 : killed.signalled;
      // 3. Drain the pipes; only a process that escaped the tree (double fork) can keep them open until the deadline.
      const late = drained ? undefined : await Promise.race([pumped.then(() => undefined), stopped]);
      if (late) {
        outcome = late;
        // Still open after the kill: held by a process no kill can find (it left the tree, the group and its marker).
        heldOpen = !(await settleWithin(pumped, BASH_CLOSE_WAIT_MS));
      }
    } else {
      killed = await tree.kill();
      exit = await tree.exited.catch(() => exit);
      await settleWithin(pumped, BASH_CLOSE_WAIT_MS);
    }
  } catch (error) {
    // The spawn helper ended under the command: nothing can report its exit, so its tree is stopped.
    if (error instanceof SpawnHelperLostError) {
      const { survivors } = await tree.kill();
      const stopped = survivors.length === 0 ? 'The command was stopped' : `The command was signalled, but ${survivors.length} of its processes could not be stopped (pid ${survivors.join(', ')})`;
      return { content: `${stopped}: ${error.message}.`, isError: true, data: { ...emptyData(startedAt), ...(survivors.length > 0 ? { survivors } : {}) } };
    }
    return { content: `cannot start the shell: ${(error as Error).message}`, isError: true, data: emptyData(startedAt) };
  } finally {
    timer?.cancel();
    stopListening?.();
    tree.child.stdout?.destroy();
    tree.child.stderr?.destroy();
    if (sandboxKey) await deps.options.sandbox!.commandEnded();
  }
  const durationMs = performance.now() - startedAt;
  stream.close({ exitCode: exit.code, signal: exit.signal });
  const survivors = killed?.survivors ?? [];
  const blocked = sandboxKey && scanner ? await deps.options.sandbox!.blocked(sandboxKey, scanner.finish(), ctx.workDir) : [];
  const data: BashData = {
    exitCode: exit.code,
    signal: exit.signal,
    durationMs,
    timedOut: outcome === 'timeout',
    leftoversStopped,
    ...(survivors.length > 0 ? { survivors } : {}),
    ...(heldOpen ? { untrackedHolder: true } : {}),
    ...(sandboxKey ? { sandboxed: true } : {}),
    ...(blocked.length > 0 ? { blocked } : {}),
  };
  const timedOut = outcome === 'timeout';
  const content = summary(outcome, data, timeoutMs) + (blocked.length > 0 ? `\n${blockedNote(blocked)}` : '');
  return { content, isError: outcome !== 'exit' || exit.code !== 0, ...(timedOut ? { timedOut } : {}), data };
}

const NOTHING_KILLED: KillReport = { signalled: 0, forced: 0, survivors: [] };

function summary(outcome: 'exit' | 'timeout' | 'cancel', data: BashData, timeoutMs: number): string {
  const took = formatGoDuration(Math.round(data.durationMs));
  const lines: string[] = [];
  const survivors = data.survivors ?? [];
  const ended = data.untrackedHolder
    ? 'its process tree was signalled, but a process that left it (and its environment) still holds the output and could not be stopped'
    : survivors.length === 0
      ? 'its process tree was killed'
      : `its process tree was signalled, but ${survivors.length} process${survivors.length === 1 ? '' : 'es'} could not be stopped (pid ${survivors.join(', ')})`;
  if (outcome === 'timeout') {
    lines.push(
      `[Command timed out after ${formatGoDuration(timeoutMs)} and ${ended}. ` +
        `Give a larger timeout (max ${formatGoDuration(BASH_MAX_TIMEOUT_MS)}) or use run_in_background.]`,
    );
  } else if (outcome === 'cancel') {
    lines.push(`[Command cancelled; ${ended}.]`);
  } else if (data.signal) {
    lines.push(`[Killed by ${data.signal} after ${took}]`);
  } else {
    lines.push(`[Exit code ${data.exitCode} after ${took}]`);
  }
  if (outcome === 'exit' && survivors.length > 0) {
    lines.push(`[${survivors.length} process${survivors.length === 1 ? '' : 'es'} the command left running could not be stopped (pid ${survivors.join(', ')}).]`);
  } else if (data.leftoversStopped > 0) {
    lines.push(
      `[${data.leftoversStopped} process${data.leftoversStopped === 1 ? '' : 'es'} the command left running ` +
        `${data.leftoversStopped === 1 ? 'was' : 'were'} stopped; use run_in_background for processes that should keep running.]`,
    );
  }
  return lines.join('\n');
}

async function startInBackground(input: BashInput, ctx: ToolContext, deps: BashDeps): Promise<ToolOutput<BashData>> {
  if (!deps.background) return { content: 'run_in_background is not available here: run the command in the foreground.', isError: true };
  ctx.throwIfAborted();
  const startedAt = performance.now();
  const started = await spawnShell(input, ctx, deps);
  if ('refused' in started) return { content: started.refused, isError: true, data: emptyData(startedAt) };
  const { tree, sandboxKey } = started;
  if (sandboxKey) void tree.exited.catch(() => undefined).finally(() => void deps.options.sandbox!.commandEnded());
  const shell = deps.background.add(input.command, input.description, tree);
  return {
    content: `Started in the background as task ${shell.id}. Read its output with BashOutput {"task_id":"${shell.id}"}; stop it with KillBash {"task_id":"${shell.id}"}.`,
    data: { ...emptyData(startedAt), taskId: shell.id },
  };
}

/**
 * Feeds a pipe into the output stream, pausing it while the stream applies backpressure. Settles at the
 * pipe's end (every holder of its other end closed it, and all it carried was written), without
 * waiting for the handle's close a loop turn later.
 */
function pump(readable: Readable | null, stream: ToolOutputStream): Promise<void> {
  if (!readable) return Promise.resolve();
  const escapes = new EscapeStripper();
  return new Promise((resolve) => {
    readable.on('data', (chunk: Buffer) => {
      const text = escapes.strip(chunk);
      if (text.length === 0) return;
      readable.pause();
      void stream.write(text).then(() => readable.resume());
    });
    readable.once('end', () => resolve());
    readable.once('close', () => resolve());
    readable.once('error', () => resolve());
  });
}

async function settleWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true as const), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Shells `shellCommand` found, by the configured shell and `$SHELL`: the file system is asked once per
 * pair, not on every call (no synchronous `existsSync` before each spawn). A shell that fails
 * to start is looked up again (`forgetShells`).
 */
const foundShells = new Map<string, string>();

/** The user's shell and the arguments that make it run one command string. */
export function shellCommand(configured: string | undefined): string[] {
  if (process.platform === 'win32') return [configured ?? process.env.ComSpec ?? 'cmd.exe', '/d', '/s', '/c'];
  const fromEnv = process.env.SHELL;
  const key = `${configured ?? ''}\0${fromEnv ?? ''}`;
  let shell = foundShells.get(key);
  if (shell === undefined) {
    const candidates = [configured, fromEnv, '/bin/bash', '/bin/sh'].filter((candidate): candidate is string => !!candidate);
    shell = candidates.find((candidate) => candidate === configured || fs.existsSync(candidate)) ?? '/bin/sh';
    foundShells.set(key, shell);
  }
  return [shell, '-c'];
}

/** The shell could not be started: it may have moved, so the next call looks for it again. */
function forgetShells(): void {
  foundShells.clear();
}

function emptyData(startedAt: number): BashData {
  return { exitCode: null, signal: null, durationMs: performance.now() - startedAt, timedOut: false, leftoversStopped: 0 };
}
