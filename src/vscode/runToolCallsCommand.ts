// The "Run Tool Calls" command: runs a JSON batch of tool calls through the executor, the way a
// model's turn would, so a user (and the end-to-end suite) can drive the executor before the chat
// participant exists. Approvals show the modal dialog; `file_diff` results open diff editors; the
// results open beside, with links to persisted outputs.
import * as vscode from 'vscode';
import type { ToolCall } from '../executor/contract/contract';
import type { ToolExecutor } from '../executor/executor';
import type { ToolCallResult } from '../executor/contract/result';
import type { DiffEditorOpener } from './results/diffEditor';
import type { ResultsDocuments } from './results/resultsDocument';

export const RUN_TOOL_CALLS_COMMAND = 'agentToolExecutor.runToolCalls';

export interface RunToolCallsOptions {
  /** Open a diff editor per `file_diff` result. @default true */
  readonly openDiffs?: boolean;
  /** Open the results document beside the editor. @default true */
  readonly showResults?: boolean;
}

/** Parsed calls, or a message saying what is wrong with the text. */
export type ParsedCalls = { readonly ok: true; readonly calls: ToolCall[] } | { readonly ok: false; readonly error: string };

export class RunToolCallsCommand {
  constructor(
    private readonly executor: ToolExecutor,
    private readonly diffs: DiffEditorOpener,
    private readonly results: ResultsDocuments,
    private readonly workDir: () => string | undefined,
  ) {}

  /**
   * `calls`: an array of `{id?, name, input}` (or its JSON text). Without it, the active editor's
   * selection, or its whole text, is read as that JSON. Returns the results, or undefined when
   * there was nothing valid to run (the user is told why).
   */
  async run(calls?: unknown, options: RunToolCallsOptions = {}): Promise<ToolCallResult[] | undefined> {
    const parsed = parseCalls(calls ?? textOfActiveEditor());
    if (!parsed.ok) {
      void vscode.window.showErrorMessage(`Agent Tool Executor: ${parsed.error}`);
      return undefined;
    }
    const results = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Running ${describe(parsed.calls)}`, cancellable: true },
      (_progress, token) => this.execute(parsed.calls, token),
    );
    if (options.openDiffs ?? true) {
      for (const result of results) {
        if (!result.isError && result.display?.kind === 'file_diff') {
          await this.diffs.open(result.display, this.workDir());
        }
      }
    }
    if (options.showResults ?? true) {
      await this.results.show(results);
    }
    return results;
  }

  private async execute(calls: readonly ToolCall[], token: vscode.CancellationToken): Promise<ToolCallResult[]> {
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    try {
      return await this.executor.executeBatch(calls, { signal: controller.signal, label: 'Run Tool Calls from Editor' });
    } finally {
      subscription.dispose();
    }
  }
}

/** Accepts an array of calls or a single call, as values or JSON text; ids default to `call-N`. */
export function parseCalls(value: unknown): ParsedCalls {
  let data = value;
  if (typeof value === 'string') {
    if (value.trim() === '') {
      return { ok: false, error: 'no tool calls: open or select a JSON array of {"name", "input"} objects' };
    }
    try {
      data = JSON.parse(value);
    } catch (error) {
      return { ok: false, error: `the tool calls are not valid JSON: ${(error as Error).message}` };
    }
  }
  const items = Array.isArray(data) ? data : [data];
  const calls: ToolCall[] = [];
  for (const [index, item] of items.entries()) {
    if (typeof item !== 'object' || item === null || typeof (item as { name?: unknown }).name !== 'string') {
      return { ok: false, error: `tool call ${index + 1} needs a "name" string` };
    }
    const { id, name, input } = item as { id?: unknown; name: string; input?: unknown };
    calls.push({ id: typeof id === 'string' && id !== '' ? id : `call-${index + 1}`, name, input: input ?? {} });
  }
  return calls.length > 0 ? { ok: true, calls } : { ok: false, error: 'the list of tool calls is empty' };
}

function textOfActiveEditor(): string {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    return '';
  }
  return editor.selection.isEmpty ? editor.document.getText() : editor.document.getText(editor.selection);
}

function describe(calls: readonly ToolCall[]): string {
  return calls.length === 1 ? calls[0]!.name : `${calls.length} tool calls`;
}
