// Commands started with `run_in_background`: each keeps a bounded tail of its output, remembers how far the
// model has read, and is tracked by the executor (`trackExternalBackgroundTask`) so it is listed and stopped.
import { formatBytes } from '../executor/text';
import type { BackgroundTaskHost } from './options';
import type { ProcessTree } from './processTree';
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
  exitCode: number | null = null;
  signal: string | null = null;
  running = true;

  constructor(
    readonly id: string,
    readonly command: string,
    readonly tree: ProcessTree,
  ) {
    const escapes = { out: new EscapeStripper(), err: new EscapeStripper() };
    tree.child.stdout?.on('data', (chunk: Buffer) => this.append(this.decoder.out.decode(escapes.out.strip(chunk), { stream: true })));
    tree.child.stderr?.on('data', (chunk: Buffer) => this.append(this.decoder.err.decode(escapes.err.strip(chunk), { stream: true })));
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
    const done = tree.exited.then(({ code, signal }) => {
      shell.running = false;
      shell.exitCode = code;
      shell.signal = signal;
      if (code !== 0) throw new Error(signal ? `killed by ${signal}` : `exit code ${code}`);
    });
    let shell: BackgroundShell;
    const tracked = this.host.trackExternalBackgroundTask({
      name: 'Bash',
      description: description ?? command,
      done,
      stop: async () => {
        await tree.kill();
      },
      readOutput: () => shell.output(),
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
