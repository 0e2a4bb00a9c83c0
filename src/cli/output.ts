// Printing results: one JSON line per call (`--json`) or a readable listing, then a summary.
import type { ToolCallResult } from '../executor';
import { resultJsonLine } from '../executor';
import type { CliWriter } from './cliOutput';

export interface BatchSummary {
  readonly calls: number;
  readonly errors: number;
  readonly groups: number;
  readonly wallMs: number;
  /** Background commands still running when the batch ended; the CLI stops them as it exits. */
  readonly backgroundStopped?: readonly StoppedBackground[];
}

export interface StoppedBackground {
  readonly id: string;
  readonly command: string;
}

/**
 * Prints results in the model's order, each as soon as it and every earlier one are final; the
 * listing needs no more memory than the results still waiting for an earlier one.
 */
export class OrderedPrinter {
  private readonly order: string[] = [];
  private readonly ready = new Map<string, ToolCallResult>();
  private next = 0;

  constructor(
    private readonly json: boolean,
    private readonly out: CliWriter,
  ) {}

  /** The next call in the model's order. */
  expect(callId: string): void {
    this.order.push(callId);
    this.drain();
  }

  /** A final result (any order). */
  add(result: ToolCallResult): void {
    this.ready.set(result.callId, result);
    this.drain();
  }

  private drain(): void {
    while (this.next < this.order.length) {
      const result = this.ready.get(this.order[this.next]!);
      if (!result) return;
      this.ready.delete(result.callId);
      this.next++;
      this.out.write(`${this.json ? resultJsonLine(result) : humanResult(result, this.next)}\n`);
    }
  }
}

export function summaryLine(summary: BatchSummary): string {
  return JSON.stringify({ summary });
}

/** A listing for people: `[1] name  ok` or `[2] name  error (invocation)`, the content indented. */
export function humanResult(result: ToolCallResult, position: number): string {
  const status = result.isError ? `error (${result.errorKind})` : 'ok';
  const where = result.artifact ? `\n    saved: ${terminalSafe(result.artifact.path)}` : '';
  const body = terminalSafe(result.modelContent)
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
  return `[${position}] ${terminalSafe(result.name)} ${terminalSafe(result.callId)}  group ${result.group ?? 0}  ${status}  ${result.timing.totalMs} ms${where}\n${body}`;
}

export function humanSummary(summary: BatchSummary): string {
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const line = `${plural(summary.calls, 'call')}, ${plural(summary.errors, 'error')}, ${plural(summary.groups, 'group')}, ${summary.wallMs} ms`;
  const stopped = (summary.backgroundStopped ?? []).map((task) => `\nstopped background ${task.id} (still running at exit): ${terminalSafe(task.command)}`);
  return line + stopped.join('');
}

/**
 * Text for a terminal: escape sequences (ANSI colours, OSC titles and links, cursor moves) and other
 * control characters a tool printed are shown as `\x1b`-style escapes, never run by the user's terminal.
 */
export function terminalSafe(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
