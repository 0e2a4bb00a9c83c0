// One of our built-in tools as a VS Code language model tool, for every agent (Copilot's agent mode,
// other participants, `vscode.lm.invokeTool`). Each invocation is a turn of its own with one call,
// through the same pipeline as `@executor`'s calls:
//   1. `prepareInvocation`: the progress message only ("Reading src/a.ts", redacted). It returns no
//      `confirmationMessages`: our permission layer decides when the call runs, and asks in our modal
//      (rules, modes, session approvals and hooks apply; VS Code's own confirmation would ask twice).
//   2. `invoke`: `executor.beginTurn` with the invocation's token as the turn's signal; one
//      `offer`, `end`, the one result.
//   3. The model content (redacted, budgeted, large output saved as an artifact) as text. A call the
//      caller's token cancelled ends as cancelled in our pipeline and throws VS Code's CancellationError.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ToolExecutor } from '../../executor';
import type { Redactor } from '../../executor';
import { progressMessage } from './progressMessage';

export interface LmToolHost {
  readonly executor: ToolExecutor;
  readonly redactor: Redactor;
}

export class ExecutorLanguageModelTool implements vscode.LanguageModelTool<object> {
  constructor(
    /** The registry's name (`Read`), not VS Code's (`agentToolExecutor_read`). */
    private readonly toolName: string,
    private readonly host: LmToolHost,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<object>): vscode.PreparedToolInvocation {
    const presentation = this.host.executor.registry.get(this.toolName)?.def.presentation;
    return { invocationMessage: this.host.redactor.redact(progressMessage(this.toolName, options.input, presentation)) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<object>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const controller = new AbortController();
    const onCancel = token.onCancellationRequested(() => controller.abort());
    if (token.isCancellationRequested) controller.abort();
    try {
      const turn = this.host.executor.beginTurn({ signal: controller.signal, offeredTools: new Set([this.toolName]) });
      turn.offer({ id: `lm-${randomUUID()}`, name: this.toolName, input: options.input });
      turn.end();
      const [result] = await turn.results();
      if (!result) throw new Error(`the executor gave no result for ${this.toolName}`);
      if (result.errorKind === 'cancelled' && token.isCancellationRequested) throw new vscode.CancellationError();
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(result.modelContent)]);
    } finally {
      onCancel.dispose();
    }
  }
}
