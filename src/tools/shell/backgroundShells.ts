// Commands started with `run_in_background`: each keeps a bounded tail of its output, remembers how far the
// model has read, and is tracked by the executor (`trackExternalBackgroundTask`) so it is listed and stopped.
import type { OutputFollower, TaskExit } from '../../executor';
import { formatBytes } from '../../executor';
import { BASH_EXIT_DRAIN_MS } from './exitDrain';
import type { BackgroundTaskHost } from '../options';
import type { ProcessTree } from '../process/supervisor';
import { EscapeStripper } from './terminalEscapes';

/** Output a background command keeps (its newest part); older output is dropped and counted. */
export const BACKGROUND_OUTPUT_MAX_CHARS = 1024 * 1024;

export interface BackgroundShellState {
  readonly id: string;
  readonly command: string;
  readonly running: boolean;
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** One background command. */
export class BackgroundShell {
  private chunks: string[] = [];
  private keptChars = 0;
  /** Chars ever written; offsets below are in this count. */
  private totalChars = 0;
  private readCursor = 0;
  private readonly decoder = { out: new TextDecoder(), err: new TextDecoder() };
  private readonly followers = new Set<OutputFollower>();
  exitCode: number | null = null;
  signal: string | null = null;
  running = true;
  /** Settles once `finish` has run: the command ended and its output was read (or given up on). */
  readonly finished: Promise<void>;
  private markFinished!: () => void;
  /** Settles when both output pipes have ended (every holder closed them and all they carried was read). */
  readonly drained: Promise<void>;

  constructor(
    readonly id: string,
    readonly command: string,
    readonly tree: ProcessTree,
  ) {
    this.finished = new Promise((resolve) => (this.markFinished = resolve));
    const escapes = { out: new EscapeStripper(), err: new EscapeStripper() };
    const pipes = [
      [tree.child.stdout, this.decoder.out, escapes.out],
      [tree.child.stderr, this.decoder.err, escapes.err],
    ] as const;
    this.drained = Promise.all(
      pipes.map(
        ([pipe, decoder, escape]) =>
          new Promise<void>((resolve) => {
            if (!pipe) return resolve();
            pipe.on('data', (chunk: Buffer) => this.append(decoder.decode(escape.strip(chunk), { stream: true })));
            // A character cut by the pipe's end is shown as U+FFFD rather than lost.
            pipe.once('end', () => resolve(this.append(decoder.decode())));
            pipe.once('close', () => resolve());
            pipe.once('error', () => resolve());
          }),
      ),
    ).then(() => undefined);
  }

  /** The command ended and its output was read: says so to whoever follows it. */
  finish(exit: TaskExit): void {
    this.running = false;
    this.exitCode = exit.exitCode;
    this.signal = exit.signal;
    for (const follower of this.followers) follower.ended(exit);
    this.followers.clear();
    this.markFinished();
  }

  /** Gives `follower` the output kept so far, then each new piece, then the end. */
  follow(follower: OutputFollower): () => void {
    if (this.totalChars > this.keptChars) follower.dropped();
    const kept = this.chunks.join('');
    if (kept !== '') follower.text(kept);
    if (!this.running) {
      follower.ended({ exitCode: this.exitCode, signal: this.signal });
      return () => {};
    }
    this.followers.add(follower);
    return () => void this.followers.delete(follower);
  }

  /** Everything still kept (the newest `BACKGROUND_OUTPUT_MAX_CHARS`). */
  output(): string {
    return this.dropNote(this.totalChars - this.keptChars) + this.chunks.join('');
  }

  /** Output since the last call (what was dropped meanwhile is counted, not shown). */
  readNew(): string {
    const keptFrom = this.totalChars - this.keptChars;
    const from = Math.max(this.readCursor, keptFrom);
    const text = this.chunks.join('').slice(from - keptFrom);
    const note = this.dropNote(from - this.readCursor);
    this.readCursor = this.totalChars;
    return note + text;
  }

  state(): BackgroundShellState {
    return { id: this.id, command: this.command, running: this.running, exitCode: this.exitCode, signal: this.signal };
  }

  private append(text: string): void {
    if (text === '') return;
    for (const follower of this.followers) follower.text(text);
    this.chunks.push(text);
    this.keptChars += text.length;
    this.totalChars += text.length;
    while (this.keptChars > BACKGROUND_OUTPUT_MAX_CHARS && this.chunks.length > 1) {
      this.keptChars -= this.chunks.shift()!.length;
    }
    if (this.keptChars > BACKGROUND_OUTPUT_MAX_CHARS) {
      const only = this.chunks[0]!;
      this.chunks = [only.slice(only.length - BACKGROUND_OUTPUT_MAX_CHARS)];
      this.keptChars = BACKGROUND_OUTPUT_MAX_CHARS;
    }
  }

  private dropNote(chars: number): string {
    return chars > 0 ? `[${formatBytes(chars)} of older output dropped]\n` : '';
  }
}

/** The session's background commands, by task id. */
export class BackgroundShells {
  private readonly shells = new Map<string, BackgroundShell>();

  constructor(readonly host: BackgroundTaskHost) {}

  /** Tracks a started tree with the executor; returns its task id. */
  add(command: string, description: string | undefined, tree: ProcessTree): BackgroundShell {
    const done = tree.exited.then(
      async ({ code, signal }) => {
        await drainedOrGrace(shell.drained);
        shell.finish({ exitCode: code, signal });
        if (code !== 0) throw new Error(signal ? `killed by ${signal}` : `exit code ${code}`);
      },
      (error: unknown) => {
        shell.finish({ exitCode: null, signal: null });
        throw error;
      },
    );
    let shell: BackgroundShell;
    const tracked = this.host.trackExternalBackgroundTask({
      name: 'Bash',
      description: description ?? command,
      done,
      stop: async () => {
        await tree.kill();
      },
      readOutput: () => shell.output(),
      follow: (follower) => shell.follow(follower),
    });
    shell = new BackgroundShell(tracked.id, command, tree);
    this.shells.set(tracked.id, shell);
    return shell;
  }

  get(id: string): BackgroundShell | undefined {
    return this.shells.get(id);
  }

  ids(): string[] {
    return [...this.shells.keys()];
  }
}

/** Resolves when the output has drained, or after `BASH_EXIT_DRAIN_MS` (a process the command left may hold the pipes). */
function drainedOrGrace(drained: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, BASH_EXIT_DRAIN_MS)));
  return Promise.race([drained, grace]).finally(() => clearTimeout(timer));
}
