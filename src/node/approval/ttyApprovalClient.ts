// An approval client that asks on the terminal: [y]es once, [s]ession, [n]o (with an optional reason).
import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import type { ApprovalAnswer, ApprovalClient, ApprovalRequest } from '../../executor/ports/approvalClient';

/** Approvals are asked one at a time, so parallel calls never interleave their prompts. */
export class TtyApprovalClient implements ApprovalClient {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly ttyPath = '/dev/tty') {}

  requestApproval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const next = this.queue.then(() => this.ask(request, signal));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    signal.throwIfAborted();
    const input = createReadStream(this.ttyPath);
    const output = createWriteStream(this.ttyPath);
    const rl = createInterface({ input, output, terminal: true });
    try {
      const detail = request.preview?.detail ?? '';
      output.write(`\n${request.toolName} needs approval: ${request.reason}\n${indent(detail)}\n`);
      const once = request.onceAllowed !== false;
      const choices = [...(once ? ['[y]es once'] : []), ...(request.sessionAllowed ? ['[s]ession'] : []), '[n]o'].join(', ');
      for (;;) {
        const answer = (await rl.question(`Allow? ${choices}: `, { signal })).trim().toLowerCase();
        if (once && (answer === 'y' || answer === 'yes')) return { kind: 'allowOnce' };
        if (request.sessionAllowed && (answer === 's' || answer === 'session')) return { kind: 'allowSession' };
        if (answer === 'n' || answer === 'no' || answer === '') {
          const reason = (await rl.question('Reason for the model (optional): ', { signal })).trim();
          return reason ? { kind: 'deny', reason } : { kind: 'deny' };
        }
      }
    } finally {
      rl.close();
      input.destroy();
      output.end();
    }
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
